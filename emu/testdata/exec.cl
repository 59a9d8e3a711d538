// Executor behaviour on whole kernels (emu/exec_test.go has the
// references): divergence and reconvergence, atomics in lane order,
// builtins, faults, barriers some work-items miss, a kernel that never
// ends, and printf.

// Nested divergence: lanes split three ways, loop different trip counts
// and meet again; the phi values they carry must be their own.
__kernel void diverge(__global const int *in, __global int *out)
{
    int i = get_global_id(0);
    int x = in[i], acc = 0;
    if (x % 3 == 0) {
        for (int k = 0; k < x; k++)
            acc = (acc ^ k) + 1;
    } else if (x % 3 == 1) {
        acc = -x;
        if (x > 10)
            return;
    } else {
        int k = x;
        while (k > 1)
            k = (k & 1) ? 3 * k + 1 : k / 2, acc++;
    }
    out[i] = acc * 2 + 1;
}

// Each lane increments a counter and keeps what it saw: lanes of a warp
// take their turns in lane order, warps in order.
__kernel void order(__global int *counter, __global int *seen, __global ulong *mixed)
{
    int i = get_global_id(0);
    seen[i] = atomic_inc(counter);
    atom_xor(&mixed[0], (ulong)1 << i);
    atom_max(&mixed[1], (ulong)i * 0x100000001UL);
}

__kernel void ids(__global int *out)
{
    size_t g = (get_global_id(1) - get_global_offset(1)) * get_global_size(0) + get_global_id(0) - get_global_offset(0);
    __global int *o = out + 12 * g;
    o[0] = get_global_id(0);
    o[1] = get_global_id(1);
    o[2] = get_local_id(0);
    o[3] = get_local_id(1);
    o[4] = get_group_id(0);
    o[5] = get_group_id(1);
    o[6] = get_num_groups(0);
    o[7] = get_global_size(1);
    o[8] = get_global_offset(0);
    o[9] = get_work_dim();
    o[10] = get_local_size(1);
    o[11] = get_local_size(0);
}

__kernel void store_at(__global int *p, int n)
{
    p[get_global_id(0) + n] = 1;
}

__kernel void write_const(__global const int *src, __global int *dst)
{
    int i = get_global_id(0);
    dst[i] = src[i];
    ((__global int *)src)[i] = 0;
}

__kernel void local_at(__local int *l, __global int *out, int n)
{
    l[get_local_id(0) + n] = 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = l[get_local_id(0)];
}

__kernel void half_barrier(__global int *out)
{
    if (get_local_id(0) < 3)
        barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = 1;
}

__kernel void exit_then_barrier(__global int *out)
{
    if (get_local_id(0) == 5)
        return;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = 1;
}

__kernel void spin(__global volatile int *flag, int want)
{
    while (flag[0] != want)
        ;
}

__kernel void say(__global const float *f, __global const char *s, int n)
{
    int i = get_global_id(0);
    if (i < n)
        printf("item %d: %5.2f|%-4d|%x|%o|%c|%s|%e|%u|%%|%v4hd|%#X|%ld|%+d\n", i, f[i], i * 3, 255 + i, 8, 'A' + i, s,
               f[i] * 1000.0f, (uint)-i, (short4)(1, -2, 3, -4), 0xabc, (long)i << 40, i);
}

__kernel void floats(__global const float *g, int n)
{
    int i = get_global_id(0);
    if (i < n)
        printf("%g|%G|%f|%8.3e|%a|%E|%5.1f|% f\n", g[i], g[i], g[i], g[i], g[i], g[i], g[i], g[i]);
}

// Work-group g loops longer the lower g is, then its work-items store at
// out-of-bounds addresses when g >= bad: with several threads a later
// work-group faults first, and the run must still report work-group bad.
__kernel void late_fault(__global int *p, int bad)
{
    int g = get_group_id(0), n = get_num_groups(0);
    int acc = 0;
    for (int k = 0; k < (n - 1 - g) * 64; k++)
        acc += k;
    p[get_global_id(0) + (g >= bad ? 1 << 20 : 0)] = acc;
}

// A whole warp (of 8) returns before the barrier the other warp of its
// work-group reaches: the barrier can never be passed.
__kernel void warp_exits(__global int *out)
{
    if (get_local_id(0) >= 8)
        return;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = 1;
}
