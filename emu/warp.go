// Package emu executes IR programs functionally, warp by warp: every lane is
// a work-item, lanes of a warp run in lockstep under an active mask, and
// divergent branches reconverge at their immediate post-dominator (a
// reconvergence stack, as SIMT hardware does). It computes what a kernel
// does — values, addresses, branch outcomes — and, when asked, records the
// addresses each memory instruction touched for the timing model. It never
// decides when anything happens.
package emu

import (
	"fmt"
	"io"
	"math/bits"

	"github.com/pocketgpu/pocketgpu/ir"
)

// MaxWidth is the widest warp the executor runs (Adreno's wave128).
const MaxWidth = 128

// Mask is a set of lanes.
type Mask [2]uint64

func (m Mask) Has(l int) bool     { return m[l>>6]&(1<<(uint(l)&63)) != 0 }
func (m *Mask) Set(l int)         { m[l>>6] |= 1 << (uint(l) & 63) }
func (m Mask) And(o Mask) Mask    { return Mask{m[0] & o[0], m[1] & o[1]} }
func (m Mask) AndNot(o Mask) Mask { return Mask{m[0] &^ o[0], m[1] &^ o[1]} }
func (m Mask) Or(o Mask) Mask     { return Mask{m[0] | o[0], m[1] | o[1]} }
func (m Mask) Empty() bool        { return m[0]|m[1] == 0 }
func (m Mask) Count() int         { return bits.OnesCount64(m[0]) + bits.OnesCount64(m[1]) }

// Runs is how many of the runs of n lanes that cover a warp of width lanes
// hold an active lane.
func (m Mask) Runs(width, n int) int {
	if n <= 0 {
		return 0
	}
	runs := 0
	for start := 0; start < width && start < 128; start += n {
		for l := start; l < start+n && l < width && l < 128; l++ {
			if m.Has(l) {
				runs++
				break
			}
		}
	}
	return runs
}

func firstLanes(n int) (m Mask) {
	for i := range m {
		switch k := n - 64*i; {
		case k >= 64:
			m[i] = ^uint64(0)
		case k > 0:
			m[i] = 1<<uint(k) - 1
		}
	}
	return m
}

// Status is what a warp did in one Step.
type Status uint8

const (
	Running   Status = iota // more blocks to run
	AtBarrier               // waiting at a work-group barrier
	Done                    // every lane has finished
	Faulted                 // a GPU fault: see Warp.Err
)

type entry struct {
	block, reconv int32
	mask          Mask
}

// Warp is a group of work-items executing in lockstep. The fields every
// instruction reads come first, then those every block reads, so that a
// warp touches few cache lines; the lane-list buffer, used only under
// divergence, is last.
type Warp struct {
	regs []uint64 // slot-major: slot s, lane l at regs[s*width+l]
	// f32 and f64 view regs as float32 halves and float64s (views.go).
	f32   [][2]float32
	f64   []float64
	width int
	full  bool    // every lane of the warp is active
	lanes []int32 // the active lanes when !full

	d      *Dispatch
	prog   *Program
	xcode  []xinst   // the program's code decoded for the warp's width
	xedges [][]xedge // each block's successors, decoded likewise

	stack []entry
	alive Mask // lanes not yet finished
	// topOK says that top, the stack's last entry, and mask, its lanes
	// still alive (nactive of them), are current: kept from one block to
	// the next while control stays in one entry.
	topOK   bool
	top     *entry
	mask    Mask
	nactive uint64

	// Trace, when non-nil, receives each Step's block and memory accesses.
	Trace *Trace
	// out receives the warp's printf output.
	out io.Writer

	err    error
	recent [4]*Buffer // the global buffers found last, recent[mru] the last (see buffer)
	mru    uint8

	// Counters.
	WarpInsts   uint64
	ThreadInsts uint64
	Blocks      uint64
	// LocalOutOfBounds counts this warp's local accesses out of bounds
	// (Stats.LocalOutOfBounds); oobSite is the lowest one's site plus one,
	// and oob the zeros they read and write.
	LocalOutOfBounds uint64
	oobSite          int32
	oob              []byte

	status Status
	last   int32 // the block the last Step ran
	extPC  int32 // the extended instruction running, for its trace

	start Mask // lanes that exist (a work-group's last warp may be partial)

	priv  []byte // private frames, lane l at l*frame
	frame int

	wg         *WorkGroup
	index      int // warp index within the work-group
	firstLocal int // local linear id of lane 0
	seg        int // packed warp: lanes per work-group (0: one work-group)

	// scratch holds an edge's phi sources while their destinations are
	// written (moves).
	scratch []uint64

	// Killed lanes (fragment discard).
	Killed Mask

	// Tex counts the warp's samples, their levels of detail and the
	// samples that blended two mip levels.
	Tex TexStats
	// texAddrs backs an image instruction's texel addresses.
	texAddrs []uint64

	// copiesSeen counts, per async copy instruction, the times this warp
	// has reached it (see asyncCopy).
	copiesSeen map[*ir.ExtCall]int

	lbuf [MaxWidth]int32 // backs lanes
}

