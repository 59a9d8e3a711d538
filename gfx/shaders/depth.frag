#version 450
// pocketgpu's fragment shader of a depth-only pass (the shadow map): it
// writes no colour; the depth test and write are the pass's work.
void main() {
}
