package emu

import (
	"fmt"
	"io"
	"iter"

	"github.com/pocketgpu/pocketgpu/ir"
)

// WorkGroup is a work-group's warps and local memory: the unit the
// engine places on a core. With packing (Dispatch.Pack) it is one warp
// holding Groups consecutive work-groups, from work-group Index (ID) on,
// each with its own window of Local.
type WorkGroup struct {
	ID    [3]int
	Index int
	Local []byte
	Warps []*Warp
	// Groups is how many work-groups it holds (1 unless packed).
	Groups int
	size   int      // work-items per work-group it holds
	ids    [][3]int // with packing: each work-group's id
	// copies counts, per async copy instruction, the times the work-group
	// has performed it (see asyncCopy).
	copies map[*ir.ExtCall]int
	// lead is 1 + the warp that goes first after the barrier the
	// work-group passed last (0: none passed yet; see Round).
	lead int
}

// Round is the order in which the work-group's warps run (index and
// warp): the order of their age until a barrier, and after each barrier
// the youngest warp that waited at it first, then the others by age. A
// work-group's warps are made in order, so the youngest is the last to
// reach a barrier that they all reach, the one whose arrival opens it and
// that the scheduler still holds when it opens; the others are woken
// after it. Work-items of one warp thus do a work-group's local atomics
// together and warps take turns (ArchProbe's warp-size method sees the
// warp boundary in the order of atomic_inc results), the same order in a
// functional run and a timed one whatever the host threads (the engine
// releases a barrier in this order too: timing.Engine.tryRelease).
func (wg *WorkGroup) Round() iter.Seq2[int, *Warp] {
	return func(yield func(int, *Warp) bool) {
		for j := range LeadFirst(len(wg.Warps), wg.lead-1) {
			if !yield(j, wg.Warps[j]) {
				return
			}
		}
	}
}

// LeadFirst yields 0 .. n-1 with lead first when it is one of them: the
// order of Round, which the engine's barrier release shares.
func LeadFirst(n, lead int) iter.Seq[int] {
	return func(yield func(int) bool) {
		if lead >= 0 && lead < n && !yield(lead) {
			return
		}
		for j := range n {
			if j != lead && !yield(j) {
				return
			}
		}
	}
}

// host is what one goroutine runs a dispatch's work with: its pool of
// warps, the stats it counts them in and where their printf output goes.
// The dispatch's own serves its caller (the timing engine, a windowed
// run); each worker of a parallel run has one (parallel.go).
type host struct {
	pool   []*Warp
	stats  *Stats
	printf io.Writer
	// reuse has the host keep its finished work-groups for its next tasks
	// in groups (a worker's: nobody else holds them).
	reuse  bool
	groups []*WorkGroup
}

// group gives a work-group to fill for a task of nwarps warps and
// localBytes of local memory, zeroed: one the host finished, or a new one.
func (h *host) group(nwarps, localBytes int) *WorkGroup {
	k := len(h.groups)
	if k == 0 {
		return &WorkGroup{Local: make([]byte, localBytes), Warps: make([]*Warp, 0, nwarps)}
	}
	wg := h.groups[k-1]
	h.groups = h.groups[:k-1]
	local := wg.Local
	if cap(local) < localBytes {
		local = make([]byte, localBytes)
	}
	local = local[:localBytes]
	clear(local)
	*wg = WorkGroup{Local: local, Warps: wg.Warps[:0]}
	return wg
}

// NewWorkGroup creates work-group i (in linear order, x fastest).
func (d *Dispatch) NewWorkGroup(i int) *WorkGroup { return d.NewPartialWorkGroup(i, d.wgSize) }

// NewPartialWorkGroup creates work-group i holding only its first n
// work-items (1 to the work-group size): a graphics batch that does not
// fill its warp (the remaining lanes do not exist, as in hardware).
func (d *Dispatch) NewPartialWorkGroup(i, n int) *WorkGroup {
	return d.newGroup(d.own(), i, n)
}

func (d *Dispatch) newGroup(h *host, i, n int) *WorkGroup {
	n = min(max(n, 1), d.wgSize)
	nwarps := (n + d.Width - 1) / d.Width
	wg := h.group(nwarps, d.localBytes)
	wg.ID, wg.Index, wg.Groups, wg.size = d.groupID(i), i, 1, n
	for k := 0; k < nwarps; k++ {
		w := d.newWarp(h)
		w.reset(wg, k)
		wg.Warps = append(wg.Warps, w)
	}
	h.stats.WorkGroups++
	h.stats.Warps += uint64(len(wg.Warps))
	return wg
}

func (d *Dispatch) groupID(i int) [3]int {
	g := d.groups
	return [3]int{i % g[0], i / g[0] % g[1], i / (g[0] * g[1])}
}

// NewTask creates unit i of the dispatch (0 to Tasks()-1): work-group i,
// or with packing the warp holding work-groups i×Pack on.
func (d *Dispatch) NewTask(i int) *WorkGroup { return d.newTask(d.own(), i) }

func (d *Dispatch) newTask(h *host, i int) *WorkGroup {
	if d.pack <= 1 {
		return d.newGroup(h, i, d.wgSize)
	}
	first := i * d.pack
	n := min(d.pack, d.NumGroups()-first)
	wg := h.group(1, n*d.localSpan)
	wg.ID, wg.Index, wg.Groups, wg.size = d.groupID(first), first, n, d.wgSize
	for j := 0; j < n; j++ {
		wg.ids = append(wg.ids, d.groupID(first+j))
	}
	w := d.newWarp(h)
	w.reset(wg, 0)
	wg.Warps = append(wg.Warps, w)
	h.stats.WorkGroups += uint64(n)
	h.stats.Warps++
	return wg
}