// LastBlock is the block the last Step ran (-1 before the first).
func (w *Warp) LastBlock() int32 { return w.last }

// Width is the number of lanes.
func (w *Warp) Width() int { return w.width }

// Err is the fault that stopped the warp.
func (w *Warp) Err() error { return w.err }

// Status is the warp's state after its last Step.
func (w *Warp) Status() Status { return w.status }

// Index is the warp's position in its work-group.
func (w *Warp) Index() int { return w.index }

// WorkGroup the warp belongs to.
func (w *Warp) WorkGroup() *WorkGroup { return w.wg }

// Lanes is the number of work-items the warp holds.
func (w *Warp) Lanes() int { return w.start.Count() }

// Regs exposes lane l's slots (for graphics stages reading outputs).
func (w *Warp) Reg(slot int32, lane int) uint64 { return w.regs[int(slot)*w.width+lane] }

// GlobalID is lane l's global id; LocalID its id in the work-group.
func (w *Warp) GlobalID(l int) [3]int { return w.globalID(l) }
func (w *Warp) LocalID(l int) [3]int  { return w.localID(l) }

// LocalIndex is lane l's linear index in its work-group.
func (w *Warp) LocalIndex(l int) int { return w.localIndex(l) }

// GroupID is the id of lane l's work-group.
func (w *Warp) GroupID(l int) [3]int { return w.groupID(l) }

// Private returns lane l's frame.
func (w *Warp) Private(lane int) []byte { return w.priv[lane*w.frame : (lane+1)*w.frame] }

func (w *Warp) dst(in *ir.Inst) []uint64 {
	s := int(in.Dst) * w.width
	return w.regs[s : s+int(in.N)*w.width]
}

func (w *Warp) src(in *ir.Inst, k int) []uint64 {
	s := int(in.Src[k]) * w.width
	return w.regs[s : s+int(in.N)*w.width]
}

// slot returns one slot's lanes.
func (w *Warp) slot(s int32) []uint64 {
	o := int(s) * w.width
	return w.regs[o : o+w.width]
}

func (w *Warp) setActive(m Mask) {
	if m == w.allLanes() {
		w.full = true
		w.lanes = w.d.allList
		return
	}
	w.full = false
	n := 0
	for i, word := range m {
		for word != 0 {
			b := bits.TrailingZeros64(word)
			w.lbuf[n] = int32(i*64 + b)
			n++
			word &= word - 1
		}
	}
	w.lanes = w.lbuf[:n]
}

func (w *Warp) allLanes() Mask { return w.d.fullMask }

// Step runs the warp's next block with its active lanes and follows the
// terminator. It returns Running, AtBarrier, Done or Faulted.
func (w *Warp) Step() Status {
	w.d.lastStepped = w
	return w.run(1, &w.d.Stats)
}

