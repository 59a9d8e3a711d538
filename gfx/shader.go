package gfx

import (
	"errors"
	"fmt"
	"strings"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/emu"
	"github.com/pocketgpu/pocketgpu/gfx/shaders"
	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/isa"
	"github.com/pocketgpu/pocketgpu/isa/families"
	"github.com/pocketgpu/pocketgpu/spirv"
)

// InputError is bad input the user can fix: a shader whose interface does
// not match the renderer's or the other stage's, a frame too large for the
// GPU, an option out of range.
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }

func inputErrorf(format string, args ...any) error {
	return &InputError{Msg: fmt.Sprintf(format, args...)}
}

// IsUserError reports errors caused by the input (shaders, scene, options)
// rather than by the simulator.
func IsUserError(err error) bool {
	var ie *InputError
	var de *spirv.DecodeError
	var ire *ir.Error
	var fe *emu.Fault
	var ke *emu.KernelError
	return errors.As(err, &ie) || errors.As(err, &de) || errors.As(err, &ire) || errors.As(err, &fe) ||
		errors.As(err, &ke) || errors.Is(err, emu.ErrBudget)
}

// Vertex attributes the renderer feeds (location -> components).
const (
	attrPosition = 0
	attrNormal   = 1
	attrTexCoord = 2
	attrColor    = 3
	numAttrs     = 4
)

var attrNames = [numAttrs]string{"position", "normal", "texture coordinate 0", "colour"}
var attrComps = [numAttrs]int{3, 3, 2, 4}

// Resource bindings (set 0) of the shader interface.
const (
	bindingDraw    = 0
	bindingTexture = 1
	bindingInput   = 2 // an earlier pass's attachment, in passes that sample one
)

// ioSlot is a float (or integer) input or output in a lane's frame.
type ioSlot struct {
	name     string
	location int
	offset   int
	comps    int
	float    bool
	bits     int
}

// shader is one loaded stage.
type shader struct {
	name    string
	ir      *ir.Program
	prog    *emu.Program
	inputs  []ioSlot
	outputs []ioSlot
	// position (vertex) or colour (fragment) output offset; fragDepth -1
	// when the shader does not write gl_FragDepth.
	posOffset   int
	colorOffset int
	colorComps  int
	fragDepth   int
	kills       bool
	drawParam   int // index in ir.Params, -1 when unused
	texParam    int
	inputParam  int
	width       int // warp width the GPU's occupancy rules pick
	// blockCycles is what one warp's run of each IR block costs an engine:
	// the larger of its issue slots and its busiest pipe's cycles, from the
	// family's instruction lowering (isa) at the shader's warp width.
	blockCycles []float64
}

func describeType(t *ir.Type) string {
	s := t.Scalar()
	kind := "float"
	switch s.Kind {
	case ir.KindInt:
		kind = "int"
		if !s.Signed {
			kind = "uint"
		}
	case ir.KindBool:
		kind = "bool"
	}
	if t.Kind == ir.KindVector {
		return fmt.Sprintf("%d-component %s%d vector", t.Len, kind, s.Bits)
	}
	if t.IsScalar() {
		return fmt.Sprintf("%s%d", kind, s.Bits)
	}
	return t.String()
}

