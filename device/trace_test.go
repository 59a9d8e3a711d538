package device

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/timing/trace"
)

// traced runs a kernel with a trace and returns the run and the trace's
// bytes.
func traced(t testing.TB, run func(Options) *TimedResult, interval float64) (*TimedResult, []byte) {
	t.Helper()
	tr := trace.New("gpu", interval)
	r := run(Options{Trace: tr})
	var b bytes.Buffer
	if _, err := tr.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	return r, b.Bytes()
}

// A timed run's trace decodes with the writer's schema, has the engine,
// core and memory tracks, keeps each track's events in time order, and
// its issue slices count the run's groups_issued exactly. Tracing changes
// no counter, and the same run gives the same bytes.
func TestTraceOfTimedRun(t *testing.T) {
	for _, gpu := range []string{"mali-g52", "adreno-640", "powervr-gx6250"} {
		t.Run(gpu, func(t *testing.T) {
			g, err := arch.Lookup(gpu)
			if err != nil {
				t.Fatal(err)
			}
			// A fresh device each time: caches stay warm between runs.
			setup := func() func(Options) *TimedResult {
				return setupKernelWith(t, g, "stream.spv", 8192, 64, "buf:f32x4:8192", "buf:f32x4:8192", "u32:8192")
			}
			plain := setup()(Options{})
			r, data := traced(t, setup(), 500)
			for _, name := range plain.Timing.Names() {
				if a, b := plain.Timing.Counters.Value(name), r.Timing.Counters.Value(name); a != b {
					t.Errorf("%s: %g without the trace, %g with it", name, a, b)
				}
			}
			d, err := trace.Decode(data)
			if err != nil {
				t.Fatal(err)
			}
			slices, err := d.Slices() // fails on time going back on a track
			if err != nil {
				t.Fatal(err)
			}
			paths := map[string]bool{}
			for _, tr := range d.Tracks {
				paths[d.Path(tr.UUID)] = true
			}
			want := []string{"Core 0/engine 0", "Core 0/resident warps", "Core 0/resident work-groups", "Memory/DRAM bytes", "Memory/L2 misses", "Memory/requests in flight", "Kernels"}
			for c := 0; c < g.Cores; c++ {
				want = append(want, "Core "+itoa(c)+"/engine "+itoa(g.EnginesPerCore-1))
			}
			for _, p := range want {
				if !paths[p] {
					t.Errorf("no track %q", p)
				}
			}
			var groups uint64
			var kernels int
			for _, s := range slices {
				p := d.Path(s.Track)
				if strings.HasPrefix(p, "Core ") && strings.Contains(p, "/engine ") {
					groups += s.Args["groups"].(uint64)
				}
				if p == "Kernels" {
					kernels++
					if end := uint64(r.Timing.TimeNS + 1); s.End > end {
						t.Errorf("kernel slice ends at %d ns, after the run's %d", s.End, end)
					}
				}
			}
			if want := r.Timing.Counters.Value("groups_issued"); float64(groups) != want {
				t.Errorf("issue slices hold %d groups, groups_issued %g", groups, want)
			}
			if kernels != 1 {
				t.Errorf("%d kernel slices, want 1", kernels)
			}
			var dram float64
			for _, ev := range d.Events {
				if ev.Type == 4 && d.Path(ev.Track) == "Memory/DRAM bytes" {
					dram += ev.Value
				}
			}
			if dram == 0 {
				t.Error("no DRAM bytes on the memory track")
			}
			if _, again := traced(t, setup(), 500); !bytes.Equal(data, again) {
				t.Error("the same run gave a different trace")
			}
		})
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// BenchmarkTimingTrace is BenchmarkTiming's runs, each made twice in turn:
// plainly and with a trace recorded and written (to io.Discard). It
// reports both in CPU ms per run (steadier than wall time on a shared
// machine) and the trace's cost in % of the plain run, and the trace's
// size. Interleaving the two keeps other load on the machine from
// favouring either.
func BenchmarkTimingTrace(b *testing.B) {
	for _, gpu := range timingBenchGPUs {
		g, err := arch.Lookup(gpu)
		if err != nil {
			b.Fatal(err)
		}
		for _, bc := range timingBenchCases(false) {
			b.Run(gpu+"/"+bc.name, func(b *testing.B) {
				run := setupKernelWith(b, g, bc.file, bc.global, bc.local, bc.args...)
				var size int64
				var plain, traced float64
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					c0 := cpuSeconds()
					run(Options{Detail: DetailFull})
					c1 := cpuSeconds()
					tr := trace.New(g.ID, trace.DefaultInterval)
					run(Options{Trace: tr})
					n, err := tr.WriteTo(io.Discard)
					if err != nil {
						b.Fatal(err)
					}
					c2 := cpuSeconds()
					plain += c1 - c0
					traced += c2 - c1
					size = n
				}
				b.ReportMetric(1000*plain/float64(b.N), "plain-cpu-ms/op")
				b.ReportMetric(1000*traced/float64(b.N), "trace-cpu-ms/op")
				b.ReportMetric(100*(traced-plain)/plain, "overhead-%")
				b.ReportMetric(float64(size), "trace-bytes")
			})
		}
	}
}
