package device

import (
	"fmt"
	"github.com/pocketgpu/pocketgpu/counters"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/kernel"
)

// timeKernel runs a test kernel under the timing model on GPU g.
func timeKernel(t testing.TB, g *arch.GPU, file string, global, local int, args ...string) *TimedResult {
	t.Helper()
	run := setupKernel(t, g, file, global, local, args...)
	return run()
}

// setupKernel loads a test kernel and its arguments and returns a function
// that times one dispatch (so benchmarks can leave the setup out).
func setupKernel(t testing.TB, g *arch.GPU, file string, global, local int, args ...string) func() *TimedResult {
	t.Helper()
	run := setupKernelWith(t, g, file, global, local, args...)
	return func() *TimedResult { return run(Options{}) }
}

// setupKernelWith is setupKernel with the launch's options.
func setupKernelWith(t testing.TB, g *arch.GPU, file string, global, local int, args ...string) func(Options) *TimedResult {
	t.Helper()
	return setupEntryWith(t, g, file, "", global, local, args...)
}

// setupEntryWith is setupKernelWith for entry point entry of the module.
func setupEntryWith(t testing.TB, g *arch.GPU, file, entry string, global, local int, args ...string) func(Options) *TimedResult {
	t.Helper()
	spv, err := os.ReadFile(filepath.Join("testdata/kernels", file))
	if err != nil {
		t.Fatal(err)
	}
	dev := Open(g)
	k, err := dev.Load(spv, entry, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b := bindSpecs(t, dev, k, args)
	return func(opt Options) *TimedResult {
		r, err := dev.Time(k, NDRange{Dims: 1, Global: [3]int{global, 1, 1}, Local: [3]int{local, 1, 1}}, b.Args, opt)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
}

// bindSpecs materializes and binds argument specs for k.
func bindSpecs(t testing.TB, dev *Device, k *Kernel, args []string) *Bound {
	t.Helper()
	specs := make([]kernel.Arg, len(args))
	data := make([][]byte, len(args))
	for i, s := range args {
		var err error
		if specs[i], err = kernel.ParseArg(s); err != nil {
			t.Fatal(err)
		}
		if data[i], err = specs[i].Materialize("."); err != nil {
			t.Fatal(err)
		}
	}
	b, err := dev.BindSpecs(k, specs, data)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// userGPU is a preset with YAML overrides, as a user writes it.
func userGPU(t testing.TB, base, overrides string) *arch.GPU {
	t.Helper()
	g, err := arch.Parse([]byte("base: "+base+"\n"+overrides), "test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func within(got, want, tol float64) bool { return math.Abs(got-want) <= tol*math.Abs(want) }

func madArgs(n, iters int) []string {
	return []string{fmt.Sprintf("buf:f32:%d", n), fmt.Sprintf("u32:%d", iters), "f32:0.999"}
}

// Doubling the clock leaves an ALU-bound kernel's cycles alone and halves
// its time. (The kernel's final write-back of dirty lines to DRAM takes
// nanoseconds, not cycles; a long loop keeps it to a sliver of the run.)
func TestPhysicsClock(t *testing.T) {
	for _, base := range []string{"mali-g52", "adreno-640", "powervr-gx6250"} {
		g := userGPU(t, base, "")
		fast := userGPU(t, base, fmt.Sprintf("clock_mhz: %g\n", 2*g.ClockMHz))
		a := timeKernel(t, g, "madloop.spv", 4096, 64, madArgs(4096, 1024)...)
		b := timeKernel(t, fast, "madloop.spv", 4096, 64, madArgs(4096, 1024)...)
		if !within(b.Timing.Cycles, a.Timing.Cycles, 0.02) || !within(b.Timing.TimeNS, a.Timing.TimeNS/2, 0.02) {
			t.Errorf("%s: clock x2: cycles %.0f -> %.0f, time %.0f -> %.0f ns; want the same cycles and half the time",
				base, a.Timing.Cycles, b.Timing.Cycles, a.Timing.TimeNS, b.Timing.TimeNS)
		}
	}
}

// Twice the execution engines (Bifrost EEs, Adreno uSPTPs, Rogue USCs)
// give twice the throughput on an ALU-bound kernel. Throughput needs many
// work-groups: with few, the last round of work-groups leaves cores idle
// (256 work-groups fill six Adreno uSPTPs in three rounds but twelve in
// two), which is real but not what this test is about.
func TestPhysicsEngines(t *testing.T) {
	cases := []struct{ base, more string }{
		{"mali-g52", "engines_per_core: 6\n"},
		{"adreno-640", "cores: 12\n"},
		{"powervr-gx6250", "cores: 4\n"},
	}
	for _, c := range cases {
		a := timeKernel(t, userGPU(t, c.base, ""), "madloop.spv", 131072, 64, madArgs(131072, 32)...)
		b := timeKernel(t, userGPU(t, c.base, c.more), "madloop.spv", 131072, 64, madArgs(131072, 32)...)
		if r := a.Timing.Cycles / b.Timing.Cycles; r < 1.8 || r > 2.2 {
			t.Errorf("%s with %s: speed-up %.2f (cycles %.0f -> %.0f), want about 2", c.base, c.more, r, a.Timing.Cycles, b.Timing.Cycles)
		}
	}
}

// Doubling the L2 moves the pointer-chase latency step to twice the
// footprint.
func TestPhysicsL2Step(t *testing.T) {
	for _, base := range []string{"mali-g52", "adreno-640"} {
		g := userGPU(t, base, "")
		big := userGPU(t, base, fmt.Sprintf("l2: {size_kib: %d}\n", 2*g.L2.SizeKiB))
		lat := func(g *arch.GPU, kib int) float64 {
			n := kib * 1024 / 4
			steps := 4 * kib * 1024 / 64
			r := timeKernel(t, g, "chase.spv", 1, 1, fmt.Sprintf("buf:u32:%d=chase:64", n), "buf:u32:1", fmt.Sprintf("u32:%d", steps))
			return r.Timing.Cycles / float64(steps)
		}
		l2 := g.L2.SizeKiB
		inL2, beyond := lat(g, l2*3/4), lat(g, l2*3/2)
		bigBeyond := lat(big, l2*3/2)
		if beyond < 1.3*inL2 {
			t.Errorf("%s: chase at 1.5x L2 (%.0f cycles/step) not slower than at 0.75x L2 (%.0f)", base, beyond, inL2)
		}
		if !within(bigBeyond, inL2, 0.15) {
			t.Errorf("%s: with L2 doubled, the chase at 1.5x the old L2 takes %.0f cycles/step; want about the in-L2 %.0f", base, bigBeyond, inL2)
		}
	}
}

// Halving the DRAM bandwidth about doubles a streaming kernel's time.
func TestPhysicsDRAMBandwidth(t *testing.T) {
	for _, base := range []string{"mali-g52", "adreno-640"} {
		g := userGPU(t, base, "")
		half := userGPU(t, base, fmt.Sprintf("dram: {transfer_mts: %g}\n", g.DRAM.TransferMTs/2))
		n := 1 << 20 // 16 MiB of float4 in, 16 MiB out: far past every cache
		args := []string{fmt.Sprintf("buf:f32x4:%d", n), fmt.Sprintf("buf:f32x4:%d", n), fmt.Sprintf("u32:%d", n)}
		a := timeKernel(t, g, "stream.spv", 4096, 64, args...)
		b := timeKernel(t, half, "stream.spv", 4096, 64, args...)
		if r := b.Timing.Cycles / a.Timing.Cycles; r < 1.8 || r > 2.2 {
			t.Errorf("%s: half the DRAM bandwidth: time x%.2f (cycles %.0f -> %.0f), want about 2", base, r, a.Timing.Cycles, b.Timing.Cycles)
		}
	}
}

// Two runs of the same kernel give identical counters.
func TestTimingDeterminism(t *testing.T) {
	for _, base := range []string{"mali-g52", "adreno-640", "powervr-gx6250"} {
		g := userGPU(t, base, "")
		a := timeKernel(t, g, "stream.spv", 1024, 64, "buf:f32x4:65536=iota", "buf:f32x4:65536", "u32:65536")
		b := timeKernel(t, g, "stream.spv", 1024, 64, "buf:f32x4:65536=iota", "buf:f32x4:65536", "u32:65536")
		if !reflect.DeepEqual(a.Timing, b.Timing) {
			t.Errorf("%s: two runs differ: %v cycles vs %v", base, a.Timing.Cycles, b.Timing.Cycles)
		}
	}
}

// Every counter a timed run reports has its definition, and so its row in
// docs/counters.md (generated from the definitions).
func TestCountersDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/counters.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, gpu := range []string{"mali-g52", "adreno-640", "powervr-gx6250"} {
		r := timeKernel(t, userGPU(t, gpu, ""), "stream.spv", 256, 64, "buf:f32x4:1024", "buf:f32x4:1024", "u32:1024")
		check := func(set counters.Set, scope counters.Scope) {
			for _, it := range set {
				d, _, ok := counters.Lookup(it.Name, scope)
				if !ok || it.Unit != d.Unit || !strings.Contains(string(doc), "`"+d.Name+"`") {
					t.Errorf("%s: counter %s (%s scope) has no definition in docs/counters.md", gpu, it.Name, scope)
				}
			}
		}
		check(r.Timing.Counters, counters.Kernel)
		for _, pc := range r.Timing.PerCore {
			check(pc, counters.Core)
		}
	}
}

// async_work_group_copy takes Rogue's burst path only when the work-group
// size is fixed at compile time and at least 17 (seed 003 §System Memory
// Access); Mali compiles it into ordinary loads either way.
func TestAsyncCopyBurst(t *testing.T) {
	run := func(gpu, entry string) float64 {
		g := userGPU(t, gpu, "")
		dev := Open(g)
		k := loadTestEntry(t, dev, "async.spv", entry)
		if k.LocalBytes() != 2048 {
			t.Fatalf("%s: %d bytes of local memory, want 2048 (the other kernel's array is not this one's)", entry, k.LocalBytes())
		}
		b := bindSpecStrings(t, dev, k, []string{"buf:f32:32768=iota", "buf:f32:4096"})
		r, err := dev.Time(k, NDRange{Dims: 1, Global: [3]int{4096, 1, 1}, Local: [3]int{64, 1, 1}}, b.Args, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 4096; i++ {
			want := float32((i/64)*512 + (i%64)*8)
			if got := math.Float32frombits(uint32(readLE(b.Buffers[1].Bytes()[4*i:], 4))); got != want {
				t.Fatalf("%s: out[%d] = %v, want %v", entry, i, got, want)
			}
		}
		return r.Timing.Cycles
	}
	fixed, free := run("powervr-gx6250", "copy_fixed"), run("powervr-gx6250", "copy_free")
	if free < 1.5*fixed {
		t.Errorf("rogue: copy with a fixed work-group size %.0f cycles, without %.0f; want the burst path clearly faster", fixed, free)
	}
	if mf, mfree := run("mali-g52", "copy_fixed"), run("mali-g52", "copy_free"); !within(mf, mfree, 0.02) {
		t.Errorf("mali: %.0f vs %.0f cycles; the work-group size should not matter", mf, mfree)
	}
}

// A barrier releases its work-group execution.barrier_latency_cycles after
// the last warp arrives: a user file's longer latency adds to every
// work-group's time, as a stall on the barrier (async.cl: one barrier per
// work-group of 64, eight G52 warps).
func TestPhysicsBarrierLatency(t *testing.T) {
	run := func(g *arch.GPU) *TimedResult {
		dev := Open(g)
		k := loadTestEntry(t, dev, "async.spv", "copy_fixed")
		b := bindSpecStrings(t, dev, k, []string{"buf:f32:32768=iota", "buf:f32:4096"})
		r, err := dev.Time(k, NDRange{Dims: 1, Global: [3]int{4096, 1, 1}, Local: [3]int{64, 1, 1}}, b.Args, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	base := userGPU(t, "mali-g52", "")
	if base.Execution.BarrierLatencyCycles != 4 {
		t.Fatalf("mali-g52 barrier latency %d, want the preset's 4", base.Execution.BarrierLatencyCycles)
	}
	a := run(base)
	b := run(userGPU(t, "mali-g52", "execution: {barrier_latency_cycles: 1004}\n"))
	// Each of the 64 work-groups waits 1000 cycles more (one with local
	// memory at a time on each of the two cores); the stores drain to DRAM
	// meanwhile, so the run grows by less than 32 of them in turn.
	if d := b.Timing.Cycles - a.Timing.Cycles; d < 1000 || d > 64*1000 {
		t.Errorf("barrier latency 4 -> 1004: %.0f -> %.0f cycles; want 1000 to 64000 more", a.Timing.Cycles, b.Timing.Cycles)
	}
	sa, sb := a.Timing.Counters.Value("stall_barrier_cycles"), b.Timing.Counters.Value("stall_barrier_cycles")
	if sb <= sa+1000 {
		t.Errorf("stall_barrier_cycles %.0f -> %.0f; want the longer release to show as barrier stalls", sa, sb)
	}
}

// A compare-and-swap loop per work-item on global and local memory: lanes
// of a warp retry until each has won once, in functional and timed runs.
func TestCompareExchange(t *testing.T) {
	for _, gpu := range []string{"mali-g52", "adreno-640", "powervr-gx6250"} {
		g := userGPU(t, gpu, "")
		spv, err := os.ReadFile("testdata/kernels/cas.spv")
		if err != nil {
			t.Fatal(err)
		}
		for _, timed := range []bool{false, true} {
			dev := Open(g)
			k, err := dev.Load(spv, "", LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			sum, seen, lsum := dev.Alloc(4, "sum"), dev.Alloc(4*256, "seen"), dev.Alloc(4*4, "lsum")
			nd := NDRange{Dims: 1, Global: [3]int{256, 1, 1}, Local: [3]int{64, 1, 1}}
			args := []Arg{BufferArg(sum), BufferArg(seen), BufferArg(lsum)}
			if timed {
				_, err = dev.Time(k, nd, args, Options{})
			} else {
				_, err = dev.Dispatch(k, nd, args, Options{})
			}
			if err != nil {
				t.Fatalf("%s: %v", gpu, err)
			}
			if got := readLE(sum.Bytes(), 4); got != 255*256/2 {
				t.Errorf("%s timed=%v: sum %d, want %d", gpu, timed, got, 255*256/2)
			}
			// The winners form one serial chain: in the order of the value
			// each saw (work-item 0, which adds nothing, first on a tie),
			// each saw the sum of the ids of those before it.
			order := make([]int, 256)
			for i := range order {
				order[i] = i
			}
			sort.Slice(order, func(a, b int) bool {
				sa, sb := readLE(seen.Bytes()[4*order[a]:], 4), readLE(seen.Bytes()[4*order[b]:], 4)
				return sa < sb || sa == sb && order[a] < order[b]
			})
			cur := uint64(0)
			for _, i := range order {
				if s := readLE(seen.Bytes()[4*i:], 4); s != cur {
					t.Fatalf("%s timed=%v: work-item %d saw %d, but the winners before it sum to %d", gpu, timed, i, s, cur)
				}
				cur += uint64(i)
			}
			for i := 0; i < 4; i++ {
				if got := readLE(lsum.Bytes()[4*i:], 4); got != 64 {
					t.Errorf("%s timed=%v: local counter of work-group %d is %d, want 64", gpu, timed, i, got)
				}
			}
		}
	}
}

// GLSL's uaddCarry, usubBorrow, umulExtended and imulExtended (the IR's
// two-result operations) against Go's arithmetic, on random operands.
func TestExtendedIntegerOps(t *testing.T) {
	spv, err := os.ReadFile("testdata/kernels/extended.spv")
	if err != nil {
		t.Fatal(err)
	}
	for _, gpu := range []string{"mali-g52", "adreno-640"} {
		dev := Open(userGPU(t, gpu, ""))
		k, err := dev.Load(spv, "", LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		specs := []string{"buf:u32:256=random:5", "buf:u32:256=random:6", "buf:u32:2048"}
		args := make([]kernel.Arg, 3)
		data := make([][]byte, 3)
		for i, s := range specs {
			args[i], _ = kernel.ParseArg(s)
			data[i], _ = args[i].Materialize(".")
		}
		b, err := dev.BindSpecs(k, args, data)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := dev.Dispatch(k, NDRange{Dims: 1, Global: [3]int{256, 1, 1}}, b.Args, Options{}); err != nil {
			t.Fatal(err)
		}
		out := b.Buffers[2].Bytes()
		for i := 0; i < 256; i++ {
			x, y := uint32(readLE(data[0][4*i:], 4)), uint32(readLE(data[1][4*i:], 4))
			sum, carry := bits.Add32(x, y, 0)
			diff, borrow := bits.Sub32(x, y, 0)
			up := uint64(x) * uint64(y)
			sp := uint64(int64(int32(x)) * int64(int32(y)))
			want := []uint32{sum, carry, diff, borrow, uint32(up), uint32(up >> 32), uint32(sp), uint32(sp >> 32)}
			for j, w := range want {
				if got := uint32(readLE(out[4*(8*i+j):], 4)); got != w {
					t.Fatalf("%s: element %d result %d = %#x, want %#x (a=%#x b=%#x)", gpu, i, j, got, w, x, y)
				}
			}
		}
	}
}
