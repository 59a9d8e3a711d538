#version 450
// Test: writes a second colour attachment the renderer does not have.
layout(location = 2) in vec4 vColor;
layout(location = 0) out vec4 outColor;
layout(location = 1) out vec4 outExtra;
void main() { outColor = vColor; outExtra = vColor; }
