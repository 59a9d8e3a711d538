#version 450
// pocketgpu's default vertex shader: transforms positions by the draw's
// model-view-projection matrix and passes a world-space normal, the first
// texture coordinate and the vertex colour to the fragment shader.
layout(location = 0) in vec3 inPosition;
layout(location = 1) in vec3 inNormal;
layout(location = 2) in vec2 inTexCoord;
layout(location = 3) in vec4 inColor;

layout(set = 0, binding = 0, std140) uniform Draw {
    mat4 mvp;
    mat4 model;
    vec4 baseColor;
    vec4 lightDir;
    vec4 params;
} u;

layout(location = 0) out vec3 vNormal;
layout(location = 1) out vec2 vTexCoord;
layout(location = 2) out vec4 vColor;

void main() {
    gl_Position = u.mvp * vec4(inPosition, 1.0);
    vNormal = mat3(u.model) * inNormal;
    vTexCoord = inTexCoord;
    vColor = inColor * u.baseColor;
}
