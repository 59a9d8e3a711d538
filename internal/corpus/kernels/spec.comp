#version 450
// Specialization constants (the work-group size too), push constants and
// buffers in two descriptor sets. Arguments in (set, binding) order, then
// the push constants: a, b, c, d, n, bias.
layout(local_size_x = 32, local_size_x_id = 0) in;

layout(constant_id = 1) const int SHIFT = 3;
layout(constant_id = 2) const float GAIN = 1.5;
layout(constant_id = 3) const bool NEGATE = true;

layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { float b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer C { uint c[]; };
layout(std430, set = 1, binding = 0) buffer D { float d[]; };

layout(push_constant) uniform Push {
    uint n;
    float bias;
} pc;

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.n)
        return;
    uint v = (a[i] >> SHIFT) + gl_WorkGroupID.x * gl_WorkGroupSize.x;
    c[i] = NEGATE ? ~v : v;
    d[i] = b[i] * GAIN + pc.bias + d[i];
}
