// Images on the executor (emu/images_kernel_test.go has the references):
// signed integer writes, normalized and linear sampling, 3D and array
// images, queries, and a write outside the image.

__kernel void iwrite(__write_only image2d_t dst, __global const int4 *v)
{
    int x = get_global_id(0), y = get_global_id(1);
    write_imagei(dst, (int2)(x, y), v[y * get_global_size(0) + x]);
}

__kernel void sample(__read_only image2d_t src, sampler_t s, __global const float2 *coord, __global float4 *out)
{
    int i = get_global_id(0);
    out[i] = read_imagef(src, s, coord[i]);
}

__kernel void volume(__read_only image3d_t src, __read_only image2d_array_t arr, __global float4 *out, __global int *q)
{
    int i = get_global_id(0);
    out[2 * i] = read_imagef(src, (int4)(i % 2, i / 2 % 2, i / 4, 0));
    out[2 * i + 1] = read_imagef(arr, (int4)(i % 2, 0, i, 0));
    if (i == 0) {
        int4 d = get_image_dim(src);
        q[0] = d.x;
        q[1] = d.y;
        q[2] = d.z;
        q[3] = get_image_depth(src);
        q[4] = (int)get_image_array_size(arr);
    }
}

__kernel void outside(__write_only image2d_t dst, int x)
{
    write_imagef(dst, (int2)(x, 0), (float4)(1.0f));
}
