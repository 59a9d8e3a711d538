// read_imagef on an image2d with a sampler declared in the source: integer
// coordinates, nearest filtering, clamp to edge. The NDRange is one texel
// larger than the image on every side, so the border work-items read
// clamped coordinates.
__constant sampler_t smp = CLK_NORMALIZED_COORDS_FALSE |
                           CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

__kernel void image2d(read_only image2d_t img, __global float4 *out)
{
    int x = get_global_id(0), y = get_global_id(1);
    int w = get_global_size(0);
    float4 t = read_imagef(img, smp, (int2)(x - 1, y - 1));
    out[y * w + x] = t * 2.0f + (float4)((float)x, (float)y, 0.0f, 1.0f);
}
