#version 450
// pocketgpu's fragment shader for shadow-mapped lighting: default.frag's
// texture, vertex colour and directional light, the light's diffuse term
// dropped where the shadow map (an earlier pass's depth, set 0 binding 2)
// holds something nearer the light than this fragment.
layout(location = 0) in vec3 vNormal;
layout(location = 1) in vec2 vTexCoord;
layout(location = 2) in vec4 vColor;
layout(location = 3) in vec4 vLightPos;

layout(set = 0, binding = 0, std140) uniform Draw {
    mat4 mvp;
    mat4 model;
    vec4 baseColor;
    vec4 lightDir;
    vec4 params;
} u;
layout(set = 0, binding = 1) uniform sampler2D baseColorTexture;
layout(set = 0, binding = 2) uniform sampler2D shadowMap;

layout(location = 0) out vec4 outColor;

void main() {
    vec4 c = texture(baseColorTexture, vTexCoord) * vColor;
    vec3 p = vLightPos.xyz / vLightPos.w;
    vec2 uv = p.xy * 0.5 + 0.5;
    float lit = 1.0;
    if (uv.x >= 0.0 && uv.x <= 1.0 && uv.y >= 0.0 && uv.y <= 1.0 && p.z <= 1.0) {
        float occluder = texture(shadowMap, uv).r;
        if (p.z - 0.006 > occluder) {
            lit = 0.0;
        }
    }
    float diffuse = max(dot(normalize(vNormal), u.lightDir.xyz), 0.0) * lit;
    float light = mix(1.0, 0.25 + 0.75 * diffuse, u.params.y);
    outColor = vec4(c.rgb * light, c.a);
}
