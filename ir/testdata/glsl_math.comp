#version 450
// Matrix and vector arithmetic, the extended integer arithmetic, bit
// fields, packing, a specialization-constant expression, a runtime array's
// length and boolean vectors: what glslang emits for them, for the IR
// builder's tests (ir/lower_run_test.go has the reference).
layout(local_size_x = 4) in;

layout(constant_id = 0) const int K = 3;
const int K2 = K * 2 + 1; // OpSpecConstantOp

struct Item {
    mat4 m;
    vec4 v;
};

layout(std430, set = 0, binding = 0) readonly buffer In { Item items[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { vec4 o[]; };
layout(std430, set = 0, binding = 2) writeonly buffer OutU { uint u[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    Item it = items[i];
    mat4 m = it.m;
    vec4 v = it.v;
    o[5 * i + 0] = m * v;
    o[5 * i + 1] = v * m;
    mat4 t = transpose(m);
    o[5 * i + 2] = (t * m)[1] * 0.5;
    mat2 op = outerProduct(v.xy, v.zw);
    o[5 * i + 3] = vec4(op[0], op[1]) + vec4(dot(v, v.wzyx));
    o[5 * i + 4] = (m * 2.0)[3];

    uint base = 16u * i;
    uint c;
    u[base + 0u] = uaddCarry(floatBitsToUint(v.x), 0xC0000000u, c);
    u[base + 1u] = c;
    uint hi, lo;
    umulExtended(uint(K2) + i, 0x80000001u, hi, lo);
    u[base + 2u] = hi;
    u[base + 3u] = lo;
    int ihi, ilo;
    imulExtended(int(i) - 2, -7, ihi, ilo);
    u[base + 4u] = uint(ihi);
    u[base + 5u] = uint(ilo);
    uint b;
    u[base + 6u] = usubBorrow(i, 2u, b);
    u[base + 7u] = b;
    u[base + 8u] = bitfieldInsert(0xffffffffu, i + 1u, 4, 8);
    u[base + 9u] = uint(bitfieldExtract(int(0xabcd1234u) + int(i), 12, 8));
    u[base + 10u] = bitfieldExtract(0xabcd1234u + i, 12, 8);
    u[base + 11u] = packHalf2x16(v.xy);
    u[base + 12u] = uint(findMSB(i + 5u)) | uint(findLSB(i + 4u)) << 8;
    bvec4 gt = greaterThan(v, vec4(2.5));
    u[base + 13u] = uint(any(gt)) | uint(all(gt)) << 1 | uint(not(gt).x) << 2;
    u[base + 14u] = uint(items.length());
    u[base + 15u] = bitCount(i + 6u) | bitfieldReverse(i) ;
}
