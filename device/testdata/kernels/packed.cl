// Work-groups smaller than a task (seed 003 §Unified Shading Cluster): on
// Rogue several share a task unless the kernel has a barrier and its size
// was not fixed at compile time. Each work-group keeps its own ids and its
// own local memory. sel[i] is work-item i's local id, which the compiler
// cannot know, so the local array is really written and read back.
#define TAG(gid, grp, lid) (((uint)(grp) << 16) | ((uint)(lid) << 8) | ((uint)(gid) & 255u))

// No barrier: every work-item reads back its own slot.
__kernel void own_slot(__global const uint *sel, __global uint *out)
{
    __local uint loc[32];
    uint lid = get_local_id(0), gid = get_global_id(0);
    loc[lid] = TAG(gid, get_group_id(0), lid);
    out[gid] = loc[sel[gid]];
}

// A barrier, size fixed at compile time: still packed; each work-item reads
// its right-hand neighbour's slot.
__kernel __attribute__((reqd_work_group_size(8, 1, 1)))
void neighbour_fixed(__global const uint *sel, __global uint *out)
{
    __local uint loc[8];
    uint lid = get_local_id(0), gid = get_global_id(0);
    loc[sel[gid]] = TAG(gid, get_group_id(0), lid);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[gid] = loc[(lid + 1u) & 7u];
}

// A barrier and no compile-time size: one work-group per task.
__kernel void neighbour_free(__global const uint *sel, __global uint *out)
{
    __local uint loc[16];
    uint lid = get_local_id(0), gid = get_global_id(0);
    loc[sel[gid]] = TAG(gid, get_group_id(0), lid);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[gid] = loc[(lid + 1u) % (uint)get_local_size(0)];
}
