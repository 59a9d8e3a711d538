#version 450
// Compute shader for the spirv decoder tests: storage buffers, shared memory,
// a barrier, specialization constants (and an OpSpecConstantOp), GLSL.std.450 calls and a switch.
layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;
layout(constant_id = 1) const float SCALE = 2.0;
layout(constant_id = 2) const uint K = 3u;
const uint K2 = K * 2u + 1u; // an OpSpecConstantOp expression

layout(set = 0, binding = 0) readonly buffer In { vec4 v[]; } src;
layout(set = 0, binding = 1) buffer Out { float r[]; } dst;
layout(push_constant) uniform PC { uint n; int mode; } pc;

shared float partial[64];

void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint l = gl_LocalInvocationID.x;
    float x = 0.0;
    if (i < pc.n) {
        vec4 a = src.v[i];
        switch (pc.mode) {
        case 0: x = inversesqrt(abs(a.x) + 1.0); break;
        case 1: x = fma(a.y, a.z, a.w); break;
        case 5: x = clamp(length(a), 0.0, SCALE); break;
        default: x = max(a.x, a.y);
        }
    }
    partial[l % 64] = x;
    barrier();
    if (l == 0) {
        float s = 0.0;
        for (uint k = 0; k < 64; k++)
            s += partial[k];
        dst.r[gl_WorkGroupID.x] = s * SCALE + float(K2);
    }
}
