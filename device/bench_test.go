package device

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/internal/corpus"
	"github.com/pocketgpu/pocketgpu/kernel"
)

//go:generate sh -c "for f in peak_sp peak_hp peak_int bandwidth; do go run ../cmd/pocketgpu compile testdata/kernels/$DOLLAR{f}.cl -o testdata/kernels/$DOLLAR{f}.spv || exit 1; done"

// functionalBenchCase is one launch of the functional benchmark: a corpus
// kernel (file empty) or one of testdata/kernels.
type functionalBenchCase struct {
	name, file, entry string
	global            int
	args              []string
}

// functionalBenchCases are the functional benchmark's launches: the
// corpus's fma8 (8 independent fma chains) and vecadd, and kernels shaped
// like clpeak's, compiled as a driver compiles them: dependent mad chains
// on float, float4 and half, integer multiply-adds, and a bandwidth kernel (16
// coalesced loads summed per work-item).
var functionalBenchCases = []functionalBenchCase{
	{"fma8", "", "fma8", 16384, []string{"buf:f32:16384", "u32:256", "f32:0.999"}},
	{"vecadd", "", "vecadd", 1 << 20, []string{"buf:f32:1048576=random:1", "buf:f32:1048576=random:2", "buf:f32:1048576", "u32:1048576"}},
	{"peak_sp", "peak_sp.spv", "peak_sp", 16384, []string{"buf:f32:16384", "f32:1.3"}},
	{"peak_sp4", "peak_sp.spv", "peak_sp4", 16384, []string{"buf:f32:16384", "f32:1.3"}},
	{"peak_hp", "peak_hp.spv", "peak_hp", 16384, []string{"buf:f16:16384", "f32:1.3"}},
	{"peak_int", "peak_int.spv", "peak_int", 16384, []string{"buf:i32:16384", "i32:3"}},
	{"bandwidth", "bandwidth.spv", "bandwidth", 1 << 18, []string{"buf:f32:4194304=random:1", "buf:f32:262144"}},
}

// BenchmarkFunctional measures the functional executor on
// functionalBenchCases for warps of 8 (Mali-G52), 32 (Rogue tasks) and 128
// (Adreno 640 wave128), on one host thread and on two (t1, t2). It reports
// thread-instructions per second (issue 24's goals: 300 million or more on
// one core, 1.8 times that on two).
func BenchmarkFunctional(b *testing.B) {
	for _, gpu := range []string{"mali-g52", "powervr-gx6250", "adreno-640"} {
		g, err := arch.Lookup(gpu)
		if err != nil {
			b.Fatal(err)
		}
		for _, bc := range functionalBenchCases {
			for _, threads := range []int{1, 2} {
				b.Run(fmt.Sprintf("%s/%s/t%d", gpu, bc.name, threads), func(b *testing.B) {
					benchFunctional(b, g, bc, threads)
				})
			}
		}
	}
}

// benchFunctional runs one case of BenchmarkFunctional.
func benchFunctional(b *testing.B, g *arch.GPU, bc functionalBenchCase, threads int) {
	dev := Open(g)
	k := loadBenchKernel(b, dev, bc)
	args := bindBenchArgs(b, dev, k, bc.args)
	nd := NDRange{Dims: 1, Global: [3]int{bc.global, 1, 1}, Local: [3]int{64, 1, 1}}
	var insts uint64
	b.ResetTimer()
	cpu0 := cpuSeconds()
	for i := 0; i < b.N; i++ {
		res, err := dev.Dispatch(k, nd, args, Options{Threads: threads})
		if err != nil {
			b.Fatal(err)
		}
		insts += res.Stats.ThreadInsts
	}
	cpu := cpuSeconds() - cpu0
	b.ReportMetric(float64(insts)/b.Elapsed().Seconds()/1e6, "Mthread-inst/s")
	// Per CPU-second: steadier than wall time on a shared machine, and
	// with several threads it shows their overhead.
	b.ReportMetric(float64(insts)/cpu/1e6, "Mthread-inst/cpu-s")
}

// bindBenchArgs allocates and binds a benchmark's arguments from their
// specs.
func bindBenchArgs(b testing.TB, dev *Device, k *Kernel, args []string) []Arg {
	return bindSpecStrings(b, dev, k, args).Args
}

// bindSpecStrings parses argument specs ("buf:f32:64=iota"), makes their
// data and binds them to k on dev.
func bindSpecStrings(b testing.TB, dev *Device, k *Kernel, args []string) *Bound {
	b.Helper()
	specs := make([]kernel.Arg, len(args))
	data := make([][]byte, len(args))
	for i, s := range args {
		var err error
		if specs[i], err = kernel.ParseArg(s); err != nil {
			b.Fatal(err)
		}
		if data[i], err = specs[i].Materialize("."); err != nil {
			b.Fatal(err)
		}
	}
	bound, err := dev.BindSpecs(k, specs, data)
	if err != nil {
		b.Fatal(err)
	}
	return bound
}

