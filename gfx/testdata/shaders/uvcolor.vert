#version 450
// Test: a user vertex shader that reads position (as a vec4) and the texture
// coordinate only, and colours vertices by their index.
layout(location = 0) in vec4 inPosition;
layout(location = 2) in vec2 inTexCoord;
layout(set = 0, binding = 0, std140) uniform Draw { mat4 mvp; } u;
layout(location = 0) out vec3 vNormal;
layout(location = 1) out vec2 vTexCoord;
layout(location = 2) out vec4 vColor;
void main() {
    gl_Position = u.mvp * inPosition;
    vNormal = vec3(0.0, 1.0, 0.0);
    vTexCoord = inTexCoord;
    float k = float(gl_VertexIndex % 3) / 2.0;
    vColor = vec4(k, inTexCoord, 1.0);
}