// Release returns a finished work-group's warps to the pool.
func (d *Dispatch) Release(wg *WorkGroup) {
	if d.WarpDone != nil {
		for _, w := range wg.Warps {
			d.WarpDone(w)
		}
	}
	d.release(d.own(), wg)
}

func (d *Dispatch) release(h *host, wg *WorkGroup) {
	h.pool = append(h.pool, wg.Warps...)
	if h.reuse {
		wg.Warps = wg.Warps[:0]
		h.groups = append(h.groups, wg)
		return
	}
	wg.Warps = nil
}

// own is the host of the dispatch's caller.
func (d *Dispatch) own() *host {
	d.self.stats, d.self.printf = &d.Stats, d.Printf
	return &d.self
}

func (d *Dispatch) newWarp(h *host) *Warp {
	if n := len(h.pool); n > 0 {
		w := h.pool[n-1]
		h.pool = h.pool[:n-1]
		w.out = h.printf
		return w
	}
	p := d.Prog
	W := d.Width
	frame := (p.PrivateBytes + 7) &^ 7
	w := &Warp{d: d, prog: p, xcode: d.code, xedges: d.edges, width: W, out: h.printf,
		frame: frame, priv: make([]byte, frame*W), stack: make([]entry, 0, 8)}
	w.setRegs(make([]uint64, max(p.Regs, 1)*W))
	for _, c := range p.Consts {
		s := w.slot(c.Slot)
		for l := range s {
			s[l] = c.Value
		}
	}
	for _, c := range d.uniforms {
		s := w.slot(c.Slot)
		for l := range s {
			s[l] = c.Value
		}
	}
	return w
}

func (w *Warp) reset(wg *WorkGroup, index int) {
	d := w.d
	w.wg, w.index = wg, index
	w.firstLocal = index * w.width
	n := min(w.width, wg.size-w.firstLocal)
	w.start = firstLanes(n)
	w.seg = 0
	if wg.ids != nil {
		// Packed: work-group j's work-items in lanes j×seg on.
		w.seg = w.width / d.pack
		w.start = Mask{}
		for j := range wg.ids {
			for l := 0; l < wg.size; l++ {
				w.start.Set(j*w.seg + l)
			}
		}
		n = w.width
	}
	w.alive = w.start
	w.Killed = Mask{}
	w.Trace = nil // the stepper sets its own
	clear(w.copiesSeen)
	w.err = nil
	w.recent, w.mru = [4]*Buffer{}, 0
	w.status = Running
	w.stack = append(w.stack[:0], entry{block: 0, reconv: ir.NoBlock, mask: w.start})
	w.topOK = false
	w.WarpInsts, w.ThreadInsts, w.Blocks = 0, 0, 0
	w.LocalOutOfBounds, w.oobSite = 0, 0
	w.Tex = TexStats{}
	w.last = -1
	p := w.prog
	if w.frame > 0 {
		for l := 0; l < w.width; l++ {
			f := w.priv[l*w.frame : (l+1)*w.frame]
			n := copy(f, p.PrivateInit)
			clear(f[n:])
		}
		for i, par := range p.Params {
			if par.ByValOffset >= 0 {
				for l := 0; l < w.width; l++ {
					copy(w.priv[l*w.frame+par.ByValOffset:], d.Params[i].ByVal)
				}
			}
		}
	}
	if d.InitLane != nil {
		for l := 0; l < n; l++ {
			if !w.start.Has(l) {
				continue
			}
			d.InitLane(w, l, w.priv[l*w.frame:(l+1)*w.frame])
		}
	}
	if len(p.Builtins) > 0 {
		w.fillBuiltins()
	}
}

// Sync settles a work-group after its warps ran: it reports whether all
// warps are done, releases a barrier every warp has reached, and fails when
// a barrier can never be passed because some work-items returned.
func (wg *WorkGroup) Sync() (done bool, err error) {
	waiting, finished := 0, 0
	for _, w := range wg.Warps {
		switch w.status {
		case Done:
			finished++
		case AtBarrier:
			waiting++
		case Faulted:
			return false, w.err
		}
	}
	if finished == len(wg.Warps) {
		return true, nil
	}
	if waiting+finished < len(wg.Warps) || waiting == 0 {
		return false, nil
	}
	// A packed warp's work-groups were checked at the barrier (terminate).
	for _, w := range wg.Warps {
		if w.seg > 0 {
			break
		}
		if gone := w.start.AndNot(w.alive); !gone.Empty() {
			l := 0
			for !gone.Has(l) {
				l++
			}
			g := w.globalID(l)
			return false, &KernelError{Kernel: w.prog.Entry, Group: wg.ID,
				Err: fmt.Errorf("barrier reached by only some work-items: work-item (%d,%d,%d) finished without reaching it", g[0], g[1], g[2])}
		}
	}
	for j, w := range wg.Warps {
		if w.status == AtBarrier {
			wg.lead = j + 1 // the youngest that waited goes first (Round)
		}
		w.status = Running
	}
	return false, nil
}
