package device

import (
	"bytes"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/internal/corpus"
)

// TestCorpusTimedEqual runs every corpus kernel under Dispatch and under
// Time on a GPU of each family and requires every buffer to end up the
// same, byte for byte: the timing model decides when, never what.
func TestCorpusTimedEqual(t *testing.T) {
	for _, gpu := range []string{"mali-g52", "adreno-640", "powervr-gx6250"} {
		g, err := arch.Lookup(gpu)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range corpus.Cases() {
			t.Run(gpu+"/"+c.Name, func(t *testing.T) {
				if c.SPIRV == nil {
					t.Skip("no prebuilt SPIR-V")
				}
				dev := Open(g)
				k, err := dev.Load(c.SPIRV, c.Entry, LoadOptions{})
				if err != nil {
					t.Fatalf("load: %v", err)
				}
				var nd NDRange
				nd.Dims = len(c.Global)
				copy(nd.Global[:], c.Global)
				copy(nd.Local[:], c.Local)
				bind := func() *Bound {
					specs, in, err := c.Inputs()
					if err != nil {
						t.Fatal(err)
					}
					b, err := dev.BindSpecs(k, specs, in)
					if err != nil {
						t.Fatalf("bind: %v", err)
					}
					return b
				}
				fb, tb := bind(), bind()
				res, err := dev.Dispatch(k, nd, fb.Args, Options{})
				if err != nil {
					t.Fatalf("dispatch: %v", err)
				}
				tr, err := dev.Time(k, nd, tb.Args, Options{})
				if err != nil {
					t.Fatalf("time: %v", err)
				}
				if res.Stats.WarpInsts != tr.Stats.WarpInsts || res.Stats.Warps != tr.Stats.Warps {
					t.Errorf("dispatch ran %d warp instructions in %d warps, time %d in %d", res.Stats.WarpInsts, res.Stats.Warps, tr.Stats.WarpInsts, tr.Stats.Warps)
				}
				for i, b := range fb.Buffers {
					if b == nil {
						continue
					}
					if !bytes.Equal(b.Bytes(), tb.Buffers[i].Bytes()) {
						t.Errorf("argument %d: buffers differ between Dispatch and Time", i)
					}
				}
			})
		}
	}
}
