// Conversions for the IR builder's tests (ir/cl_run_test.go has the
// references): rounding modes float to int, saturation, reinterpreting
// casts between vectors of different component widths, and the narrow and
// wide integer types.

__kernel void round_int(__global const float *f, __global int *out)
{
    int i = get_global_id(0);
    float x = f[i];
    out[5 * i + 0] = convert_int(x);
    out[5 * i + 1] = convert_int_rte(x);
    out[5 * i + 2] = convert_int_rtp(x);
    out[5 * i + 3] = convert_int_rtn(x);
    out[5 * i + 4] = convert_int_sat(x * 1e10f);
}

__kernel void sat(__global const int *in, __global const long *wide, __global uchar *u8, __global short *s16,
                  __global char *s8, __global uint *u32)
{
    int i = get_global_id(0);
    u8[i] = convert_uchar_sat(in[i]);
    s16[i] = convert_short_sat(wide[i]);
    s8[i] = convert_char_sat((uint)in[i]);
    u32[i] = convert_uint_sat(wide[i]);
}

__kernel void reinterpret(__global const uint *in, __global uchar4 *b, __global ushort2 *s, __global uint *w,
                          __global float *f)
{
    int i = get_global_id(0);
    uint x = in[i];
    uchar4 c = as_uchar4(x);
    b[i] = c.wzyx;
    ushort2 h = as_ushort2(c + (uchar4)(1));
    s[i] = h;
    ulong l = as_ulong((uint2)(x, ~x));
    w[2 * i] = (uint)(l >> 16);
    w[2 * i + 1] = as_uint((float)i) ^ as_uint(as_float(x) * 0.0f);
    f[i] = as_float(as_int(2.0f) + i);
}

__kernel void widths(__global const char *c, __global const short *s, __global const long *l, __global long *out)
{
    int i = get_global_id(0);
    char a = c[i];
    short b = s[i];
    long x = l[i];
    out[6 * i + 0] = (long)a * b;
    out[6 * i + 1] = (long)(uchar)a + (ushort)b;
    out[6 * i + 2] = x / (b | 1);
    out[6 * i + 3] = x % 1000;
    out[6 * i + 4] = mul_hi(x, (long)0x123456789L);
    out[6 * i + 5] = (long)(a >> 2) + (short)(b << 3) + ((ulong)x >> 60);
}
