// Images for the IR builder's tests (ir/images_run_test.go has the
// references): reads with a literal and an argument sampler, sampler-less
// reads, writes of floats and signed and unsigned integers, size queries.

__constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

__kernel void fcopy(__read_only image2d_t src, __write_only image2d_t dst, sampler_t s, __global int *dims)
{
    int x = get_global_id(0), y = get_global_id(1);
    float4 a = read_imagef(src, nearest, (int2)(x, y));
    float4 b = read_imagef(src, s, (float2)(x + 1.5f, y + 0.5f));
    write_imagef(dst, (int2)(x, y), a + 2.0f * b);
    if (x == 0 && y == 0) {
        dims[0] = get_image_width(src);
        dims[1] = get_image_height(src);
        int2 d = get_image_dim(dst);
        dims[2] = d.x;
        dims[3] = d.y;
    }
}

__kernel void icopy(__read_only image2d_t src, __write_only image2d_t dst)
{
    int x = get_global_id(0), y = get_global_id(1);
    int4 v = read_imagei(src, (int2)(x, y));
    write_imagei(dst, (int2)(x, y), v - (int4)(100, 200, 300, 400));
}

__kernel void ucopy(__read_only image1d_t src, __write_only image1d_t dst, __global uint4 *out)
{
    int x = get_global_id(0);
    uint4 v = read_imageui(src, x);
    out[x] = v;
    write_imageui(dst, x, v * 2u + (uint4)(x));
}
