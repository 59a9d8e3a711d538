// Package shaders holds pocketgpu's default GLSL vertex and fragment
// shaders and their SPIR-V, compiled with glslangValidator and committed so
// that a plain `go build` needs nothing but Go.
//
// The interface every shader pair run by the renderer shares (user shaders
// included; docs/rendering.md explains it):
//
//	vertex inputs   location 0 position (vec3), 1 normal (vec3),
//	                2 texture coordinate 0 (vec2), 3 colour (vec4)
//	set 0 binding 0 uniform block Draw (std140, DrawBlockSize bytes):
//	                mat4 mvp; mat4 model; vec4 baseColor; vec4 lightDir;
//	                vec4 params (x alpha cutoff, y lighting weight,
//	                z frame index, w 0)
//	set 0 binding 1 sampler2D, the material's base-colour texture
//	fragment output location 0, vec4 colour
package shaders

import _ "embed"

//go:generate glslangValidator -V --target-env vulkan1.1 -o default.vert.spv default.vert
//go:generate glslangValidator -V --target-env vulkan1.1 -o default.frag.spv default.frag
//go:generate glslangValidator -V --target-env vulkan1.1 -o masked.frag.spv masked.frag

// Vertex is the default vertex shader.
//
//go:embed default.vert.spv
var Vertex []byte

// Fragment is the default fragment shader.
//
//go:embed default.frag.spv
var Fragment []byte

// FragmentMasked is the default fragment shader for alpha-tested
// materials (glTF alphaMode MASK): it discards fragments below the cutoff.
//
//go:embed masked.frag.spv
var FragmentMasked []byte

// Sources maps each committed .spv to the GLSL file it is compiled from.
var Sources = map[string]string{
	"default.vert.spv": "default.vert",
	"default.frag.spv": "default.frag",
	"masked.frag.spv":  "masked.frag",
}

// DrawBlockSize is the size in bytes of the Draw uniform block: two mat4
// and three vec4 under std140.
const DrawBlockSize = 176
