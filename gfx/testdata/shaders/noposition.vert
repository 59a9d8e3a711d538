#version 450
// Test: never writes gl_Position.
layout(location = 0) in vec3 inPosition;
layout(location = 2) out vec4 vColor;
void main() { vColor = vec4(inPosition, 1.0); }
