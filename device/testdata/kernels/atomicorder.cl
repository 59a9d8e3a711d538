// Each work-item takes a ticket from a work-group counter in local memory
// after a barrier and stores it at its global id: the order in which the
// work-group's warps did their atomics (ArchProbe's warp-size method reads
// the warp width off where the tickets stop ascending).
__kernel void tickets(__global int *out)
{
    __local int next;
    if (get_local_id(0) == 0)
        next = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = atomic_inc(&next);
}
