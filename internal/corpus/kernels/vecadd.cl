// c = a + b over n elements; the global size is rounded up to the work-group
// size, so the tail work-items must do nothing.
__kernel void vecadd(__global const float *a, __global const float *b,
                     __global float *c, uint n)
{
    uint i = get_global_id(0);
    if (i < n)
        c[i] = a[i] + b[i];
}
