// ALU-bound: 8 independent multiply-add (mad) chains per work-item.
__kernel void madloop(__global float *out, uint iters, float m)
{
    float x = (float)get_global_id(0) * 0.001f;
    float a0 = x, a1 = x + 1.0f, a2 = x + 2.0f, a3 = x + 3.0f;
    float a4 = x + 4.0f, a5 = x + 5.0f, a6 = x + 6.0f, a7 = x + 7.0f;
    for (uint k = 0; k < iters; k++) {
        a0 = a0 * m + 0.5f;  a1 = a1 * m + 0.25f;
        a2 = a2 * m + 0.125f; a3 = a3 * m - 0.5f;
        a4 = a4 * m + 1.0f;  a5 = a5 * m - 0.25f;
        a6 = a6 * m + 0.75f; a7 = a7 * m - 1.0f;
    }
    out[get_global_id(0)] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}
