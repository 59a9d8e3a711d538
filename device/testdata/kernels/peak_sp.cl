// clpeak-style single-precision peak: chains of mad where each step
// depends on the one before (x and y feed each other), 2048 mads per
// work-item. peak_sp takes one float a work-item, peak_sp4 a float4
// (the same count of lane operations in a quarter of the iterations).
#define MADS_4(x, y) x = mad(y, x, y); y = mad(x, y, x); x = mad(y, x, y); y = mad(x, y, x);
#define MADS_16(x, y) MADS_4(x, y) MADS_4(x, y) MADS_4(x, y) MADS_4(x, y)

__kernel void peak_sp(__global float *out, float a)
{
    float x = a;
    float y = (float)get_local_id(0);
    for (int i = 0; i < 128; i++) {
        MADS_16(x, y)
    }
    out[get_global_id(0)] = y;
}

__kernel void peak_sp4(__global float *out, float a)
{
    float4 x = (float4)(a, a + 1.0f, a + 2.0f, a + 3.0f);
    float4 y = (float4)get_local_id(0);
    for (int i = 0; i < 32; i++) {
        MADS_16(x, y)
    }
    out[get_global_id(0)] = y.s0 + y.s1 + y.s2 + y.s3;
}
