#version 450
// pocketgpu's post-process fragment shader, a bloom of sorts: the earlier
// pass's colour (set 0 binding 1, drawn with a full-screen triangle) plus
// a glow gathered from eight taps around the pixel of what is brighter
// than a threshold.
layout(location = 1) in vec2 vTexCoord;

layout(set = 0, binding = 1) uniform sampler2D scene;

layout(location = 0) out vec4 outColor;

void main() {
    vec2 texel = 1.0 / vec2(textureSize(scene, 0));
    vec3 c = texture(scene, vTexCoord).rgb;
    vec3 glow = vec3(0.0);
    for (int i = 1; i <= 2; i++) {
        float d = 3.0 * float(i);
        glow += max(texture(scene, vTexCoord + vec2(d, 0.0) * texel).rgb - 0.6, 0.0);
        glow += max(texture(scene, vTexCoord - vec2(d, 0.0) * texel).rgb - 0.6, 0.0);
        glow += max(texture(scene, vTexCoord + vec2(0.0, d) * texel).rgb - 0.6, 0.0);
        glow += max(texture(scene, vTexCoord - vec2(0.0, d) * texel).rgb - 0.6, 0.0);
    }
    outColor = vec4(c + glow * 0.2, 1.0);
}
