#version 450
// pocketgpu's vertex shader for shadow-mapped lighting: as default.vert,
// plus the position in the light's clip space (lightMvp, the shadow pass's
// view-projection times the model matrix) for the fragment shader's
// shadow-map lookup.
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
    mat4 lightMvp;
} u;

layout(location = 0) out vec3 vNormal;
layout(location = 1) out vec2 vTexCoord;
layout(location = 2) out vec4 vColor;
layout(location = 3) out vec4 vLightPos;

void main() {
    vec4 p = vec4(inPosition, 1.0);
    gl_Position = u.mvp * p;
    vNormal = mat3(u.model) * inNormal;
    vTexCoord = inTexCoord;
    vColor = inColor * u.baseColor;
    vLightPos = u.lightMvp * p;
}
