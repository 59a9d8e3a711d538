#version 450
// Line information through the builder (ir/lines_test.go).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { float v[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    float x = v[i];
    v[i] = x * 3.0;
}
