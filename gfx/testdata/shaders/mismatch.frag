#version 450
// Test: reads location 2 as a vec3; the default vertex shader writes a vec4.
layout(location = 2) in vec3 vColor;
layout(location = 0) out vec4 outColor;
void main() { outColor = vec4(vColor, 1.0); }
