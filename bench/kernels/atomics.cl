// Atomics. Hand-off latency: two work-items in different warps pass a
// counter back and forth: in round r, work-item `me` (0 or 1) polls the
// counter with an atomic read (atomic_add of 0) until it holds 2r+me, then
// moves it on with atomic_inc. Each round is two hand-offs. spins counts
// the polls that found the other's turn. (atomic_cmpxchg would do both in
// one operation; pocketgpu's IR builder cannot lower it yet.)

// Global memory: the two work-items are work-groups 0 and 1 (one work-item
// each). The barrier keeps them in different warps on Rogue, which
// otherwise packs small work-groups into one task (seed 003 §Unified
// Shading Cluster: not with a barrier and no compile-time size); in one
// task the spinning work-item would hold the other's lanes back forever.
__kernel void handoff_global(__global volatile uint *p, __global uint *spins, uint rounds)
{
    uint me = get_group_id(0);
    uint n = 0;
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (uint r = 0; r < rounds; r++) {
        uint want = 2 * r + me;
        while (atomic_add(p, 0u) != want)
            n++;
        atomic_inc(p);
    }
    spins[me] = n;
}

// Local memory: the first work-item of each of the two warps of one
// work-group (warp is the warp width the host picked).
__kernel void handoff_local(__global uint *spins, __local volatile uint *p, uint rounds, uint warp)
{
    uint lid = get_local_id(0);
    if (lid == 0)
        *p = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid % warp != 0)
        return;
    uint me = lid / warp;
    uint n = 0;
    for (uint r = 0; r < rounds; r++) {
        uint want = 2 * r + me;
        while (atomic_add(p, 0u) != want)
            n++;
        atomic_inc(p);
    }
    spins[me] = n;
}

// Atomic-add throughput: every work-item adds to its own counter (64 of
// them, so lanes of a warp hit different words), iters times, four adds a
// round.
__kernel void add_global(__global uint *p, uint iters)
{
    __global uint *q = p + (get_global_id(0) & 63u);
    for (uint k = 0; k < iters; k++) {
        atomic_add(q, 1u);
        atomic_add(q, 2u);
        atomic_add(q, 3u);
        atomic_add(q, 4u);
    }
}

__kernel void add_local(__global uint *out, __local uint *p, uint iters)
{
    uint lid = get_local_id(0);
    if (lid < 64)
        p[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    __local uint *q = p + (lid & 63u);
    for (uint k = 0; k < iters; k++) {
        atomic_add(q, 1u);
        atomic_add(q, 2u);
        atomic_add(q, 3u);
        atomic_add(q, 4u);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < 64)
        out[get_group_id(0) * 64 + lid] = p[lid];
}
