#version 450
// texelFetch at a level the input names: the level's own texel grid.
layout(location = 0) in vec2 texel;
layout(location = 1) in float level;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) out vec4 fetched;
void main() {
    fetched = texelFetch(tex, ivec2(texel), int(level));
}
