// read_imageui on image1d_buffer images. ring holds a chase ring in channel
// x (made by chase:STRIDE): work-item i starts at texel i*slot and follows
// `steps` links. texels is read whole: each work-item reverses its texel's
// channels and adds its id.
__kernel void image1d(read_only image1d_buffer_t ring,
                      read_only image1d_buffer_t texels,
                      __global uint *ends, __global uint4 *swizzled,
                      uint steps, uint slot)
{
    int i = get_global_id(0);
    int p = i * slot;
    for (uint s = 0; s < steps; s++)
        p = read_imageui(ring, p).x;
    ends[i] = p;
    swizzled[i] = read_imageui(texels, i).wzyx + (uint)i;
}
