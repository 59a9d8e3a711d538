// async_work_group_copy of 4 KB into local memory (seed 003 §System Memory
// Access): a burst of up to 4096 bytes across the work-group in one
// instruction when the work-group has 17 or more work-items and its size is
// fixed at compile time; otherwise ordinary transfers. Three builds: 32
// work-items fixed, 16 fixed (under the 17), 32 not fixed.
#define COPY(NAME, ATTR)                                                        \
ATTR __kernel void NAME(__global const float4 *src, __global float *out,       \
                        uint rounds)                                           \
{                                                                              \
    __local float4 tile[256];                                                  \
    float acc = 0.0f;                                                          \
    for (uint r = 0; r < rounds; r++) {                                        \
        event_t e = async_work_group_copy(tile, src + (r & 7u) * 256u, 256, 0); \
        wait_group_events(1, &e);                                              \
        acc += tile[(get_local_id(0) + r) & 255u].x;                           \
        barrier(CLK_LOCAL_MEM_FENCE);                                          \
    }                                                                          \
    out[get_global_id(0)] = acc;                                               \
}

COPY(copy_fixed32, __attribute__((reqd_work_group_size(32, 1, 1))))
COPY(copy_fixed16, __attribute__((reqd_work_group_size(16, 1, 1))))
COPY(copy_unfixed, )
