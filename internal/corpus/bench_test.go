package corpus

import (
	"fmt"
	"testing"

	"github.com/pocketgpu/pocketgpu/internal/oclref"
)

// BenchmarkPoCLFMA8 runs the fma8 case on PoCL: the reference time that the
// functional executor's speed is reported against (issue 3). "case" is the
// corpus case as is; "large" the same kernel with 64× the work-items and 4×
// the iterations, which amortises PoCL's launch cost. kernel-s is the
// kernel's time from the OpenCL profiling events; FMA/s counts the 8 fmas
// per work-item per iteration. PoCL uses every core; for a one-core
// comparison run with POCL_MAX_PTHREAD_COUNT=1.
func BenchmarkPoCLFMA8(b *testing.B) {
	needPoCL(b)
	base, ok := Lookup("fma8")
	if !ok {
		b.Fatal("no fma8 case")
	}
	for _, size := range []struct {
		name         string
		items, iters int
	}{
		{"case", 1024, 256},
		{"large", 65536, 1024},
	} {
		c := base
		c.Global = []int{size.items}
		c.Args = []string{fmt.Sprintf("buf:f32:%d", size.items), fmt.Sprintf("u32:%d", size.iters), "f32:0.999"}
		b.Run(size.name, func(b *testing.B) {
			args, in, err := c.Inputs()
			if err != nil {
				b.Fatal(err)
			}
			var seconds float64
			for b.Loop() {
				res, err := oclref.Run(c.Source, buildOpts(c), c.Entry, c.Global, c.Local, args, in)
				if err != nil {
					b.Fatal(err)
				}
				seconds += res.Seconds
			}
			kernelS := seconds / float64(b.N)
			b.ReportMetric(kernelS, "kernel-s")
			b.ReportMetric(float64(size.items)*float64(size.iters)*8/kernelS, "FMA/s")
		})
	}
}
