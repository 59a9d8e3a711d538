#version 450
// Sampling a mipmapped texture every way a fragment shader can: implicit
// LOD (from the quad's derivatives of uv), with a bias, explicit LOD,
// gradients, and a minimum LOD. emu/mip_test.go feeds each lane's inputs.
layout(location = 0) in vec2 uv;
layout(location = 1) in vec2 lodBias; // x: explicit LOD, y: bias
layout(location = 2) in vec4 grads;   // xy: d(uv)/dx, zw: d(uv)/dy
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) out vec4 implicitLod;
layout(location = 1) out vec4 biased;
layout(location = 2) out vec4 explicitLod;
layout(location = 3) out vec4 gradient;
layout(location = 4) out vec4 levels; // x: textureQueryLevels, yz: textureSize at the explicit LOD (clamped to the levels)
void main() {
    implicitLod = texture(tex, uv);
    biased = texture(tex, uv, lodBias.y);
    explicitLod = textureLod(tex, uv, lodBias.x);
    gradient = textureGrad(tex, uv, grads.xy, grads.zw);
    int n = textureQueryLevels(tex);
    ivec2 sz = textureSize(tex, clamp(int(lodBias.x), 0, n - 1));
    levels = vec4(float(n), float(sz.x), float(sz.y), 0.0);
}
