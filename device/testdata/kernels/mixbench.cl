// A mixbench-style compute kernel: each work-item keeps ELEMS values in a
// private array and applies ITERS rounds of multiply-add to each.
#define ELEMS 8
#define ITERS 64
__kernel void mix(__global float *out, float seed)
{
    float r[ELEMS];
    size_t id = get_global_id(0);
    for (int i = 0; i < ELEMS; i++)
        r[i] = seed + (float)id + (float)i;
    for (int it = 0; it < ITERS; it++)
        for (int i = 0; i < ELEMS; i++)
            r[i] = r[i] * 0.9f + seed;
    float s = 0.0f;
    for (int i = 0; i < ELEMS; i++)
        s += r[i];
    out[id] = s;
}
