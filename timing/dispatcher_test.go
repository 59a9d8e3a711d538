package timing

import (
	"math"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/emu"
	"github.com/pocketgpu/pocketgpu/internal/corpus"
	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/isa"
	"github.com/pocketgpu/pocketgpu/isa/families"
	"github.com/pocketgpu/pocketgpu/spirv"
)

// dispatchTest is a dispatcher over a hand-built GPU of two cores of two
// engines, recording what it asks of the engine: the units it starts and
// the events it schedules (run them with runEvents).
type dispatchTest struct {
	d       *dispatcher
	started []*wgState
	events  []event
}

func newDispatchTest() *dispatchTest {
	g := &arch.GPU{Cores: 2, EnginesPerCore: 2, MaxWarpsPerEngine: 4}
	dt := &dispatchTest{}
	dt.d = &dispatcher{cores: newCores(g), places: 8,
		at:    func(t float64, f func(float64)) { dt.events = append(dt.events, event{t: t, f: f}) },
		start: func(ws *wgState, t float64) { dt.started = append(dt.started, ws) },
	}
	return dt
}

func (dt *dispatchTest) runEvents() {
	evs := dt.events
	dt.events = nil
	for _, ev := range evs {
		ev.f(ev.t)
	}
}

// cores lists the core of each unit started, in order.
func (dt *dispatchTest) cores() []int {
	var out []int
	for _, ws := range dt.started {
		out = append(out, ws.core.id)
	}
	return out
}

// finishAll retires every warp of unit ws at end, as the engine does.
func (dt *dispatchTest) finishAll(ws *wgState, end float64) {
	for range ws.warps {
		ws.core.leave(end)
	}
	dt.d.retire(ws, end)
}

// warpList is a Source of n one-block warps that can wait: until after,
// it has none and says when to ask again.
type warpList struct {
	n, given int
	after    float64
	asked    int
}

func (l *warpList) Next(c int, t float64) (*ReplayWarp, float64) {
	l.asked++
	if t < l.after {
		return nil, l.after
	}
	if l.given == l.n {
		return nil, math.Inf(1)
	}
	l.given++
	return &ReplayWarp{Blocks: make([]emu.Trace, 1)}, 0
}

func shaderKernel(d *dispatcher, name string, perCore int, src Source) *Kernel {
	k := &Kernel{Name: name, src: src, prog: &isa.Program{IR: &ir.Program{Regs: 3}}}
	d.admitShader(k, arch.Occupancy{ResidentWarpsPerCore: perCore})
	d.kernels = append(d.kernels, k)
	return k
}

// Units go to the cores in turn while they fit their share of a core;
// within a core, each warp goes to the least loaded engine.
func TestDispatcherFillsByShare(t *testing.T) {
	dt := newDispatchTest()
	k := shaderKernel(dt.d, "a", 3, &warpList{n: 10})
	dt.d.distribute(0)
	if got, want := dt.cores(), []int{0, 1, 0, 1, 0, 1}; !equalInts(got, want) {
		t.Fatalf("units started on cores %v, want %v (three a core)", got, want)
	}
	c := dt.d.cores[0]
	if len(c.engines[0].sched.warps) != 2 || len(c.engines[1].sched.warps) != 1 {
		t.Errorf("engines hold %d and %d warps, want 2 and 1", len(c.engines[0].sched.warps), len(c.engines[1].sched.warps))
	}
	if k.resident != 6 || math.Abs(c.load-1) > 1e-9 {
		t.Errorf("%d resident, core load %v", k.resident, c.load)
	}
	for i, ws := range c.wgs {
		w := ws.warps[0]
		if w.rp == nil || w.k != k || len(w.slots) != 3 || w.scratch != i {
			t.Errorf("warp %d: replay %v, %d slots, scratch %d", i, w.rp != nil, len(w.slots), w.scratch)
		}
	}
	// A retired unit's place goes to the next unit, on the same core.
	dt.started = nil
	dt.finishAll(c.wgs[1], 100)
	if got := dt.cores(); !equalInts(got, []int{0}) || k.done != 1 || k.resident != 6 {
		t.Errorf("after a retirement: started on %v, %d done, %d resident", got, k.done, k.resident)
	}
	if len(dt.d.pool) != 0 {
		t.Errorf("the retired warp was not reused: %d pooled", len(dt.d.pool))
	}
}

// The first kernel with work that fits launches; a kernel with a larger
// share waits for room, a gated one launches nothing, and a source that
// has nothing yet is asked again when it said, not before.
func TestDispatcherKernelsShareCores(t *testing.T) {
	dt := newDispatchTest()
	src := &warpList{n: 4, after: 50}
	late := shaderKernel(dt.d, "late", 4, src)
	big := shaderKernel(dt.d, "big", 2, &warpList{n: 8})
	gated := shaderKernel(dt.d, "gated", 4, &warpList{n: 8})
	gated.Gate()
	dt.d.distribute(0)
	if got := dt.cores(); !equalInts(got, []int{0, 1, 0, 1}) || big.resident != 4 || gated.resident != 0 {
		t.Fatalf("started on %v: %d big, %d gated", got, big.resident, gated.resident)
	}
	if src.asked != 2 || len(dt.events) != 2 || dt.events[0].t != 50 {
		t.Fatalf("late's source asked %d times, %d retries scheduled (%v)", src.asked, len(dt.events), dt.events)
	}
	// Full cores: late is not asked again until its retry.
	dt.d.fill(dt.d.cores[0], 10)
	if src.asked != 2 {
		t.Errorf("asked again before its time (%d)", src.asked)
	}
	dt.started = nil
	dt.runEvents() // at 50: no room yet, so nothing launches
	if late.resident != 0 || len(dt.started) != 0 {
		t.Errorf("late launched %d without room", late.resident)
	}
	// A big unit retires: half a core is free, two of late's quarters fit.
	dt.finishAll(dt.d.cores[1].wgs[0], 60)
	if late.resident != 2 || big.resident != 3 {
		t.Errorf("after big retired on core 1: %d late, %d big resident; want 2 and 3", late.resident, big.resident)
	}
}

