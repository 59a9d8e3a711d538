package emu

// Executor tests on whole kernels: OpenCL C in testdata, compiled by the
// driver pipeline into the prebuilt SPIR-V next to it, run through Load,
// Dispatch.Init and Run, their buffers checked against Go references.
//
//go:generate sh -c "for f in testdata/*.cl; do go run ../cmd/pocketgpu compile $DOLLAR{f} -o $DOLLAR{f%.cl}.spv || exit 1; done"

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/spirv"
)

// kbuf is a global buffer argument: its bytes go in and come back.
type kbuf struct {
	data []byte
	ro   bool
}

// klocal is a __local pointer argument of that many bytes.
type klocal int

// kval is a scalar or vector argument passed by value, as its bytes.
type kval []byte

// ksampler is an OpenCL sampler argument (CLK_* bits).
type ksampler uint32

// klaunch is one dispatch of a testdata kernel.
type klaunch struct {
	file, entry   string
	global, local [3]int
	width         int
	args          []any
	// setup adjusts the dispatch before Init (budget, context, callbacks).
	setup func(d *Dispatch)
	mem   *Memory
}

func loadKernel(t *testing.T, file, entry string) *Program {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	m, err := spirv.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Load(m, entry, ir.Options{})
	if err != nil {
		t.Fatalf("%s %s: %v", file, entry, err)
	}
	return p
}

// dispatch loads the kernel, binds the arguments and runs Init.
func (l klaunch) dispatch(t *testing.T) (*Dispatch, func(), error) {
	t.Helper()
	p := loadKernel(t, l.file, l.entry)
	mem := l.mem
	if mem == nil {
		mem = NewMemory()
	}
	if l.width == 0 {
		l.width = 8
	}
	d := &Dispatch{Prog: p, Mem: mem, Width: l.width, Dims: 1, Global: l.global, Local: l.local, Window: 4}
	if len(p.ConstData) > 0 {
		cb := mem.Alloc(len(p.ConstData), "constants", true)
		copy(cb.Data, p.ConstData)
		d.ConstBase = cb.Base
	}
	var backs []func()
	if len(l.args) != len(p.Params) {
		t.Fatalf("%s: %d arguments for %d parameters", l.entry, len(l.args), len(p.Params))
	}
	for i, a := range l.args {
		par := p.Params[i]
		var pv ParamValue
		switch v := a.(type) {
		case *kbuf:
			name := par.Name
			if name == "" {
				name = fmt.Sprintf("arg%d", i)
			}
			b := mem.Alloc(len(v.data), name, v.ro)
			copy(b.Data, v.data)
			backs = append(backs, func() { copy(v.data, b.Data) })
			pv.Slots = []uint64{b.Base}
		case klocal:
			pv.LocalBytes = int(v)
		case kval:
			pv.Slots = make([]uint64, par.Type.Slots)
			for _, lf := range par.Type.Leaves() {
				pv.Slots[lf.Slot] = readLE(v[lf.Offset:], lf.Bytes)
			}
		case *Image:
			d.Images = append(d.Images, v)
			pv.Slots = []uint64{uint64(len(d.Images) - 1)}
		case ksampler:
			pv.Slots = []uint64{SamplerFromCL(uint32(v))}
		default:
			t.Fatalf("argument %d: %T", i, a)
		}
		d.Params = append(d.Params, pv)
	}
	if l.setup != nil {
		l.setup(d)
	}
	copyBack := func() {
		for _, f := range backs {
			f()
		}
	}
	return d, copyBack, d.Init()
}

// run dispatches the whole NDRange and copies the buffers back.
func (l klaunch) run(t *testing.T) (*Dispatch, error) {
	t.Helper()
	d, back, err := l.dispatch(t)
	if err != nil {
		return d, err
	}
	err = d.Run()
	back()
	return d, err
}

func (l klaunch) mustRun(t *testing.T) *Dispatch {
	t.Helper()
	d, err := l.run(t)
	if err != nil {
		t.Fatalf("%s %s: %v", l.file, l.entry, err)
	}
	return d
}

func le32(v ...int32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(x))
	}
	return b
}

func lef32(v ...float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func at32(b []byte, i int) int32    { return int32(binary.LittleEndian.Uint32(b[4*i:])) }
func atf32(b []byte, i int) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])) }

func filled(n int, v int32) *kbuf {
	b := &kbuf{data: make([]byte, 4*n)}
	for i := 0; i < n; i++ {
		binary.LittleEndian.PutUint32(b.data[4*i:], uint32(v))
	}
	return b
}
