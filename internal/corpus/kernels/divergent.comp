#version 450
// The same divergent loops as divergent.cl, as structured GLSL control flow.
layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) readonly buffer Trips { uint trips[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint outv[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint n = trips[i] % 37u;
    uint acc = i;
    for (uint k = 0u; k < n; k++) {
        if (k % 7u == 3u)
            continue;
        if (acc > 100000u) {
            if ((i & 1u) != 0u)
                acc = acc / 3u + k;
            else
                acc ^= k << 4;
        } else if ((acc & 3u) == 2u) {
            acc = acc * 5u + 1u;
        } else {
            acc += k * k;
        }
        if (acc % 97u == 13u)
            break;
    }
    uint steps = 0u;
    uint x = acc;
    while (x > 1u && steps < 64u) {
        x = (x & 1u) != 0u ? 3u * x + 1u : x >> 1;
        steps++;
    }
    outv[i] = acc ^ (steps << 24);
}
