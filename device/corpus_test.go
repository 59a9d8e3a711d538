package device

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/internal/corpus"
	"github.com/pocketgpu/pocketgpu/kernel"
)

// TestCorpus runs every corpus kernel on GPUs of each family (so warps of
// 4, 8, 32, 64 and 128 lanes) and checks the outputs against the Go
// references.
func TestCorpus(t *testing.T) {
	for _, gpu := range []string{"mali-g52", "adreno-640", "adreno-615", "powervr-gx6250", "mali-t860"} {
		g, err := arch.Lookup(gpu)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range corpus.Cases() {
			t.Run(gpu+"/"+c.Name, func(t *testing.T) {
				runCase(t, g, c, 0)
			})
		}
	}
}

func runCase(t *testing.T, g *arch.GPU, c corpus.Case, width int) {
	t.Helper()
	if c.SPIRV == nil {
		t.Skip("no prebuilt SPIR-V")
	}
	dev := Open(g)
	k, err := dev.Load(c.SPIRV, c.Entry, LoadOptions{})
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	specs, in, err := c.Inputs()
	if err != nil {
		t.Fatal(err)
	}
	bound, err := dev.BindSpecs(k, specs, in)
	if err != nil {
		t.Fatalf("bind: %v", err)
	}
	var nd NDRange
	nd.Dims = len(c.Global)
	copy(nd.Global[:], c.Global)
	copy(nd.Local[:], c.Local)
	est, err := dev.Estimate(k, nd, bound.Args, Options{WarpWidth: width})
	if err != nil {
		t.Fatalf("estimate: %v", err)
	}
	res, err := dev.Dispatch(k, nd, bound.Args, Options{WarpWidth: width})
	if err != nil {
		t.Fatalf("dispatch: %v", err)
	}
	// The estimate is a lower bound, and knows the launch's shape.
	if est.MinWarpInsts > res.Stats.WarpInsts || est.Warps != res.Stats.Warps {
		t.Errorf("estimate %d warp instructions in %d warps; ran %d in %d", est.MinWarpInsts, est.Warps, res.Stats.WarpInsts, res.Stats.Warps)
	}
	want, err := c.Reference(in)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range c.Outputs {
		if err := corpus.Compare(c, o, bound.Buffers[o].Bytes(), want[o]); err != nil {
			t.Errorf("warp width %d: argument %d: %v", res.WarpWidth, o, err)
		}
	}
}

// TestCorpusWidths runs the corpus at every warp width the executor
// supports, so divergence and reconvergence are exercised with lanes split
// every possible way.
func TestCorpusWidths(t *testing.T) {
	g, err := arch.Lookup("mali-g52")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []int{1, 2, 3, 16, 128} {
		for _, c := range corpus.Cases() {
			t.Run(fmt.Sprintf("w%d/%s", w, c.Name), func(t *testing.T) { runCase(t, g, c, w) })
		}
	}
}

// TestCorpusDriverPipeline compiles every OpenCL C corpus kernel with the
// driver pipeline (-O2, freeze removed, blocks in dominance order) and
// checks its results against the Go references on a GPU of each family, so
// the optimized SPIR-V a user's compile produces is tested as much as the
// prebuilt light one.
func TestCorpusDriverPipeline(t *testing.T) {
	for _, tool := range []string{"clang-14", "opt-14", "llvm-spirv-14", "spirv-val"} {
		if _, err := kernel.FindTool(tool); err != nil {
			t.Skipf("skipping: %v", err)
		}
	}
	for _, c := range corpus.Cases() {
		if c.Lang != "opencl" {
			continue
		}
		opt := corpus.CompileOptions(c)
		opt.Light = false
		spv, err := kernel.Compile(filepath.Join("..", "internal", "corpus", c.SourceFile), opt)
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		c.SPIRV = spv
		for _, gpu := range []string{"mali-g52", "adreno-640", "powervr-gx6250"} {
			g, err := arch.Lookup(gpu)
			if err != nil {
				t.Fatal(err)
			}
			t.Run(gpu+"/"+c.Name, func(t *testing.T) { runCase(t, g, c, 0) })
		}
	}
}
