package ir_test

// The builder's behavioural tests: small kernels and shaders (testdata/*.cl,
// *.comp, *.spvasm) built into IR and run on the executor, their buffers
// checked against references computed here in Go. The SPIR-V is prebuilt
// so that the tests need only Go:
//
//go:generate sh -c "for f in testdata/*.cl; do go run ../cmd/pocketgpu compile $DOLLAR{f} -o $DOLLAR{f%.cl}.spv && go run ../cmd/pocketgpu compile --light $DOLLAR{f} -o $DOLLAR{f%.cl}.light.spv || exit 1; done"
//go:generate sh -c "for f in testdata/*.comp; do glslangValidator -V --target-env vulkan1.1 -o $DOLLAR{f%.comp}.spv $DOLLAR{f} >/dev/null || exit 1; done"

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/emu"
	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/spirv"
)

// buf is a global buffer argument: its bytes go in and come back.
type buf struct {
	data []byte
	ro   bool
}

// localMem is a __local pointer argument of that many bytes.
type localMem int

// byVal is an argument passed by value, as its bytes.
type byVal []byte

// sampler is an OpenCL sampler argument (CLK_* bits).
type sampler uint32

func decode(t *testing.T, file string) *spirv.Module {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	m, err := spirv.Decode(data)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return m
}

// launch is one dispatch of an entry point.
type launch struct {
	file, entry   string
	global, local [3]int
	width         int
	spec          map[uint32]string
	args          []any
	mem           *emu.Memory
	printf        *strings.Builder
}

// run builds the entry point, binds the arguments, runs the NDRange and
// copies global buffers back into their buf.
func (l launch) run(t *testing.T) (*ir.Program, error) {
	t.Helper()
	m := decode(t, l.file)
	p, err := ir.Build(m, l.entry, ir.Options{Spec: l.spec})
	if err != nil {
		return nil, err
	}
	prog, err := emu.Prepare(p)
	if err != nil {
		return p, err
	}
	mem := l.mem
	if mem == nil {
		mem = emu.NewMemory()
	}
	if l.width == 0 {
		l.width = 8
	}
	d := &emu.Dispatch{Prog: prog, Mem: mem, Width: l.width, Global: l.global, Local: l.local, Window: 4}
	if l.printf != nil {
		d.Printf = l.printf
	}
	if p.LocalSizeFixed && l.local == [3]int{} {
		d.Local = p.LocalSize
	}
	if len(p.ConstData) > 0 {
		cb := mem.Alloc(len(p.ConstData), "constants", true)
		copy(cb.Data, p.ConstData)
		d.ConstBase = cb.Base
	}
	type back struct {
		b   *buf
		dev *emu.Buffer
	}
	var backs []back
	if len(l.args) != len(p.Params) {
		t.Fatalf("%s: %d arguments for %d parameters", l.entry, len(l.args), len(p.Params))
	}
	for i, a := range l.args {
		par := p.Params[i]
		var pv emu.ParamValue
		switch v := a.(type) {
		case *buf:
			b := mem.Alloc(len(v.data), par.Name, v.ro)
			copy(b.Data, v.data)
			backs = append(backs, back{v, b})
			pv.Slots = []uint64{b.Base}
		case localMem:
			pv.LocalBytes = int(v)
		case byVal:
			if par.ByValOffset >= 0 {
				pv.ByVal = v
				break
			}
			pv.Slots = make([]uint64, par.Type.Slots)
			for _, lf := range par.Type.Leaves() {
				var x uint64
				for k := lf.Bytes - 1; k >= 0; k-- {
					x = x<<8 | uint64(v[lf.Offset+k])
				}
				pv.Slots[lf.Slot] = x
			}
		case *emu.Image:
			d.Images = append(d.Images, v)
			pv.Slots = []uint64{uint64(len(d.Images) - 1)}
			if par.Type.Elem != nil && par.Type.Elem.Kind == ir.KindSampledImage {
				pv.Slots = append(pv.Slots, emu.VulkanSampler)
			}
		case sampler:
			pv.Slots = []uint64{emu.SamplerFromCL(uint32(v))}
		default:
			t.Fatalf("argument %d: %T", i, a)
		}
		d.Params = append(d.Params, pv)
	}
	if err := d.Init(); err != nil {
		return p, err
	}
	err = d.Run()
	for _, b := range backs {
		copy(b.b.data, b.dev.Data)
	}
	return p, err
}

// mustRun runs a launch that must succeed.
func (l launch) mustRun(t *testing.T) *ir.Program {
	t.Helper()
	p, err := l.run(t)
	if err != nil {
		t.Fatalf("%s %s: %v", l.file, l.entry, err)
	}
	return p
}

// Little-endian buffers of typed values.

func u32s(v ...uint32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	return b
}

func i32s(v ...int32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(x))
	}
	return b
}

func i64s(v ...int64) []byte {
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], uint64(x))
	}
	return b
}

func f32s(v ...float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func getU16(b []byte, i int) uint16 { return binary.LittleEndian.Uint16(b[2*i:]) }
func getU32(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[4*i:]) }
func getI32(b []byte, i int) int32  { return int32(getU32(b, i)) }
func getI64(b []byte, i int) int64  { return int64(binary.LittleEndian.Uint64(b[8*i:])) }
func getF32(b []byte, i int) float32 {
	return math.Float32frombits(getU32(b, i))
}

func zeros(n int) *buf { return &buf{data: make([]byte, n)} }

// both lists the prebuilt modules of an OpenCL source: the driver
// pipeline's and the light pipeline's (which keeps calls and variables).
func both(name string) []string { return []string{name + ".spv", name + ".light.spv"} }

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}
