package ir_test

import (
	"encoding/binary"
	"math"
	"os"
	"testing"

	"github.com/pocketgpu/pocketgpu/emu"
	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/spirv"
)

func buildShader(t *testing.T, file string) *ir.Program {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	m, err := spirv.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	p, err := ir.Build(m, "", ir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// A vertex shader's inputs and outputs live in the private frame, each
// with its location (builtins, from the gl_PerVertex block, with theirs);
// run on the executor with its inputs written into the frames, it leaves
// gl_Position = mvp * (position, 1) and the colour times the base colour
// in its outputs.
func TestVertexShaderInterface(t *testing.T) {
	p := buildShader(t, "../gfx/shaders/default.vert.spv")
	if p.Model != spirv.ExecutionModelVertex {
		t.Fatalf("model %s", p.Model)
	}
	io := map[string]ir.IOVar{}
	for _, v := range p.IO {
		key := v.Name
		if v.IsBuiltin {
			key = v.Builtin.String()
		}
		io[key] = v
	}
	for _, c := range []struct {
		key    string
		output bool
		loc    int
		typ    string
	}{
		{"inPosition", false, 0, "f32x3"}, {"inNormal", false, 1, "f32x3"}, {"inTexCoord", false, 2, "f32x2"}, {"inColor", false, 3, "f32x4"},
		{"vNormal", true, 0, "f32x3"}, {"vTexCoord", true, 1, "f32x2"}, {"vColor", true, 2, "f32x4"}, {"Position", true, -1, "f32x4"},
	} {
		v, ok := io[c.key]
		if !ok || v.Output != c.output || v.Location != c.loc || v.Type.String() != c.typ || v.Offset < 0 || v.Offset+v.Type.Size > p.PrivateBytes {
			t.Errorf("%s: %+v (type %v), want output %v, location %d, %s inside the %d-byte frame", c.key, v, v.Type, c.output, c.loc, c.typ, p.PrivateBytes)
		}
	}
	if len(p.Params) != 1 || p.Params[0].Kind != ir.ParamConstant || p.Params[0].Binding != 0 {
		t.Fatalf("params %+v, want the Draw uniform buffer at binding 0", p.Params)
	}

	prog, err := emu.Prepare(p)
	if err != nil {
		t.Fatal(err)
	}
	mem := emu.NewMemory()
	// std140 Draw: mvp, model, baseColor, lightDir, params. mvp scales by
	// (2, 3, 4) and translates by (1, 0, -1); model is the identity.
	ub := mem.Alloc(64*2+16*3, "Draw", true)
	put := func(off int, v float32) { binary.LittleEndian.PutUint32(ub.Data[off:], math.Float32bits(v)) }
	for c, v := range []float32{2, 3, 4, 1} {
		put(16*c+4*c, v) // diagonal
	}
	put(48, 1)
	put(56, -1)
	for c := 0; c < 4; c++ {
		put(64+16*c+4*c, 1)
	}
	for k, v := range []float32{0.5, 1, 2, 1} {
		put(128+4*k, v)
	}
	const n = 5
	pos := func(i int) [3]float32 { return [3]float32{float32(i), float32(-i), 0.5} }
	col := func(i int) [4]float32 { return [4]float32{1, 2, float32(i), 3} }
	f32 := func(b []byte, off int) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(b[off:])) }
	outs := map[int][]byte{}
	d := &emu.Dispatch{Prog: prog, Mem: mem, Width: 4, Global: [3]int{n, 1, 1}, Local: [3]int{n, 1, 1},
		Params: []emu.ParamValue{{Slots: []uint64{ub.Base}}},
		InitLane: func(w *emu.Warp, lane int, frame []byte) {
			i := w.LocalIndex(lane)
			for k, v := range pos(i) {
				binary.LittleEndian.PutUint32(frame[io["inPosition"].Offset+4*k:], math.Float32bits(v))
			}
			for k, v := range col(i) {
				binary.LittleEndian.PutUint32(frame[io["inColor"].Offset+4*k:], math.Float32bits(v))
			}
		},
		WarpDone: func(w *emu.Warp) {
			for l := 0; l < w.Lanes(); l++ {
				outs[w.LocalIndex(l)] = append([]byte(nil), w.Private(l)...)
			}
		}}
	if err := d.Init(); err != nil {
		t.Fatal(err)
	}
	if err := d.Run(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		f := outs[i]
		if f == nil {
			t.Fatalf("vertex %d: no outputs", i)
		}
		p := pos(i)
		wantPos := []float32{2*p[0] + 1, 3 * p[1], 4*p[2] - 1, 1}
		for k, w := range wantPos {
			if got := f32(f, io["Position"].Offset+4*k); got != w {
				t.Errorf("vertex %d: gl_Position.%d = %v, want %v", i, k, got, w)
			}
		}
		c := col(i)
		for k, b := range []float32{0.5, 1, 2, 1} {
			if got := f32(f, io["vColor"].Offset+4*k); got != c[k]*b {
				t.Errorf("vertex %d: vColor.%d = %v, want %v", i, k, got, c[k]*b)
			}
		}
	}
}

// A fragment shader's combined image-sampler is a parameter taking two
// slots (the image handle, then the sampler), after the uniform buffer.
func TestFragmentShaderInterface(t *testing.T) {
	p := buildShader(t, "../gfx/shaders/default.frag.spv")
	if len(p.Params) != 2 || p.Params[0].Kind != ir.ParamConstant || p.Params[1].Kind != ir.ParamImage ||
		p.Params[1].Binding != 1 || p.Params[1].Image == nil || p.Params[1].Image.Dim != spirv.Dim2D {
		t.Fatalf("params %+v", p.Params)
	}
	outputs, inputs := 0, 0
	for _, v := range p.IO {
		if v.Output {
			outputs++
			if v.Name != "outColor" || v.Location != 0 {
				t.Errorf("output %+v", v)
			}
		} else {
			inputs++
		}
	}
	if outputs != 1 || inputs != 3 {
		t.Errorf("%d outputs and %d inputs, want 1 and 3", outputs, inputs)
	}
}
