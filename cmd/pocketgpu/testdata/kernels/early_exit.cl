// Work-items past n return before the barrier the others reach.
__kernel void early_exit(__global uint *out, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    out[i] = i;
    barrier(CLK_GLOBAL_MEM_FENCE);
    out[i] += 1;
}
