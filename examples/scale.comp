#version 450
// Multiplies every element of a buffer by a push constant: a GLSL compute
// shader, compiled with glslangValidator. Arguments follow (set, binding),
// then the push-constant members:
//   go run ./cmd/pocketgpu run --gpu adreno-640 examples/scale.comp --global 1024 \
//       --arg buf:f32:1024=iota --arg f32:0.5 --print 0:8
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { float v[]; };
layout(push_constant) uniform Params { float factor; };

void main()
{
    v[gl_GlobalInvocationID.x] *= factor;
}
