// A 64-bin histogram: each work-group counts into __local bins with
// atomic_inc, then adds its bins to the global histogram with atomic_add.
// stats[0] counts work-items (global atomic_inc), stats[1] is the largest
// value seen (global atomic_max), stats[2] the smallest (atomic_min).
#define BINS 64

__kernel void histogram(__global const uint *data, __global uint *hist,
                        __global uint *stats, __local uint *bins, uint n)
{
    uint l = get_local_id(0);
    uint ls = get_local_size(0);
    for (uint b = l; b < BINS; b += ls)
        bins[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint hi = 0, lo = 0xffffffffu;
    for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
        uint v = data[i];
        atomic_inc(&bins[v % BINS]);
        hi = max(hi, v);
        lo = min(lo, v);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint b = l; b < BINS; b += ls) {
        uint c = bins[b];
        if (c != 0)
            atomic_add(&hist[b], c);
    }
    atomic_inc(&stats[0]);
    atomic_max(&stats[1], hi);
    atomic_min(&stats[2], lo);
}
