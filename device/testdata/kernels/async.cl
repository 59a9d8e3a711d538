// Each work-group copies 512 floats into local memory with
// async_work_group_copy, then every work-item reads one of them.
// copy_fixed fixes its work-group size at compile time (Rogue's burst
// path, seed 003); copy_free does not.
#define BODY                                                                 \
    __local float tmp[512];                                                 \
    event_t e = async_work_group_copy(tmp, in + get_group_id(0) * 512, 512, 0); \
    wait_group_events(1, &e);                                                \
    barrier(CLK_LOCAL_MEM_FENCE);                                            \
    out[get_global_id(0)] = tmp[get_local_id(0) * 8];

__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void copy_fixed(__global const float *in, __global float *out) { BODY }

__kernel void copy_free(__global const float *in, __global float *out) { BODY }
