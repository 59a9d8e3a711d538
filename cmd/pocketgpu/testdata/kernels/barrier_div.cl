// Only the even work-items reach the barrier.
__kernel void barrier_div(__global uint *out)
{
    uint i = get_local_id(0);
    if ((i & 1) == 0) {
        out[i] = i;
        barrier(CLK_GLOBAL_MEM_FENCE);
    }
}
