#version 450
// Test: reads location 5, which no vertex shader output feeds.
layout(location = 5) in vec2 vExtra;
layout(location = 0) out vec4 outColor;
void main() { outColor = vec4(vExtra, 0.0, 1.0); }
