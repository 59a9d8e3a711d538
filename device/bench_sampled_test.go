package device

import (
	"fmt"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
)

// BenchmarkSampled times large launches both ways — every work-group in
// detail (--detail full) and sampled (the default) — on fresh devices, on
// one host thread and on two (t1, t2), and reports the sampled run's
// speed-up, its cycles' difference from the full run, the share of
// work-groups it ran in detail and the host milliseconds of each launch. The issue 24
// goal is 10× or more on grids of 256 work-groups and up with the cycles
// within 2%.
func BenchmarkSampled(b *testing.B) {
	cases := []struct {
		name          string
		file          string
		global, local int
		args          []string
	}{
		// clpeak-style: a dependent mad chain, and 16 coalesced loads a
		// work-item; a grid-stride float4 copy.
		{"peak_sp", "peak_sp.spv", 1 << 18, 256, []string{"buf:f32:262144", "f32:1.5"}},
		{"bandwidth", "bandwidth.spv", 1 << 20, 256, []string{"buf:f32:16777216", "buf:f32:1048576"}},
		{"stream", "stream.spv", 1 << 20, 64, []string{"buf:f32x4:1048576", "buf:f32x4:1048576", "u32:1048576"}},
	}
	for _, gpu := range timingBenchGPUs {
		g, err := arch.Lookup(gpu)
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range cases {
			for _, threads := range []int{1, 2} {
				b.Run(fmt.Sprintf("%s/%s/t%d", gpu, c.name, threads), func(b *testing.B) {
					var full, sampled, errPct, detailed float64
					opt := Options{Threads: threads}
					for range b.N {
						// Host seconds of the launches alone (Result.Seconds), each
						// on a fresh device: the same cold start both ways.
						opt.Detail = DetailFull
						rf := setupEntryWith(b, g, c.file, c.name, c.global, c.local, c.args...)(opt)
						opt.Detail = DetailAuto
						rs := setupEntryWith(b, g, c.file, c.name, c.global, c.local, c.args...)(opt)
						full += rf.Seconds
						sampled += rs.Seconds
						errPct = 100 * (rs.Timing.Cycles/rf.Timing.Cycles - 1)
						if rs.Detail.WorkGroups > 0 {
							detailed = 100 * float64(rs.Detail.Detailed) / float64(rs.Detail.WorkGroups)
						}
					}
					b.ReportMetric(full/sampled, "speed-up")
					b.ReportMetric(errPct, "cycles-err-%")
					b.ReportMetric(detailed, "%-in-detail")
					b.ReportMetric(1000*full/float64(b.N), "full-ms")
					b.ReportMetric(1000*sampled/float64(b.N), "sampled-ms")
				})
			}
		}
	}
}
