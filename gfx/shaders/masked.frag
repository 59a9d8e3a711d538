#version 450
// pocketgpu's default fragment shader for glTF alphaMode MASK: as
// default.frag, but fragments whose alpha is below params.x are discarded
// (which turns early depth testing off for the draw).
layout(location = 0) in vec3 vNormal;
layout(location = 1) in vec2 vTexCoord;
layout(location = 2) in vec4 vColor;

layout(set = 0, binding = 0, std140) uniform Draw {
    mat4 mvp;
    mat4 model;
    vec4 baseColor;
    vec4 lightDir;
    vec4 params;
} u;
layout(set = 0, binding = 1) uniform sampler2D baseColorTexture;

layout(location = 0) out vec4 outColor;

void main() {
    vec4 c = texture(baseColorTexture, vTexCoord) * vColor;
    if (c.a < u.params.x) {
        discard;
    }
    float diffuse = max(dot(normalize(vNormal), u.lightDir.xyz), 0.0);
    float light = mix(1.0, 0.25 + 0.75 * diffuse, u.params.y);
    outColor = vec4(c.rgb * light, c.a);
}
