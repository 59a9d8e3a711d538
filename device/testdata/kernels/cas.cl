// Every work-item adds its id to one counter with a compare-and-swap loop
// (lanes of a warp retry until each wins once), and records the value it
// saw when it won; atomic_xchg and atomic_cmpxchg on local memory too.
__kernel void cas(__global volatile uint *sum, __global uint *seen, __global uint *lsum)
{
    __local volatile uint acc;
    uint id = get_global_id(0);
    if (get_local_id(0) == 0)
        atomic_xchg(&acc, 0u);
    barrier(CLK_LOCAL_MEM_FENCE);
    uint old, prev;
    do {
        old = sum[0];
        prev = atomic_cmpxchg(sum, old, old + id);
    } while (prev != old);
    seen[id] = old;
    do {
        old = acc;
    } while (atomic_cmpxchg(&acc, old, old + 1u) != old);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0)
        lsum[get_group_id(0)] = acc;
}
