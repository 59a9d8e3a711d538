#version 450
// The two-result integer operations: add with carry, subtract with borrow,
// and the extended (full-width) multiplies, on every element.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) readonly buffer B { uint b[]; };
layout(set = 0, binding = 2) writeonly buffer Out { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint carry, borrow, hi, lo;
    int shi, slo;
    uint sum = uaddCarry(a[i], b[i], carry);
    uint diff = usubBorrow(a[i], b[i], borrow);
    umulExtended(a[i], b[i], hi, lo);
    imulExtended(int(a[i]), int(b[i]), shi, slo);
    o[8*i+0] = sum;  o[8*i+1] = carry;
    o[8*i+2] = diff; o[8*i+3] = borrow;
    o[8*i+4] = lo;   o[8*i+5] = hi;
    o[8*i+6] = uint(slo); o[8*i+7] = uint(shi);
}
