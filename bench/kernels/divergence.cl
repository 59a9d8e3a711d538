// Divergence cost: work-items in runs of `group` take one of two paths of
// equal cost (8 multiply-add chains each). While group is at least the warp
// width every warp is uniform; below it every warp runs both paths, one
// after the other, with half its lanes masked off.
#define M8(a, b, c) a0 = mad(a0, b, c); a1 = mad(a1, b, c); a2 = mad(a2, b, c); a3 = mad(a3, b, c); \
                    a4 = mad(a4, b, c); a5 = mad(a5, b, c); a6 = mad(a6, b, c); a7 = mad(a7, b, c);

__kernel void divergence(__global float *out, uint iters, uint group, float b, float c)
{
    uint id = get_global_id(0);
    float x = (float)(id & 7u);
    float a0 = x, a1 = x + 1.0f, a2 = x + 2.0f, a3 = x + 3.0f;
    float a4 = x + 4.0f, a5 = x + 5.0f, a6 = x + 6.0f, a7 = x + 7.0f;
    if ((id / group) & 1u) {
        for (uint k = 0; k < iters; k++) {
            M8(a, b, c) M8(a, b, c) M8(a, b, c) M8(a, b, c)
        }
    } else {
        for (uint k = 0; k < iters; k++) {
            M8(a, c, b) M8(a, c, b) M8(a, c, b) M8(a, c, b)
        }
    }
    out[id] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}
