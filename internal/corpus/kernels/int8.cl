// 8-bit integer vectors: wrapping and saturating adds, arithmetic shifts,
// abs to unsigned, min/max, and a dot product widened to int.
__kernel void int8ops(__global const char4 *a, __global const char4 *b,
                      __global char4 *sum, __global char4 *sat,
                      __global uchar4 *mixed, __global int *dot)
{
    uint i = get_global_id(0);
    char4 x = a[i], y = b[i];
    sum[i] = as_char4(as_uchar4(x) + as_uchar4(y)); // wraps, without signed overflow
    sat[i] = add_sat(x, y);
    mixed[i] = abs(x) ^ as_uchar4(y >> (char4)(1, 2, 3, 7)) ^ (as_uchar4(max(x, y)) - as_uchar4(min(x, y)));
    dot[i] = x.x * y.x + x.y * y.y + x.z * y.z + x.w * y.w;
}
