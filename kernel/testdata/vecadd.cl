// A small kernel for the compile tests.
#include "scale.h"

__kernel void vecadd(__global const float *a, __global const float *b, __global float *c)
{
    size_t i = get_global_id(0);
    c[i] = SCALE * (a[i] + b[i]);
}
