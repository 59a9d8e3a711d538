// Vector types up to 16 components, swizzles, 3-component vectors (which
// occupy 4 in memory), and a private array indexed by a run-time value.
__kernel void vectors(__global const float16 *a, __global const int8 *b,
                      __global const float3 *c3, __global float16 *o16,
                      __global int8 *o8, __global float3 *o3,
                      __global float *osum, __global ushort2 *o2)
{
    uint i = get_global_id(0);
    float16 v = a[i];
    int8 w = b[i];

    o16[i] = (float16)(v.hi, v.lo) + v.sfedcba9876543210 * 2.0f;

    // Wrapping arithmetic in uint8: signed overflow is undefined in OpenCL C.
    int8 w2 = as_int8(as_uint8(w.s76543210) * (uint8)(1, 2, 3, 4, 5, 6, 7, 8) + as_uint8(w >> 2));
    o8[i] = select(w2, as_int8((uint8)0 - as_uint8(w2)), w2 < (int8)0);

    float3 t = c3[i];
    o3[i] = t.zxy - v.s012;

    float tmp[16];
    vstore16(v, 0, tmp);
    float acc = 0.0f;
    for (int k = 0; k < 16; k++)
        acc = acc * 0.5f + tmp[(k * 5 + i) & 15];
    osum[i] = acc;

    ushort2 s = convert_ushort2(as_uint2(w.s01)) * (ushort2)(65533, 1000); // modulo 2^16
    o2[i] = s.yx;
}
