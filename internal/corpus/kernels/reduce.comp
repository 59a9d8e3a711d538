#version 450
// Per-work-group float sum in shared memory, halving steps with barriers.
layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) readonly buffer In { float data[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { float sums[]; };

shared float part[64];

void main()
{
    uint l = gl_LocalInvocationID.x;
    part[l] = data[gl_GlobalInvocationID.x];
    barrier();
    for (uint s = 32u; s > 0u; s >>= 1) {
        if (l < s)
            part[l] += part[l + s];
        barrier();
    }
    if (l == 0u)
        sums[gl_WorkGroupID.x] = part[0];
}
