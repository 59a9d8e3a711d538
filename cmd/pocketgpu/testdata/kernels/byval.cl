// A struct passed by value, 24 bytes in OpenCL's layout: a at 0, b at 4,
// c at 8 (float2, 8-byte aligned), n at 16, padded to 24.
typedef struct { int a; float b; float2 c; int n; } params;

__kernel void byval(__global float *out, params p)
{
    size_t i = get_global_id(0);
    out[i] = (float)(p.a + (int)i * p.n) * p.b + p.c.x - p.c.y;
}
