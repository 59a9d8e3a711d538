package timing

import (
	"fmt"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/emu"
	"github.com/pocketgpu/pocketgpu/isa"
)

// Kernel is one program whose warps the engine runs: a compute dispatch,
// whose work-groups go to the cores as they fit, or a graphics shader,
// whose warps (already run by the executor) a Source hands out core by
// core. Kernels added to one engine share its cores: a core's resident
// work is measured in shares of the core (load), so a shader's warps and a
// dispatch's work-groups can sit side by side.
type Kernel struct {
	Name string
	prog *isa.Program
	// plans are the program's groups as the issue loop reads them.
	plans [][]groupPlan
	occ   arch.Occupancy
	// codeBase places the program's code apart from the other kernels' in
	// the instruction caches.
	codeBase  int32
	burstCopy bool
	// itemCopy: async copies are done by the work-items (memUnit), in
	// rounds of copyChunk elements, an instruction of instIssue cycles per
	// copyBurst bytes of an element.
	itemCopy  bool
	copyChunk int
	copyBurst int
	instIssue float64
	// passLanes: the GPU skips a pass of this many lanes in which no lane
	// is active (execution.skips_idle_passes); 0 where it skips none.
	passLanes int

	// The dispatcher's: share is the part of a core one resident
	// work-group (a shader warp) takes; maxGPU caps the work-groups
	// resident GPU-wide (dispatcher.admitCompute, admitShader).
	share  float64
	maxGPU int
	// span is how many cores of a cluster one work-group spreads over
	// (Occupancy.CoresPerWorkgroup; 1: one core).
	span     int
	resident int
	done     int

	// A compute dispatch.
	d           *emu.Dispatch
	next, total int       // units (work-groups, or packed warps: d.Tasks)
	groupsDone  int       // work-groups finished
	freeSlot    [][]bool  // per core: the dispatch's work-group slots (local memory windows)
	win         windows   // where its local and spill areas sit (windows.go)
	sampling    *sampling // fast-forwards it once steady (sampling.go), or nil
	ahead       *producer // runs its tasks ahead of the engine (ahead.go), or nil

	// A shader.
	src     Source
	pending []bool // per core: Next said nothing now; a wake will ask again

	// Counters of a shader's warps (a dispatch counts its own in d.Stats).
	warpInsts, threadInsts uint64
	warps                  uint64
	// heldCycles are warp-cycles warps stayed resident after their last
	// group, waiting for Retire.
	heldCycles float64
	// gated: the kernel launches nothing until Release (a command
	// processor starts it); OnDone is called when its last work-group of a
	// dispatch retires.
	gated  bool
	OnDone func(t float64)
	// Start and End are when the kernel's first work launched and its
	// last work retired.
	Start, End float64
	started    bool
	// blockLanes are the active lanes summed over each block's runs
	// (operations by class, ops.go).
	blockLanes []uint64
}

// Gate keeps the kernel from launching anything until Release.
func (k *Kernel) Gate() { k.gated = true }

// Release lets a gated kernel launch work from time t on.
func (e *Engine) Release(k *Kernel, t float64) {
	k.gated = false
	for _, co := range e.cores {
		co := co
		e.At(t, func(t float64) { e.disp.fill(co, t) })
	}
}

// Warps is how many of the shader's warps have launched.
func (k *Kernel) Warps() uint64 { return k.warps }

// HeldCycles are the warp-cycles the shader's warps waited, finished,
// for Retire (a blender taking their outputs).
func (k *Kernel) HeldCycles() float64 { return k.heldCycles }

// counts is what k's warps have done so far.
func (k *Kernel) counts() KernelCounts {
	c := KernelCounts{Warps: float64(k.warps), HeldCycles: k.heldCycles, ThreadOps: k.threadOps()}
	if k.d != nil {
		c.WarpInsts, c.ThreadInsts = float64(k.d.Stats.WarpInsts), float64(k.d.Stats.ThreadInsts)
		c.WorkgroupsDone = float64(k.groupsDone)
	} else {
		c.WarpInsts, c.ThreadInsts = float64(k.warpInsts), float64(k.threadInsts)
		c.WorkgroupsDone = float64(k.done)
	}
	return c
}

// Source hands out a shader kernel's warps.
type Source interface {
	// Next returns the next warp for core c, asked at time t when the
	// core has room. A warp whose inputs are not ready until later (its
	// quads not yet rasterised) is not returned: Next returns nil and the
	// time to ask again (math.Inf(1): not until Engine.Wake).
	Next(c int, t float64) (w *ReplayWarp, retry float64)
}