// loadBenchKernel loads a functional benchmark case's kernel.
func loadBenchKernel(b *testing.B, dev *Device, bc functionalBenchCase) *Kernel {
	var spv []byte
	if bc.file == "" {
		c, ok := corpus.Lookup(bc.name)
		if !ok {
			b.Fatalf("no corpus kernel %s", bc.name)
		}
		spv = c.SPIRV
	} else {
		var err error
		if spv, err = os.ReadFile(filepath.Join("testdata/kernels", bc.file)); err != nil {
			b.Fatal(err)
		}
	}
	k, err := dev.Load(spv, bc.entry, LoadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	return k
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
			for _, threads := range []int{1, 2} {
				b.Run(fmt.Sprintf("%s/%s/t%d", gpu, bc.name, threads), func(b *testing.B) {
					benchTiming(b, g, bc, threads)
				})
			}
		}
	}
}

// benchTiming runs one case of BenchmarkTiming on threads host threads.
func benchTiming(b *testing.B, g *arch.GPU, bc timingBenchCase, threads int) {
	// Every iteration in detail: repeats would reuse the first's figures.
	run := setupKernelWith(b, g, bc.file, bc.global, bc.local, bc.args...)
	var insts, threadInsts float64
	b.ResetTimer()
	cpu0 := cpuSeconds()
	for i := 0; i < b.N; i++ {
		r := run(Options{Detail: DetailFull, Threads: threads})
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

// BenchmarkLaunch measures a small launch from start to end, as clpeak's
// kernel-latency test makes 20,000 of them: vecadd over 64 work-items,
// run functionally (dispatch), timed as exec times it (time: repeats
// reuse the first launch's figures) and timed in detail every time
// (time-full). It reports microseconds a launch, of wall time and of CPU
// time.
func BenchmarkLaunch(b *testing.B) {
	for _, gpu := range []string{"mali-g52", "adreno-640"} {
		g, err := arch.Lookup(gpu)
		if err != nil {
			b.Fatal(err)
		}
		bc := functionalBenchCase{"vecadd", "", "vecadd", 64, []string{"buf:f32:64=random:1", "buf:f32:64=random:2", "buf:f32:64", "u32:64"}}
		for _, mode := range []string{"dispatch", "time", "time-full"} {
			b.Run(gpu+"/"+mode, func(b *testing.B) {
				dev := Open(g)
				k := loadBenchKernel(b, dev, bc)
				args := bindBenchArgs(b, dev, k, bc.args)
				nd := NDRange{Dims: 1, Global: [3]int{64, 1, 1}, Local: [3]int{64, 1, 1}}
				b.ReportAllocs()
				b.ResetTimer()
				cpu0 := cpuSeconds()
				for i := 0; i < b.N; i++ {
					var err error
					switch mode {
					case "dispatch":
						_, err = dev.Dispatch(k, nd, args, Options{})
					case "time":
						_, err = dev.Time(k, nd, args, Options{})
					default:
						_, err = dev.Time(k, nd, args, Options{Detail: DetailFull})
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(b.Elapsed().Seconds()*1e6/float64(b.N), "us/launch")
				b.ReportMetric((cpuSeconds()-cpu0)*1e6/float64(b.N), "cpu-us/launch")
			})
		}
	}
}

// BenchmarkCorpus runs the corpus kernels that the executor ran slowest
// (images and GLSL compute shaders) functionally on the Mali-G52, a
// launch at a time as the corpus defines it, and reports thread
// instructions a second, of wall time and of CPU time. Their launches are
// small, so the launch's own cost (BenchmarkLaunch) is part of it.
func BenchmarkCorpus(b *testing.B) {
	g, err := arch.Lookup("mali-g52")
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"image1d", "image2d", "reduce_glsl", "divergent_glsl", "spec_glsl"} {
		b.Run(name, func(b *testing.B) {
			c, ok := corpus.Lookup(name)
			if !ok {
				b.Fatalf("no corpus kernel %s", name)
			}
			dev := Open(g)
			k, err := dev.Load(c.SPIRV, c.Entry, LoadOptions{})
			if err != nil {
				b.Fatal(err)
			}
			specs, in, err := c.Inputs()
			if err != nil {
				b.Fatal(err)
			}
			bound, err := dev.BindSpecs(k, specs, in)
			if err != nil {
				b.Fatal(err)
			}
			nd := NDRange{Dims: len(c.Global)}
			copy(nd.Global[:], c.Global)
			copy(nd.Local[:], c.Local)
			var insts uint64
			b.ResetTimer()
			cpu0 := cpuSeconds()
			for i := 0; i < b.N; i++ {
				res, err := dev.Dispatch(k, nd, bound.Args, Options{Threads: 1})
				if err != nil {
					b.Fatal(err)
				}
				insts += res.Stats.ThreadInsts
			}
			b.ReportMetric(float64(insts)/b.Elapsed().Seconds()/1e6, "Mthread-inst/s")
			b.ReportMetric(float64(insts)/(cpuSeconds()-cpu0)/1e6, "Mthread-inst/cpu-s")
		})
	}
}
