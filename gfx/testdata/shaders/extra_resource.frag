#version 450
// Test: samples a texture at binding 2, which the renderer does not bind.
layout(location = 1) in vec2 vTexCoord;
layout(set = 0, binding = 2) uniform sampler2D other;
layout(location = 0) out vec4 outColor;
void main() { outColor = texture(other, vTexCoord); }