// run runs up to n blocks while the warp is Running, counting them in st
// as well as in the warp's own counters, and returns its status.
func (w *Warp) run(n int, st *Stats) (status Status) {
	wi, ti, bl, oob := w.WarpInsts, w.ThreadInsts, w.Blocks, w.LocalOutOfBounds
	defer func() {
		if r := recover(); r != nil {
			w.fail(fmt.Errorf("internal error in the executor (please report it with the kernel): %v", r), nil)
			w.status, status = Faulted, Faulted
		}
		st.WarpInsts += w.WarpInsts - wi
		st.ThreadInsts += w.ThreadInsts - ti
		st.Blocks += w.Blocks - bl
		if w.LocalOutOfBounds != oob {
			st.addOutOfBounds(w.LocalOutOfBounds-oob, w.oobSite)
		}
	}()
	for ; n > 0; n-- {
		if w.status = w.block(); w.status != Running {
			break
		}
	}
	return w.status
}

// block runs the warp's next block and its terminator.
func (w *Warp) block() Status {
	if !w.topOK {
		// Find the stack entry to run and its active lanes (entries whose
		// lanes all finished are done); a block that moves the entry on
		// keeps them for the next (take).
		for {
			if len(w.stack) == 0 {
				return Done
			}
			w.top = &w.stack[len(w.stack)-1]
			w.mask = w.top.mask.And(w.alive)
			if !w.mask.Empty() {
				break
			}
			w.stack = w.stack[:len(w.stack)-1]
		}
		w.setActive(w.mask)
		w.nactive = uint64(w.mask.Count())
		w.topOK = true
	}
	top, m := w.top, w.mask
	if top.block < 0 {
		w.fail(fmt.Errorf("internal: lanes reached a reconvergence placeholder"), nil)
		return Faulted
	}
	w.last = top.block
	b := &w.prog.Blocks[top.block]
	if w.Trace != nil {
		w.Trace.begin(top.block, m)
		if w.seg > 0 {
			w.Trace.seg, w.Trace.span = w.seg, uint64(w.d.localSpan)
		}
	}
	code := w.xcode[b.Start:b.End]
	for i := range code {
		x := &code[i]
		x.run(w, x)
	}
	n := uint64(len(code) + 1)
	w.WarpInsts += n
	w.ThreadInsts += n * w.nactive
	w.Blocks++
	if w.err != nil {
		return Faulted
	}
	return w.terminate(top, b, w.xedges[top.block], m)
}

func (w *Warp) terminate(top *entry, b *ir.Block, es []xedge, m Mask) Status {
	switch b.Term.Kind {
	case ir.TermBranch:
		w.take(top, &es[0], m)
	case ir.TermCond:
		t := w.nonZero(w.slot(b.Term.Cond))
		switch f := m.AndNot(t); {
		case f.Empty():
			w.take(top, &es[0], m)
		case t.Empty():
			w.take(top, &es[1], m)
		default:
			w.diverge(top, b, es, []Mask{t, f})
		}
	case ir.TermSwitch:
		sel := w.slot(b.Term.Cond)
		var buf [8]Mask
		masks := buf[:0]
		if len(b.Succs) > len(buf) {
			masks = make([]Mask, 0, len(b.Succs))
		}
		masks = masks[:len(b.Succs)]
		for _, l := range w.lanes {
			k := 0
			for i, c := range b.Term.Cases {
				if sel[l] == c {
					k = i + 1
					break
				}
			}
			masks[k].Set(int(l))
		}
		w.diverge(top, b, es, masks)
	case ir.TermReturn:
		w.topOK = false
		w.alive = w.alive.AndNot(m)
		if w.alive.Empty() {
			w.stack = w.stack[:0]
			return Done
		}
	case ir.TermKill:
		w.topOK = false
		w.Killed = w.Killed.Or(m)
		w.alive = w.alive.AndNot(m)
		if w.alive.Empty() {
			w.stack = w.stack[:0]
			return Done
		}
	case ir.TermUnreachable:
		w.fail(fmt.Errorf("reached OpUnreachable"), &w.prog.Sites[b.Term.Site])
		return Faulted
	case ir.TermBarrier:
		if w.seg > 0 {
			if !w.packedBarrier(b, m) {
				return Faulted
			}
			w.take(top, &es[0], m)
			return AtBarrier
		}
		if m != w.alive {
			l := 0
			for missing := w.alive.AndNot(m); !missing.Has(l); l++ {
			}
			g := w.globalID(l)
			w.fail(fmt.Errorf("barrier reached by only some work-items: work-item (%d,%d,%d) is on another path (divergent control flow around a barrier)", g[0], g[1], g[2]), &w.prog.Sites[b.Term.Site])
			return Faulted
		}
		w.take(top, &es[0], m)
		return AtBarrier
	}
	if len(w.stack) > w.prog.MaxStack {
		w.fail(fmt.Errorf("internal: reconvergence stack overflow"), nil)
		return Faulted
	}
	return Running
}

