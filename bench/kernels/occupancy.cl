// Local-memory occupancy: every work-group (one warp) allocates `local`
// bytes of local memory and its first work-item follows a short ring in
// global memory (cache-resident), so a work-group takes a fixed time that
// is latency, not throughput. N work-groups then take about
// ceil(N / resident) times as long as one, which tells how many were
// resident at once.
__kernel void occupancy(__global const uint *next, __global uint *out, __local uint *scratch, uint steps)
{
    uint lid = get_local_id(0);
    scratch[lid] = lid;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid != 0)
        return;
    uint i = 0;
    for (uint k = 0; k < steps; k += 4) {
        i = next[i]; i = next[i]; i = next[i]; i = next[i];
    }
    out[get_group_id(0)] = i + scratch[get_local_size(0) - 1];
}

// The same without local memory: the baseline.
__kernel void occupancy_none(__global const uint *next, __global uint *out, uint steps)
{
    if (get_local_id(0) != 0)
        return;
    uint i = 0;
    for (uint k = 0; k < steps; k += 4) {
        i = next[i]; i = next[i]; i = next[i]; i = next[i];
    }
    out[get_group_id(0)] = i;
}
