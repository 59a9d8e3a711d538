package device

import (
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/internal/corpus"
	"github.com/pocketgpu/pocketgpu/internal/oclref"
)

// TestPoCLDifferential runs each OpenCL corpus kernel through PoCL (from
// the same .cl source) and through pocketgpu (from the prebuilt SPIR-V), and
// compares every buffer and image argument — not only the checked outputs.
func TestPoCLDifferential(t *testing.T) {
	if err := oclref.Available(); err != nil {
		t.Skip(err)
	}
	for _, gpu := range []string{"mali-g52", "adreno-640"} {
		g, err := arch.Lookup(gpu)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range corpus.Cases() {
			if c.Lang != "opencl" || c.SPIRV == nil {
				continue
			}
			t.Run(gpu+"/"+c.Name, func(t *testing.T) {
				specs, in, err := c.Inputs()
				if err != nil {
					t.Fatal(err)
				}
				ref, err := oclref.Run(c.Source, strings.Join(c.BuildOpts, " "), c.Entry, c.Global, c.Local, specs, in)
				if err != nil {
					t.Fatalf("PoCL: %v", err)
				}
				dev := Open(g)
				k, err := dev.Load(c.SPIRV, c.Entry, LoadOptions{})
				if err != nil {
					t.Fatal(err)
				}
				// Fresh copies: BindSpecs keeps the slices it is given.
				in2 := make([][]byte, len(in))
				for i := range in {
					in2[i] = append([]byte(nil), in[i]...)
				}
				bound, err := dev.BindSpecs(k, specs, in2)
				if err != nil {
					t.Fatal(err)
				}
				var nd NDRange
				nd.Dims = len(c.Global)
				copy(nd.Global[:], c.Global)
				copy(nd.Local[:], c.Local)
				if _, err := dev.Dispatch(k, nd, bound.Args, Options{}); err != nil {
					t.Fatal(err)
				}
				for i, b := range bound.Buffers {
					if b == nil || ref.Args[i] == nil {
						continue
					}
					if err := corpus.Compare(c, i, b.Bytes(), ref.Args[i]); err != nil {
						t.Errorf("argument %d differs from PoCL: %v", i, err)
					}
				}
			})
		}
	}
}