// nonZero is the set of active lanes whose word in slot c is not zero.
func (w *Warp) nonZero(c []uint64) (t Mask) {
	if w.full {
		for l, v := range c {
			t[l>>6] |= b2u(v != 0) << (l & 63)
		}
		return t
	}
	for _, l := range w.lanes {
		t[l>>6] |= b2u(c[l] != 0) << (l & 63)
	}
	return t
}

// take moves the lanes in m along e: phi copies, then either the entry
// moves on or, at its reconvergence point, it is done.
func (w *Warp) take(top *entry, e *xedge, m Mask) {
	w.moves(e, m)
	if e.to == top.reconv {
		w.stack = w.stack[:len(w.stack)-1]
		w.topOK = false
		return
	}
	top.block = e.to
}

// diverge splits the active lanes among the successors (masks[i] take
// b.Succs[i]); lanes meet again at the block's immediate post-dominator.
func (w *Warp) diverge(top *entry, b *ir.Block, es []xedge, masks []Mask) {
	w.topOK = false
	taken := -1
	for i, mk := range masks {
		if mk.Empty() {
			continue
		}
		if taken >= 0 {
			taken = -2
			break
		}
		taken = i
	}
	if taken >= 0 {
		w.take(top, &es[taken], masks[taken])
		return
	}
	r := b.IPDom
	reconv := top.reconv
	if r == ir.NoBlock {
		// Some paths only end at the exit (an early return). Lanes on them
		// finish; the others must pass the enclosing entry's reconvergence
		// point on their way out, so they can wait there.
		r = reconv
	}
	if r == reconv {
		// The paths rejoin where this entry already ends: replace it.
		w.stack = w.stack[:len(w.stack)-1]
	} else {
		top.block = r
	}
	for i := len(masks) - 1; i >= 0; i-- {
		mk := masks[i]
		if mk.Empty() {
			continue
		}
		e := &es[i]
		w.moves(e, mk)
		if e.to == r {
			continue // already waiting at the reconvergence point
		}
		w.stack = append(w.stack, entry{block: e.to, reconv: r, mask: mk})
	}
}

// moves performs an edge's phi copies for the lanes in m, as a parallel copy.
func (w *Warp) moves(e *xedge, m Mask) {
	if len(e.moves) == 0 {
		return
	}
	full := m == w.allLanes()
	if e.overlap {
		// Read every source before writing any destination.
		tmp := w.scratch[:0]
		for _, mv := range e.moves {
			tmp = append(tmp, w.regs[mv.src:mv.src+mv.n]...)
		}
		o := 0
		for _, mv := range e.moves {
			w.copyMasked(w.regs[mv.dst:mv.dst+mv.n], tmp[o:o+mv.n], m, full)
			o += mv.n
		}
		w.scratch = tmp
		return
	}
	for _, mv := range e.moves {
		w.copyMasked(w.regs[mv.dst:mv.dst+mv.n], w.regs[mv.src:mv.src+mv.n], m, full)
	}
}

