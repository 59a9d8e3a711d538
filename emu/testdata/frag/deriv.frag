#version 450
// Derivatives of an input across the fragment quad, every form.
layout(location = 0) in vec2 p;
layout(location = 0) out vec4 d;      // dFdx(p), dFdy(p)
layout(location = 1) out vec4 fine;   // dFdxFine(p), dFdyFine(p)
layout(location = 2) out vec4 coarse; // dFdxCoarse(p), dFdyCoarse(p)
layout(location = 3) out vec4 widths; // fwidth(p.x), fwidthFine(p.x), fwidthCoarse(p.x), dFdx(p.x * p.y)
void main() {
    d = vec4(dFdx(p), dFdy(p));
    fine = vec4(dFdxFine(p), dFdyFine(p));
    coarse = vec4(dFdxCoarse(p), dFdyCoarse(p));
    widths = vec4(fwidth(p.x), fwidthFine(p.x), fwidthCoarse(p.x), dFdx(p.x * p.y));
}
