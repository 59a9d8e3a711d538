#version 450
// Test: a user fragment shader that reads gl_FragCoord and gl_FrontFacing
// and discards every fourth column (so depth is tested late), reading only
// some of the default vertex shader's outputs.
layout(location = 0) in vec3 vNormal;
layout(location = 2) in vec4 vColor;
layout(location = 0) out vec4 outColor;
void main() {
    if (int(gl_FragCoord.x) % 4 == 0) {
        discard;
    }
    float shade = 0.5 + 0.5 * normalize(vNormal).y;
    vec3 c = gl_FrontFacing ? vColor.rgb : vec3(1.0, 0.0, 1.0);
    outColor = vec4(c * shade * (0.75 + 0.25 * gl_FragCoord.z), 1.0);
}