// A GPU-wide limit holds units back even where a core has room; a
// retirement lets the next unit in, on the retiring core first.
func TestDispatcherGPULimit(t *testing.T) {
	dt := newDispatchTest()
	k := shaderKernel(dt.d, "limited", 4, &warpList{n: 10})
	k.maxGPU = 3
	dt.d.distribute(0)
	if got := dt.cores(); !equalInts(got, []int{0, 1, 0}) {
		t.Fatalf("started on %v, want 3 units in all", got)
	}
	dt.started = nil
	dt.finishAll(dt.d.cores[1].wgs[0], 20)
	if got := dt.cores(); !equalInts(got, []int{1}) || k.resident != 3 {
		t.Errorf("after a retirement on core 1: started on %v, %d resident", got, k.resident)
	}
}

// A core's counts: warps launched, resident warps integrated over time,
// the peak, and the time from its first launch to its last warp's end.
func TestCoreCounts(t *testing.T) {
	c := newCores(&arch.GPU{Cores: 1, EnginesPerCore: 1})[0]
	c.residentChange(5, 2)
	c.residentChange(15, 1)
	c.leave(25)
	c.leave(35)
	want := CoreCounts{ResidentArea: 2*10 + 3*10 + 2*10 + 1*5, ActiveCycles: 35 - 5, PeakResident: 3}
	if got := c.snapshot(40); got != want {
		t.Errorf("snapshot at 40: %+v, want %+v", got, want)
	}
	if c.counts.ResidentArea != 2*10+3*10+2*10 {
		t.Errorf("a snapshot changed the counts: %+v", c.counts)
	}
	idle := newCores(&arch.GPU{Cores: 1, EnginesPerCore: 1})[0]
	if got := idle.snapshot(100); got != (CoreCounts{}) {
		t.Errorf("an idle core: %+v", got)
	}
}

// A compute dispatch's units take the core's first free work-group slot
// (where its local memory and scratch sit); when its last unit retires the
// kernel's OnDone is scheduled then.
func TestDispatcherComputeSlots(t *testing.T) {
	dt := newDispatchTest()
	d, low := vecadd(t, 6*8)
	k := &Kernel{Name: "vecadd", d: d, total: d.Tasks(), prog: low}
	if perCore := dt.d.admitCompute(k, arch.Occupancy{WorkgroupsPerCore: 2}, d.Packed()); perCore != 2 || k.maxGPU != 4 {
		t.Fatalf("%d a core, %d GPU-wide; want 2 and 4", perCore, k.maxGPU)
	}
	var done []float64
	k.OnDone = func(t float64) { done = append(done, t) }
	dt.d.kernels = append(dt.d.kernels, k)
	dt.d.distribute(0)
	var slots []int
	for _, ws := range dt.started {
		slots = append(slots, ws.slot)
	}
	if !equalInts(slots, []int{0, 0, 1, 1}) || !equalInts(dt.cores(), []int{0, 1, 0, 1}) {
		t.Fatalf("units on cores %v in slots %v", dt.cores(), slots)
	}
	first := dt.started[0]
	dt.finishAll(first, 10) // core 0 slot 0 frees: the next unit takes it
	if next := dt.started[4]; next.core != first.core || next.slot != 0 || next.wg.Index != 4 {
		t.Errorf("the next unit went to core %d slot %d (work-group %d)", next.core.id, next.slot, next.wg.Index)
	}
	for i := 1; i < len(dt.started); i++ { // retirements start more
		dt.finishAll(dt.started[i], 20)
	}
	if k.done != 6 || k.groupsDone != 6 || k.resident != 0 || len(dt.events) != 1 || dt.events[0].t != 20 {
		t.Fatalf("%d of 6 done (%d groups), %d resident, events %v", k.done, k.groupsDone, k.resident, dt.events)
	}
	dt.runEvents()
	if len(done) != 1 || done[0] != 20 || k.unfinished() != nil {
		t.Errorf("OnDone at %v; unfinished: %v", done, k.unfinished())
	}
}

// vecadd is an initialised dispatch of the corpus vecadd over n work-items
// in work-groups of one mali-g52 warp (8), and its lowering.
func vecadd(t *testing.T, n int) (*emu.Dispatch, *isa.Program) {
	t.Helper()
	g, err := arch.Lookup("mali-g52")
	if err != nil {
		t.Fatal(err)
	}
	c, _ := corpus.Lookup("vecadd")
	m, err := spirv.Decode(c.SPIRV)
	if err != nil {
		t.Fatal(err)
	}
	p, err := emu.Load(m, c.Entry, ir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	low, err := families.Lower(p.Program, g, 0)
	if err != nil {
		t.Fatal(err)
	}
	mem := emu.NewMemory()
	buf := func() emu.ParamValue { return emu.ParamValue{Slots: []uint64{mem.Alloc(4*n, "", false).Base}} }
	d := &emu.Dispatch{Prog: p, Mem: mem, Width: low.WarpWidth, Dims: 1, Global: [3]int{n, 1, 1}, Local: [3]int{low.WarpWidth, 1, 1},
		Params: []emu.ParamValue{buf(), buf(), buf(), {Slots: []uint64{uint64(n)}}}, MaxWarpInsts: emu.Unlimited}
	if err := d.Init(); err != nil {
		t.Fatal(err)
	}
	return d, low
}
