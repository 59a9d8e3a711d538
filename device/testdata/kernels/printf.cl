__kernel void hello(__global const float *x)
{
    uint i = get_global_id(0);
    if (i < 2)
        printf("item %u: x=%.2f v=%v2d\n", i, x[i], (int2)(i, -1));
}
