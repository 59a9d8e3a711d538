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
//	                z frame index, w 0); mat4 lightMvp (the shadow pass's
//	                view-projection times model, in a pass that has one)
//	set 0 binding 1 sampler2D, the material's base-colour texture (or the
//	                earlier pass's attachment a post-process pass reads)
//	set 0 binding 2 sampler2D, an earlier pass's attachment (the shadow
//	                map), in a pass that samples one
//	fragment output location 0, vec4 colour (none in a depth-only pass)
package shaders

import _ "embed"

//go:generate glslangValidator -V --target-env vulkan1.1 -o default.vert.spv default.vert
//go:generate glslangValidator -V --target-env vulkan1.1 -o default.frag.spv default.frag
//go:generate glslangValidator -V --target-env vulkan1.1 -o masked.frag.spv masked.frag
//go:generate glslangValidator -V --target-env vulkan1.1 -o depth.frag.spv depth.frag
//go:generate glslangValidator -V --target-env vulkan1.1 -o shadowed.vert.spv shadowed.vert
//go:generate glslangValidator -V --target-env vulkan1.1 -o shadowed.frag.spv shadowed.frag
//go:generate glslangValidator -V --target-env vulkan1.1 -o bloom.frag.spv bloom.frag

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

// FragmentDepth is the fragment shader of a depth-only pass (a shadow
// map): it writes no colour.
//
//go:embed depth.frag.spv
var FragmentDepth []byte

// VertexShadowed and FragmentShadowed light a scene with a shadow map:
// the vertex shader passes the position in the light's clip space, the
// fragment shader samples the map at set 0 binding 2.
//
//go:embed shadowed.vert.spv
var VertexShadowed []byte

//go:embed shadowed.frag.spv
var FragmentShadowed []byte

// FragmentBloom is the post-process pass's fragment shader: the earlier
// pass's colour at set 0 binding 1 plus a glow of its bright parts.
//
//go:embed bloom.frag.spv
var FragmentBloom []byte

// Sources maps each committed .spv to the GLSL file it is compiled from.
var Sources = map[string]string{
	"default.vert.spv":  "default.vert",
	"default.frag.spv":  "default.frag",
	"masked.frag.spv":   "masked.frag",
	"depth.frag.spv":    "depth.frag",
	"shadowed.vert.spv": "shadowed.vert",
	"shadowed.frag.spv": "shadowed.frag",
	"bloom.frag.spv":    "bloom.frag",
}

// DrawBlockSize is the size in bytes of the Draw uniform block: three
// mat4 and three vec4 under std140 (lightMvp at 176).
const DrawBlockSize = 240