func (e *Engine) addKernel(k *Kernel, p *isa.Program, occ arch.Occupancy) error {
	if len(p.Pipes) > MaxPipes {
		return fmt.Errorf("internal: %d pipes; the engine tracks at most %d", len(p.Pipes), MaxPipes)
	}
	if p.GPU != nil && len(p.Pipes) != len(e.g.Pipes) {
		return fmt.Errorf("internal: kernel %s has %d pipes, the GPU %d", k.Name, len(p.Pipes), len(e.g.Pipes))
	}
	k.prog, k.occ = p, occ
	k.plans = makePlans(p)
	k.passLanes = e.g.PassLanes(p.WarpWidth)
	for _, o := range e.disp.kernels {
		// Programs follow each other in code memory, line-aligned.
		k.codeBase = max(k.codeBase, o.codeBase+int32(o.prog.CodeBytes+255)&^255)
	}
	if len(e.disp.kernels) == 0 {
		n := len(p.Pipes)
		for _, en := range e.eng {
			en.issuer.pipeFree = make([]float64, n)
		}
	}
	// A heap can pay for itself only with many resident warps an engine.
	if occ.ResidentWarpsPerEngine > 24 {
		for _, en := range e.eng {
			en.sched.ready.adapt = true
		}
	}
	e.disp.kernels = append(e.disp.kernels, k)
	return nil
}

// AddCompute adds a compute dispatch (initialised, not yet run) of program
// p with the residency occ the GPU's rules allow it.
func (e *Engine) AddCompute(d *emu.Dispatch, p *isa.Program, occ arch.Occupancy) (*Kernel, error) {
	// The unit placed on a core is a work-group, or a warp of Packed()
	// work-groups (a Rogue task holding several small ones).
	k := &Kernel{Name: p.IR.Entry, d: d, total: d.Tasks()}
	pack := d.Packed()
	perCore := e.disp.admitCompute(k, occ, pack)
	// async_work_group_copy moves as one bulk transfer, unless the GPU
	// has a burst path (async_copy: Rogue's, seed 003 §System Memory
	// Access), which takes it only when the work-group has at least
	// async_copy.min_workgroup work-items fixed at compile time.
	k.burstCopy = true
	if g := e.g; g.AsyncCopy != nil {
		ip := p.IR
		wg := ip.LocalSize[0] * ip.LocalSize[1] * ip.LocalSize[2]
		k.burstCopy = ip.LocalSizeFixed && wg >= g.AsyncCopy.MinWorkgroup
		// Without the burst path the work-items copy (itemCopy), an
		// instruction per burst of an element for each round.
		k.itemCopy = !k.burstCopy
		k.copyBurst = g.AsyncCopy.Bytes
		if g.L1 != nil && g.L1.BurstBytes > 0 {
			k.copyBurst = g.L1.BurstBytes // an element's load and store go in these
		}
		k.instIssue = float64(max(1, (d.Width+g.LanesPerEngine-1)/g.LanesPerEngine))
		k.copyChunk = max(min(d.WorkGroupSize(), d.Width), 1) // a work-item an element
	}
	if err := e.addKernel(k, p, occ); err != nil {
		return k, err
	}
	// A packed task is one warp.
	warps := d.WarpsPerGroup()
	if pack > 1 {
		warps = 1
	}
	e.layWindows(k, perCore, warps, d.TaskLocalBytes())
	return k, nil
}

// AddShader adds a graphics shader of program p whose warps src hands
// out; occ is its residency (ResidentWarpsPerCore warps share a core).
func (e *Engine) AddShader(name string, p *isa.Program, occ arch.Occupancy, src Source) (*Kernel, error) {
	k := &Kernel{Name: name, src: src}
	e.disp.admitShader(k, occ)
	if err := e.addKernel(k, p, occ); err != nil {
		return k, err
	}
	// A shader warp's scratch is its resident-warp place on the core
	// (place): one slot of every place.
	e.layWindows(k, 1, e.disp.places, 0)
	return k, nil
}

// Wake tells the engine a shader kernel has new work for core c (every
// core when c < 0) from time t on.
func (e *Engine) Wake(k *Kernel, c int, t float64) {
	for _, co := range e.cores {
		if c >= 0 && co.id != c {
			continue
		}
		k.pending[co.id] = false
		e.At(t, func(t float64) { e.disp.fill(co, t) })
	}
}

// unfinished reports a kernel whose work did not all run.
func (k *Kernel) unfinished() error {
	if k.d != nil && k.done != k.total {
		return fmt.Errorf("internal: %d of %d work-groups of %s finished", k.done, k.total, k.Name)
	}
	if k.resident != 0 {
		return fmt.Errorf("internal: %d warps of %s still resident", k.resident, k.Name)
	}
	return nil
}
