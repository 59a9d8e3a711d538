package corpus

import (
	"fmt"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/device"
	"github.com/pocketgpu/pocketgpu/internal/oclref"
	"github.com/pocketgpu/pocketgpu/kernel"
)

// BenchmarkFunctionalVsPoCL runs the same OpenCL C kernel, fma8 with 65,536
// work-items and 1,024 iterations, on PoCL and on pocketgpu's functional
// executor (the Mali-G52's 8-wide warps and the Adreno 640's 64-wide
// waves, SPIR-V prebuilt by the light pipeline), both on every host core,
// and reports the kernel's time on each and their ratio: how much slower
// simulating a GPU functionally is than running the kernel on the host's
// own OpenCL (PoCL compiles it to native vector code).
func BenchmarkFunctionalVsPoCL(b *testing.B) {
	needPoCL(b)
	c, ok := Lookup("fma8")
	if !ok {
		b.Fatal("no fma8 case")
	}
	const items, iters = 65536, 1024
	c.Global = []int{items}
	c.Args = []string{fmt.Sprintf("buf:f32:%d", items), fmt.Sprintf("u32:%d", iters), "f32:0.999"}
	for _, gpu := range []string{"mali-g52", "adreno-640"} {
		b.Run(gpu, func(b *testing.B) {
			g, err := arch.Lookup(gpu)
			if err != nil {
				b.Fatal(err)
			}
			args, in, err := c.Inputs()
			if err != nil {
				b.Fatal(err)
			}
			dev := device.Open(g)
			k, err := dev.Load(c.SPIRV, c.Entry, device.LoadOptions{})
			if err != nil {
				b.Fatal(err)
			}
			bound, err := dev.BindSpecs(k, args, in)
			if err != nil {
				b.Fatal(err)
			}
			nd := device.NDRange{Dims: 1, Global: [3]int{items, 1, 1}, Local: [3]int{c.Local[0], 1, 1}}
			var ours, pocl float64
			for b.Loop() {
				r, err := dev.Dispatch(k, nd, bound.Args, device.Options{})
				if err != nil {
					b.Fatal(err)
				}
				ours += r.Seconds
				ref, err := oclrefRun(c, args, in)
				if err != nil {
					b.Fatal(err)
				}
				pocl += ref
			}
			b.ReportMetric(ours/float64(b.N), "pocketgpu-s")
			b.ReportMetric(pocl/float64(b.N), "pocl-s")
			b.ReportMetric(ours/pocl, "x-pocl")
		})
	}
}

// oclrefRun runs case c on PoCL and returns its kernel time.
func oclrefRun(c Case, args []kernel.Arg, in [][]byte) (float64, error) {
	res, err := oclref.Run(c.Source, buildOpts(c), c.Entry, c.Global, c.Local, args, in)
	if err != nil {
		return 0, err
	}
	return res.Seconds, nil
}
