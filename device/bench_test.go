package device

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/internal/corpus"
	"github.com/pocketgpu/pocketgpu/kernel"
)

// BenchmarkFunctional measures the functional executor on the ALU-bound
// fma8 kernel (8 independent fma chains per work-item) and on the
// memory-bound vecadd, for warps of 8 (Mali-G52), 32 (Rogue tasks) and 128
// (Adreno 640 wave128). It reports thread-instructions per second: the
// issue 3 goal is 100 million or more for 8-wide warps on one core.
func BenchmarkFunctional(b *testing.B) {
	for _, gpu := range []string{"mali-g52", "powervr-gx6250", "adreno-640"} {
		g, err := arch.Lookup(gpu)
		if err != nil {
			b.Fatal(err)
		}
		for _, bc := range []struct {
			name   string
			global int
			args   []string
		}{
			{"fma8", 16384, []string{"buf:f32:16384", "u32:256", "f32:0.999"}},
			{"vecadd", 1 << 20, []string{"buf:f32:1048576=random:1", "buf:f32:1048576=random:2", "buf:f32:1048576", "u32:1048576"}},
		} {
			b.Run(gpu+"/"+bc.name, func(b *testing.B) {
				c, _ := corpus.Lookup(bc.name)
				dev := Open(g)
				k, err := dev.Load(c.SPIRV, c.Entry, LoadOptions{})
				if err != nil {
					b.Fatal(err)
				}
				specs := make([]kernel.Arg, len(bc.args))
				data := make([][]byte, len(bc.args))
				for i, s := range bc.args {
					specs[i], _ = kernel.ParseArg(s)
					data[i], _ = specs[i].Materialize(".")
				}
				bound, err := dev.BindSpecs(k, specs, data)
				if err != nil {
					b.Fatal(err)
				}
				nd := NDRange{Dims: 1, Global: [3]int{bc.global, 1, 1}, Local: [3]int{64, 1, 1}}
				var insts uint64
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					res, err := dev.Dispatch(k, nd, bound.Args, Options{})
					if err != nil {
						b.Fatal(err)
					}
					insts += res.Stats.ThreadInsts
				}
				b.ReportMetric(float64(insts)/b.Elapsed().Seconds()/1e6, "Mthread-inst/s")
			})
		}
	}
}

// timingBenchGPUs are the GPUs the timing benchmarks run on.
var timingBenchGPUs = []string{"mali-g52", "adreno-640", "powervr-gx6250"}

// timingBenchCase is one kernel launch of the timing benchmarks.
type timingBenchCase struct {
	name, file    string
	global, local int
	args          []string
}

// timingBenchCases are the timing benchmark's launches: an ALU-bound and
// a memory-bound one, and with big the 1M-work-item stream.
func timingBenchCases(big bool) []timingBenchCase {
	stream := []string{"buf:f32x4:1048576", "buf:f32x4:1048576", "u32:1048576"}
	cs := []timingBenchCase{
		{"alu", "madloop.spv", 16384, 64, madArgs(16384, 64)},
		{"stream", "stream.spv", 65536, 64, stream},
	}
	if big {
		cs = append(cs, timingBenchCase{"stream-1M", "stream.spv", 1 << 20, 64, stream})
	}
	return cs
}

// BenchmarkTiming measures the timing model (executor included) on an
// ALU-bound kernel (mad chains) and a memory-bound one (float4 streaming),
// in warp instructions per second: the issue 4 goal is 5 million or more.
// The 1M-work-item streaming case also reports the process's peak resident
// memory (VmHWM), which must stay bounded.
func BenchmarkTiming(b *testing.B) {
	for _, gpu := range timingBenchGPUs {
		g, err := arch.Lookup(gpu)
		if err != nil {
			b.Fatal(err)
		}
		for _, bc := range timingBenchCases(true) {
			b.Run(gpu+"/"+bc.name, func(b *testing.B) {
				// Every iteration in detail: repeats would reuse the first's figures.
				run := setupKernelWith(b, g, bc.file, bc.global, bc.local, bc.args...)
				var insts, threadInsts float64
				b.ResetTimer()
				cpu0 := cpuSeconds()
				for i := 0; i < b.N; i++ {
					r := run(Options{Detail: DetailFull})
					insts += r.Timing.Counters.Value("warp_instructions")
					threadInsts += float64(r.Stats.ThreadInsts)
				}
				cpu := cpuSeconds() - cpu0
				b.ReportMetric(insts/b.Elapsed().Seconds()/1e6, "Mwarp-inst/s")
				// Warps are 8 lanes wide on the G52, 32 on Rogue and 64 or
				// 128 on Adreno: per work-item instruction the families'
				// runs compare like for like.
				b.ReportMetric(threadInsts/b.Elapsed().Seconds()/1e6, "Mthread-inst/s")
				// Per CPU-second of this process: steadier than wall time on
				// a shared machine (the garbage collector's CPU is included).
				b.ReportMetric(insts/cpu/1e6, "Mwarp-inst/cpu-s")
				if rss := peakRSS(); rss > 0 {
					b.ReportMetric(float64(rss)/(1<<20), "peak-RSS-MiB")
				}
			})
		}
	}
}

// cpuSeconds is the process's user+system CPU time.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}

// peakRSS reads the process's peak resident set size (Linux), in bytes.
func peakRSS() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		var kb int64
		if _, err := fmt.Sscanf(line, "VmHWM: %d kB", &kb); err == nil {
			return kb << 10
		}
	}
	return 0
}
