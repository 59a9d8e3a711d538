#version 450
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Data { float v[]; };
void main()
{
    v[gl_GlobalInvocationID.x] *= FACTOR;
}
