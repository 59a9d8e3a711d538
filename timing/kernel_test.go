package timing_test

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/emu"
	"github.com/pocketgpu/pocketgpu/internal/corpus"
	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/isa"
	"github.com/pocketgpu/pocketgpu/isa/families"
	"github.com/pocketgpu/pocketgpu/spirv"
	"github.com/pocketgpu/pocketgpu/timing"
	"github.com/pocketgpu/pocketgpu/timing/mem"
)

// job is a corpus kernel ready to run: its dispatch (fresh on each call
// of dispatch), its lowering and residency on a GPU.
type job struct {
	g     *arch.GPU
	prog  *emu.Program
	low   *isa.Program
	occ   arch.Occupancy
	n     int // work-items
	local int // a work-group's
	args  func(m *emu.Memory) []emu.ParamValue
}

func newJob(t *testing.T, gpu, kernel string, n int, args func(m *emu.Memory) []emu.ParamValue) *job {
	t.Helper()
	g, err := arch.Lookup(gpu)
	if err != nil {
		t.Fatal(err)
	}
	return newJobOn(t, g, kernel, n, 0, args)
}

// newJobOn is newJob on g with work-groups of local work-items (0: a warp).
func newJobOn(t *testing.T, g *arch.GPU, kernel string, n, local int, args func(m *emu.Memory) []emu.ParamValue) *job {
	t.Helper()
	c, ok := corpus.Lookup(kernel)
	if !ok || c.SPIRV == nil {
		t.Fatalf("corpus kernel %s missing", kernel)
	}
	m, err := spirv.Decode(c.SPIRV)
	if err != nil {
		t.Fatal(err)
	}
	p, err := emu.Load(m, c.Entry, emptyOptions)
	if err != nil {
		t.Fatal(err)
	}
	low, err := families.Lower(p.Program, g, 0)
	if err != nil {
		t.Fatal(err)
	}
	if local == 0 {
		local = low.WarpWidth
	}
	occ, err := g.Occupancy(arch.OccupancyQuery{Regs: low.Regs, WorkgroupSize: local})
	if err != nil {
		t.Fatal(err)
	}
	return &job{g: g, prog: p, low: low, occ: occ, n: n, local: local, args: args}
}

// dispatch is a fresh, initialised dispatch of the job.
func (j *job) dispatch(t *testing.T) *emu.Dispatch {
	t.Helper()
	m := emu.NewMemory()
	w := j.low.WarpWidth
	d := &emu.Dispatch{Prog: j.prog, Mem: m, Width: w, Dims: 1, Global: [3]int{j.n, 1, 1}, Local: [3]int{j.local, 1, 1},
		Params: j.args(m), MaxWarpInsts: emu.Unlimited}
	if err := d.Init(); err != nil {
		t.Fatal(err)
	}
	return d
}

// record runs every warp of the job in the executor, as a renderer runs a
// shader's warps before timing them.
func (j *job) record(t *testing.T) []*timing.ReplayWarp {
	t.Helper()
	d := j.dispatch(t)
	var out []*timing.ReplayWarp
	for i := 0; i < d.NumGroups(); i++ {
		wg := d.NewWorkGroup(i)
		for _, w := range wg.Warps {
			rw := &timing.ReplayWarp{}
			var tr emu.Trace
			w.Trace = &tr
			for {
				st := w.Step()
				rw.Record(&tr)
				if st == emu.Done {
					break
				}
				if st != emu.Running {
					t.Fatalf("warp stopped with %v: %v", st, w.Err())
				}
			}
			out = append(out, rw)
		}
		d.Release(wg)
	}
	return out
}

var emptyOptions = emuOptions()

// list hands out recorded warps in order to whichever core asks.
type list struct {
	warps []*timing.ReplayWarp
	next  int
	after float64 // no warp before this time
}

func (l *list) Next(c int, t float64) (*timing.ReplayWarp, float64) {
	if t < l.after {
		return nil, l.after
	}
	if l.next >= len(l.warps) {
		return nil, math.Inf(1)
	}
	w := l.warps[l.next]
	l.next++
	return w, 0
}

func streamJob(t *testing.T, gpu string) *job { return streamJobN(t, gpu, 8192) }

