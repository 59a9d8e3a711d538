// OpenCL C twin of kernels/spec.comp with its specialization constants'
// defaults, so that PoCL can check the GLSL case's Go reference. The
// multiply and the adds are separate statements, as GLSL does not fuse them.
#define SHIFT 3
#define GAIN 1.5f
#define NEGATE 1

__kernel void twin(__global const uint *a, __global const float *b,
                   __global uint *c, __global float *d, uint n, float bias)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    uint v = (a[i] >> SHIFT) + get_group_id(0) * get_local_size(0);
    c[i] = NEGATE ? ~v : v;
    float p = b[i] * GAIN;
    float s = p + bias;
    d[i] = s + d[i];
}