// loadShader decodes and lowers a stage and checks it against the
// renderer's interface (see package shaders).
func loadShader(g *arch.GPU, spv []byte, name string, want spirv.ExecutionModel) (*shader, error) {
	m, err := spirv.Decode(spv)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var entry string
	var kinds []string
	for _, ep := range m.EntryPoints {
		if ep.Model == want {
			if entry != "" {
				return nil, inputErrorf("%s has several %s entry points (%s, %s): give a module with one", name, want, entry, ep.Name)
			}
			entry = ep.Name
		}
		kinds = append(kinds, fmt.Sprintf("%s %q", ep.Model, ep.Name))
	}
	if entry == "" {
		return nil, inputErrorf("%s has no %s entry point (it has: %s)", name, want, strings.Join(kinds, ", "))
	}
	ep, err := emu.Load(m, entry, ir.Options{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	p := ep.Program
	s := &shader{name: name, ir: p, prog: ep, posOffset: -1, colorOffset: -1, fragDepth: -1, drawParam: -1, texParam: -1, inputParam: -1}
	stage := "vertex"
	if want == spirv.ExecutionModelFragment {
		stage = "fragment"
	}
	for _, io := range p.IO {
		if io.IsBuiltin {
			switch {
			case io.Output && io.Builtin == spirv.BuiltInPosition:
				if io.Type.Components() != 4 || io.Type.Scalar().Kind != ir.KindFloat || io.Type.Scalar().Bits != 32 {
					return nil, inputErrorf("%s: gl_Position is a %s, a 4-component float32 vector is needed", name, describeType(io.Type))
				}
				s.posOffset = io.Offset
			case io.Output && io.Builtin == spirv.BuiltInFragDepth:
				s.fragDepth = io.Offset
			}
			continue // PointSize, ClipDistance ...: not used by a triangle renderer
		}
		t := io.Type
		if !t.IsScalar() && t.Kind != ir.KindVector {
			return nil, inputErrorf("%s: %s %s at location %d is a %s; pocketgpu passes scalars and vectors", name, stage, map[bool]string{true: "output", false: "input"}[io.Output], io.Location, t)
		}
		sc := t.Scalar()
		if sc.Bits != 32 || sc.Kind == ir.KindBool {
			return nil, inputErrorf("%s: %s at location %d is a %s; 32-bit float and integer values are supported", name, ioName(io), io.Location, describeType(t))
		}
		sl := ioSlot{name: ioName(io), location: io.Location, offset: io.Offset, comps: t.Components(), float: sc.Kind == ir.KindFloat, bits: sc.Bits}
		if io.Output {
			s.outputs = append(s.outputs, sl)
		} else {
			s.inputs = append(s.inputs, sl)
		}
	}
	for _, b := range p.Builtins {
		ok := false
		if want == spirv.ExecutionModelVertex {
			ok = b.Builtin == spirv.BuiltInVertexIndex || b.Builtin == spirv.BuiltInInstanceIndex
		} else {
			ok = b.Builtin == spirv.BuiltInFragCoord || b.Builtin == spirv.BuiltInFrontFacing || b.Builtin == spirv.BuiltInHelperInvocation
		}
		if !ok {
			return nil, inputErrorf("%s reads the builtin %s, which the renderer does not provide to %s shaders (vertex: VertexIndex, InstanceIndex; fragment: FragCoord, FrontFacing, HelperInvocation)", name, b.Builtin, stage)
		}
	}
	for i, par := range p.Params {
		switch {
		case par.Set == 0 && par.Binding == bindingDraw && par.Kind == ir.ParamConstant:
			if par.Elem != nil && par.Elem.Size > shaders.DrawBlockSize {
				return nil, inputErrorf("%s: the uniform block at set 0 binding 0 (%s) is %d bytes; the renderer's Draw block has %d (mat4 mvp, mat4 model, vec4 baseColor, vec4 lightDir, vec4 params)", name, par.Name, par.Elem.Size, shaders.DrawBlockSize)
			}
			s.drawParam = i
		case par.Set == 0 && par.Binding == bindingTexture && par.Kind == ir.ParamImage && par.Type.Elem != nil && par.Type.Elem.Kind == ir.KindSampledImage:
			if par.Image == nil || par.Image.Dim != spirv.Dim2D || par.Image.Arrayed || par.Image.MS {
				return nil, inputErrorf("%s: the texture at set 0 binding 1 (%s) must be a sampler2D", name, par.Name)
			}
			s.texParam = i
		case par.Set == 0 && par.Binding == bindingInput && par.Kind == ir.ParamImage && par.Type.Elem != nil && par.Type.Elem.Kind == ir.KindSampledImage &&
			par.Image != nil && par.Image.Dim == spirv.Dim2D && !par.Image.Arrayed && !par.Image.MS:
			s.inputParam = i // checked against the pass that runs the shader
		default:
			return nil, inputErrorf("%s: resource %q (%s) at set %d binding %d is not provided; the renderer binds a uniform block Draw at set 0 binding 0 and a sampler2D at set 0 binding 1", name, par.Name, par.Kind, par.Set, par.Binding)
		}
	}
	for _, blk := range p.Blocks {
		if blk.Term.Kind == ir.TermKill {
			s.kills = true
		}
	}
	switch want {
	case spirv.ExecutionModelVertex:
		if s.posOffset < 0 {
			return nil, inputErrorf("%s does not write gl_Position", name)
		}
		for _, in := range s.inputs {
			if in.location < 0 || in.location >= numAttrs {
				return nil, inputErrorf("%s: vertex input %s at location %d is not provided; the renderer feeds location 0 position (vec3), 1 normal (vec3), 2 texture coordinate 0 (vec2), 3 colour (vec4)", name, in.name, in.location)
			}
			if !in.float || in.comps > 4 {
				return nil, inputErrorf("%s: vertex input %s at location %d (%s) must be a float vector of up to 4 components", name, in.name, in.location, attrNames[in.location])
			}
		}
	case spirv.ExecutionModelFragment:
		for _, o := range s.outputs {
			if o.location != 0 {
				return nil, inputErrorf("%s writes location %d; the renderer has one colour attachment (location 0)", name, o.location)
			}
			if !o.float || o.comps < 3 {
				return nil, inputErrorf("%s: the colour output %s is a %d-component %s; a vec4 (or vec3) float colour is needed", name, o.name, o.comps, map[bool]string{true: "float", false: "integer"}[o.float])
			}
			s.colorOffset, s.colorComps = o.offset, o.comps
		}
	}
	occ, err := g.Occupancy(arch.OccupancyQuery{Regs: min(max(p.RegistersOn(g.HalfRegisters), 1), g.MaxRegistersPerThread)})
	if err != nil {
		s.width = g.WarpSizes[0]
	} else {
		s.width = occ.WarpWidth
	}
	s.width = min(max(s.width, 4), emu.MaxWidth)
	lowered, err := families.Lower(p, g, s.width)
	if err != nil {
		return nil, inputErrorf("%s cannot run on %s: %v", name, g.ID, err)
	}
	s.blockCycles = blockCycles(lowered)
	return s, nil
}

// blockCycles prices each block of a lowered shader for one warp.
func blockCycles(p *isa.Program) []float64 {
	out := make([]float64, len(p.Blocks))
	pipes := make([]float64, len(p.Pipes))
	for b := range p.Blocks {
		clear(pipes)
		issue := 0.0
		for _, g := range p.Blocks[b].Groups {
			issue += float64(g.Issue)
			for k, c := range g.Pipe {
				pipes[k] += float64(c)
			}
		}
		for _, c := range pipes {
			issue = max(issue, c)
		}
		out[b] = issue
	}
	return out
}

func ioName(io ir.IOVar) string {
	if io.Name != "" {
		return io.Name
	}
	return fmt.Sprintf("location %d", io.Location)
}

// linkVaryings matches the fragment shader's inputs with the vertex
// shader's outputs by location and type.
func linkVaryings(vs, fs *shader) ([]varying, int, error) {
	var out []varying
	words := 0
	for _, in := range fs.inputs {
		var src *ioSlot
		for i := range vs.outputs {
			if vs.outputs[i].location == in.location {
				src = &vs.outputs[i]
			}
		}
		if src == nil {
			return nil, 0, inputErrorf("shader interface mismatch: fragment input %s at location %d (%d-component %s) has no vertex output at that location (%s writes %s)",
				in.name, in.location, in.comps, kindName(in.float), vs.name, listLocations(vs.outputs))
		}
		if src.comps != in.comps || src.float != in.float {
			return nil, 0, inputErrorf("shader interface mismatch at location %d: %s writes %s as a %d-component %s, %s reads %s as a %d-component %s",
				in.location, vs.name, src.name, src.comps, kindName(src.float), fs.name, in.name, in.comps, kindName(in.float))
		}
		out = append(out, varying{vsOffset: src.offset, fsOffset: in.offset, comps: in.comps, float: in.float, word: words})
		words += in.comps
	}
	return out, words, nil
}

func kindName(f bool) string {
	if f {
		return "float"
	}
	return "integer"
}

func listLocations(s []ioSlot) string {
	if len(s) == 0 {
		return "no outputs"
	}
	var parts []string
	for _, o := range s {
		parts = append(parts, fmt.Sprintf("%s at %d", o.name, o.location))
	}
	return strings.Join(parts, ", ")
}

// varying is one fragment input fed from a vertex output: word is its
// first 32-bit word in a vertex's varying record.
type varying struct {
	vsOffset, fsOffset int
	comps              int
	float              bool
	word               int
}