// streamJobN is vecadd over n work-items.
func streamJobN(t *testing.T, gpu string, n int) *job {
	return newJob(t, gpu, "vecadd", n, func(m *emu.Memory) []emu.ParamValue {
		a, b, c := m.Alloc(4*n, "a", true), m.Alloc(4*n, "b", true), m.Alloc(4*n, "c", false)
		return []emu.ParamValue{{Slots: []uint64{a.Base}}, {Slots: []uint64{b.Base}}, {Slots: []uint64{c.Base}}, {Slots: []uint64{uint64(n)}}}
	})
}

func aluJob(t *testing.T, gpu string) *job { return fmaJob(t, gpu, 4096, 64) }

// fmaJob is fma8 over n work-items, iters steps each.
func fmaJob(t *testing.T, gpu string, n int, iters uint64) *job {
	return newJob(t, gpu, "fma8", n, func(m *emu.Memory) []emu.ParamValue {
		out := m.Alloc(4*n, "out", false)
		return []emu.ParamValue{{Slots: []uint64{out.Base}}, {Slots: []uint64{iters}}, {Slots: []uint64{uint64(math.Float32bits(0.5))}}}
	})
}

// A shader's warps, run by the executor first and replayed, cost what the
// same warps cost run live as a compute dispatch handing out work in the
// same order: the replay is exact, on every family.
func TestReplayMatchesLiveDispatch(t *testing.T) {
	for _, gpu := range []string{"mali-g52", "adreno-640", "powervr-gx6250", "mali-t760"} {
		for _, mk := range []func(*testing.T, string) *job{streamJob, aluJob} {
			j := mk(t, gpu)
			live, err := timing.New(timing.Config{GPU: j.g, Dispatch: j.dispatch(t), Program: j.low, Occupancy: j.occ, Memory: mem.New(j.g)})
			if err != nil {
				t.Fatal(err)
			}
			lr, err := live.Run()
			if err != nil {
				t.Fatal(err)
			}
			e := timing.NewEngine(j.g, mem.New(j.g))
			if _, err := e.AddShader(j.low.IR.Entry, j.low, j.occ, &list{warps: j.record(t)}); err != nil {
				t.Fatal(err)
			}
			rr, err := e.Run()
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range []string{"cycles", "groups_issued", "machine_ops", "l2_accesses", "dram_read_bytes", "stall_memory_cycles", "warps_launched"} {
				if a, b := lr.Counters.Value(name), rr.Counters.Value(name); a != b {
					t.Errorf("%s %s: %s live %v, replayed %v", gpu, j.low.IR.Entry, name, a, b)
				}
			}
		}
	}
}

// Two kernels on one engine share the cores: together they take longer
// than either alone and less than one after the other (the memory-bound
// one's stalls leave issue slots to the ALU-bound one). Both fill the GPU
// many times over, so that how the last warps spread over the cores does
// not decide the comparison.
func TestKernelsShareTheGPU(t *testing.T) {
	for _, gpu := range []string{"mali-g52", "adreno-640"} {
		s, a := streamJobN(t, gpu, 1<<18), fmaJob(t, gpu, 16384, 1)
		alone := func(j *job) float64 {
			e := timing.NewEngine(j.g, mem.New(j.g))
			if _, err := e.AddCompute(j.dispatch(t), j.low, j.occ); err != nil {
				t.Fatal(err)
			}
			r, err := e.Run()
			if err != nil {
				t.Fatal(err)
			}
			return r.Cycles
		}
		cs, ca := alone(s), alone(a)
		e := timing.NewEngine(s.g, mem.New(s.g))
		if _, err := e.AddCompute(s.dispatch(t), s.low, s.occ); err != nil {
			t.Fatal(err)
		}
		if _, err := e.AddShader("fma8", a.low, a.occ, &list{warps: a.record(t)}); err != nil {
			t.Fatal(err)
		}
		r, err := e.Run()
		if err != nil {
			t.Fatal(err)
		}
		if r.Cycles <= max(cs, ca) || r.Cycles >= cs+ca {
			t.Errorf("%s: stream alone %.0f, fma8 alone %.0f, together %.0f; want between the longer and the sum", gpu, cs, ca, r.Cycles)
		}
		want := float64(s.n+a.n) / float64(s.low.WarpWidth)
		if got := r.Counters.Value("warps_launched"); got != want {
			t.Errorf("%s: %v warps launched, want %v", gpu, got, want)
		}
	}
}

