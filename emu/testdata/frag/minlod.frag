#version 450
#extension GL_ARB_sparse_texture_clamp : require
// texture() with a minimum LOD (the MinLod image operand).
layout(location = 0) in vec2 uv;
layout(location = 3) in float minLod;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) out vec4 clamped;
void main() {
    clamped = textureClampARB(tex, uv, minLod);
}
