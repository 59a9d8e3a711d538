// Four independent samples a loop, each added into its sum before the next
// is read (source order sample, add, sample, add ...): a compiler that
// issues fetches early has all four in flight at once, one that keeps the
// source order waits for each.
__kernel void interleaved(read_only image1d_buffer_t img, __global uint4 *out, uint mask, uint iters)
{
    uint g = get_global_size(0);
    uint i = get_global_id(0);
    uint4 s[4];
    for (int j = 0; j < 4; j++)
        s[j] = 0;
    for (uint k = 0; k < iters; k++) {
#pragma unroll
        for (int j = 0; j < 4; j++) {
            s[j] += read_imageui(img, (int)(i & mask));
            i += g;
        }
    }
    out[get_global_id(0)] = s[0] + 2u * s[1] + 3u * s[2] + 4u * s[3];
}