// A source's warps wait for the time it gives, and an event can make
// work appear: nothing issues before the rasteriser (here, time 5000) has
// produced it, and the run ends after the last event's work.
func TestSourceTimesAndEvents(t *testing.T) {
	j := aluJob(t, "mali-g52")
	warps := j.record(t)
	e := timing.NewEngine(j.g, mem.New(j.g))
	src := &list{warps: warps[:len(warps)/2], after: 5000}
	k, err := e.AddShader("fma8", j.low, j.occ, src)
	if err != nil {
		t.Fatal(err)
	}
	var firstDone, lastDone float64 = math.Inf(1), 0
	for _, w := range warps {
		w.Done = func(t float64) { firstDone, lastDone = min(firstDone, t), max(lastDone, t) }
	}
	// The second half arrives at 20000.
	e.At(20000, func(t float64) {
		src.warps = warps
		e.Wake(k, -1, t)
	})
	r, err := e.Run()
	if err != nil {
		t.Fatal(err)
	}
	if firstDone <= 5000 || r.Cycles < lastDone || lastDone <= 20000 {
		t.Errorf("first warp done at %.0f (want after 5000), last at %.0f (want after 20000), run %.0f cycles", firstDone, lastDone, r.Cycles)
	}
	if got := r.Counters.Value("warps_launched"); got != float64(len(warps)) {
		t.Errorf("%v warps launched, want %d", got, len(warps))
	}
}

// The warps of a work-group wait at each barrier for the last of them and
// go on execution.barrier_latency_cycles later: reduce (a barrier after
// each of its eight halving steps, work-groups of 16 G52 warps) gives the
// same sums whatever the latency, and a longer one shows as barrier
// stalls and a longer run.
func TestBarrierHoldsWorkGroup(t *testing.T) {
	run := func(yaml string) (*timing.Result, []uint32) {
		g, err := arch.Parse([]byte("base: mali-g52\n"+yaml), "test.yaml")
		if err != nil {
			t.Fatal(err)
		}
		var out *emu.Buffer
		j := newJobOn(t, g, "reduce", 1024, 128, func(m *emu.Memory) []emu.ParamValue {
			in := m.Alloc(4*1024, "in", true)
			for i := 0; i < 1024; i++ {
				binary.LittleEndian.PutUint32(in.Data[4*i:], uint32(i))
			}
			out = m.Alloc(4*8, "out", false)
			return []emu.ParamValue{{Slots: []uint64{in.Base}}, {Slots: []uint64{out.Base}}, {LocalBytes: 512}, {Slots: []uint64{1000}}}
		})
		e, err := timing.New(timing.Config{GPU: j.g, Dispatch: j.dispatch(t), Program: j.low, Occupancy: j.occ, Memory: mem.New(j.g)})
		if err != nil {
			t.Fatal(err)
		}
		r, err := e.Run()
		if err != nil {
			t.Fatal(err)
		}
		var sums []uint32
		for i := 0; i < 8; i++ {
			sums = append(sums, binary.LittleEndian.Uint32(out.Data[4*i:]))
		}
		return r, sums
	}
	a, sa := run("")
	b, sb := run("execution: {barrier_latency_cycles: 1004}\n")
	for i := range sa {
		want := uint32(0)
		for k := 128 * i; k < min(128*(i+1), 1000); k++ {
			want += uint32(k)
		}
		if sa[i] != want || sb[i] != want {
			t.Errorf("work-group %d: sums %d and %d, want %d", i, sa[i], sb[i], want)
		}
	}
	// A work-group's eight barriers come one after the other.
	if d := b.Cycles - a.Cycles; d < 8*1000 {
		t.Errorf("barrier latency 4 -> 1004: %.0f -> %.0f cycles; want at least 8000 more", a.Cycles, b.Cycles)
	}
	if sa, sb := a.Counters.Value("stall_barrier_cycles"), b.Counters.Value("stall_barrier_cycles"); sb < sa+8*1000 {
		t.Errorf("stall_barrier_cycles %.0f -> %.0f", sa, sb)
	}
}

func emuOptions() ir.Options { return ir.Options{} }
