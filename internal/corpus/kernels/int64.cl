// 64-bit integer arithmetic: mul_hi (unsigned and signed), rotate, popcount,
// clz (including clz(0) = 64), wrapping multiply-add, arithmetic shift and
// division.
__kernel void int64ops(__global const ulong *a, __global const ulong *b,
                       __global ulong *out)
{
    uint i = get_global_id(0);
    ulong x = a[i], y = b[i];
    __global ulong *o = out + 8 * i;
    o[0] = mul_hi(x, y);
    o[1] = rotate(x, y);
    o[2] = popcount(x);
    o[3] = clz(y >> (x & 63));
    o[4] = x * y + (x >> 7);
    o[5] = (ulong)((long)x >> (y & 63));
    o[6] = x / ((y >> 40) | 1);
    o[7] = (ulong)mul_hi((long)x, (long)y);
}
