#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
// Memory for the IR builder's tests (ir/memory_run_test.go has the
// references): program-scope constant tables, private arrays indexed at
// run time, structs passed by value and copied whole, pointer differences,
// local memory with barriers, async work-group copies and atomics.

__constant int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
__constant float4 scale = (float4)(0.5f, 2.0f, -1.0f, 4.0f);

typedef struct {
    int a;
    char b;
    float c[3];
    long d;
} rec;

int pick(__private int *p, int k)
{
    return p[k & 7] * 2;
}

__kernel void tables(__global const int *in, __global int *out, __global float4 *f)
{
    int i = get_global_id(0);
    int priv[8];
    for (int k = 0; k < 8; k++)
        priv[k] = table[(k + i) & 7] + in[i];
    out[i] = pick(priv, in[i]) + table[in[i] & 7];
    f[i] = scale * (float)i;
}

__kernel void structs(rec r, __global const rec *in, __global rec *out, __global long *diff)
{
    int i = get_global_id(0);
    rec x = in[i];
    x.a += r.a;
    x.b = r.b + (char)i;
    x.c[i % 3] = r.c[2] * x.c[0];
    x.d = r.d - i;
    out[i] = x;
    __global const rec *p = in + i;
    diff[i] = (long)(p - in) + (long)(&out[i].c[2] - &out[0].c[0]);
}

__kernel void shared(__global const float *in, __global float *out, __local float *scratch)
{
    __local float fixed[64];
    int l = get_local_id(0), n = get_local_size(0);
    fixed[l] = in[get_global_id(0)];
    scratch[l] = 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = n / 2; s > 0; s >>= 1) {
        if (l < s)
            fixed[l] += fixed[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    scratch[n - 1 - l] = fixed[0] + (float)l;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = scratch[l];
}

__kernel void copies(__global const int *in, __global int *out, __local int *tile)
{
    int g = get_group_id(0), n = get_local_size(0), l = get_local_id(0);
    event_t e = async_work_group_copy(tile, in + g * n, (size_t)n, 0);
    wait_group_events(1, &e);
    tile[l] *= 3;
    barrier(CLK_LOCAL_MEM_FENCE);
    e = async_work_group_strided_copy(out + g * n * 2, tile, (size_t)n, 2, 0);
    wait_group_events(1, &e);
}

__kernel void atomics(__global int *c, __global uint *u, __global long *w, __global int *old)
{
    int i = get_global_id(0);
    __local int lc[2];
    if (get_local_id(0) == 0) {
        lc[0] = 0;
        lc[1] = 100;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(&c[0], i);
    atomic_sub(&c[1], 2);
    atomic_inc(&c[2]);
    atomic_dec(&c[3]);
    atomic_min(&c[4], 50 - i);
    atomic_max(&c[5], i * 3 - 20);
    atomic_and(&u[0], ~(1u << (i & 31)));
    atomic_or(&u[1], 1u << (i & 31));
    atomic_xor(&u[2], (uint)i);
    atomic_min(&u[3], (uint)(i + 7));
    atomic_max(&u[4], (uint)(i ^ 5));
    old[i] = atomic_cmpxchg(&c[6], i, i + 1);
    atomic_xchg(&c[7], 1234);
    atom_add(&w[0], (long)i << 33);
    atomic_add(&lc[0], 1);
    atomic_sub(&lc[1], i);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        atomic_add(&c[8], lc[0]);
        atomic_add(&c[9], lc[1]);
    }
}