func (w *Warp) copyMasked(dst, src []uint64, m Mask, full bool) {
	if full {
		copy(dst, src)
		return
	}
	W := w.width
	for o := 0; o < len(dst); o += W {
		for i, word := range m {
			for word != 0 {
				l := i*64 + bits.TrailingZeros64(word)
				dst[o+l] = src[o+l]
				word &= word - 1
			}
		}
	}
}

// fail records the first fault.
func (w *Warp) fail(err error, site *ir.Site) {
	if w.err != nil {
		return
	}
	if site != nil {
		err = fmt.Errorf("%w (%s)", err, site)
	}
	w.err = &KernelError{Kernel: w.prog.Entry, Group: w.wg.ID, Err: err}
}

// KernelError is a failure of one kernel run that is not tied to one
// work-item (a divergent barrier, an unreachable block).
type KernelError struct {
	Kernel string
	Group  [3]int
	Err    error
}

func (e *KernelError) Error() string {
	return fmt.Sprintf("kernel %s, work-group (%d,%d,%d): %v", e.Kernel, e.Group[0], e.Group[1], e.Group[2], e.Err)
}

func (e *KernelError) Unwrap() error { return e.Err }

// packedBarrier checks a barrier in a packed warp: every work-group with
// lanes in m must have all its work-items there (its other lanes neither
// on another path nor finished). A work-group whose lanes are all
// elsewhere is not at this barrier; the warp's lockstep orders its
// work-groups' accesses, so the barrier waits for nothing else.
func (w *Warp) packedBarrier(b *ir.Block, m Mask) bool {
	for j := range w.wg.ids {
		var seg Mask
		for l := j * w.seg; l < j*w.seg+w.wg.size; l++ {
			seg.Set(l)
		}
		at := m.And(seg)
		if at.Empty() {
			continue
		}
		why := ""
		missing := w.alive.And(seg).AndNot(at)
		if missing.Empty() {
			missing, why = seg.AndNot(w.alive), "finished without reaching it"
		} else {
			why = "is on another path (divergent control flow around a barrier)"
		}
		if missing.Empty() {
			continue
		}
		l := 0
		for !missing.Has(l) {
			l++
		}
		g := w.globalID(l)
		w.fail(fmt.Errorf("barrier reached by only some work-items: work-item (%d,%d,%d) %s", g[0], g[1], g[2], why), &w.prog.Sites[b.Term.Site])
		return false
	}
	return true
}

// member is the work-group of a packed warp lane l belongs to.
func (w *Warp) member(l int) int {
	if w.seg == 0 {
		return 0
	}
	return l / w.seg
}

// localIndex gives lane l's linear index in its work-group.
func (w *Warp) localIndex(l int) int {
	if w.seg > 0 {
		return l % w.seg
	}
	return w.firstLocal + l
}

// groupID gives the id of lane l's work-group.
func (w *Warp) groupID(l int) [3]int {
	if w.seg > 0 {
		return w.wg.ids[min(l/w.seg, len(w.wg.ids)-1)]
	}
	return w.wg.ID
}

// local is lane l's work-group's local memory.
func (w *Warp) local(l int) []byte {
	if w.seg > 0 {
		o := w.member(l) * w.d.localSpan
		return w.wg.Local[o : o+w.d.localBytes]
	}
	return w.wg.Local
}

// localID gives lane l's local id.
func (w *Warp) localID(l int) [3]int {
	ls := w.d.Local
	i := w.localIndex(l)
	return [3]int{i % ls[0], i / ls[0] % ls[1], i / (ls[0] * ls[1])}
}

// globalID gives lane l's global id.
func (w *Warp) globalID(l int) [3]int {
	lid := w.localID(l)
	id := w.groupID(l)
	var g [3]int
	for k := 0; k < 3; k++ {
		g[k] = id[k]*w.d.Local[k] + lid[k] + w.d.Offset[k]
	}
	return g
}
