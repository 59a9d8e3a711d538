// async_work_group_copy is one copy per work-group (emu/kernel_test.go has
// the references): work-items change their element of the tile after the
// wait, before the other warps of the work-group reach the copy.

__kernel void tile3(__global const int *in, __global int *out, __local int *tile)
{
    int g = get_group_id(0), n = get_local_size(0), l = get_local_id(0);
    event_t e = async_work_group_copy(tile, in + g * n, (size_t)n, 0);
    wait_group_events(1, &e);
    tile[l] *= 3;
    barrier(CLK_LOCAL_MEM_FENCE);
    e = async_work_group_strided_copy(out + g * n * 2, tile, (size_t)n, 2, 0);
    wait_group_events(1, &e);
}

// The copy in a loop: every round copies a new slice once.
__kernel void rounds(__global const int *in, __global int *out, __local int *tile)
{
    int g = get_group_id(0), n = get_local_size(0), l = get_local_id(0);
    int acc = 0;
    for (int r = 0; r < 3; r++) {
        event_t e = async_work_group_copy(tile, in + (g * 3 + r) * n, (size_t)n, 0);
        wait_group_events(1, &e);
        tile[l] += r * 1000;
        barrier(CLK_LOCAL_MEM_FENCE);
        acc += tile[(l + 1) % n];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = acc;
}
