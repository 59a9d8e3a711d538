package timing

import "github.com/pocketgpu/pocketgpu/emu"

// issuer is an engine's issue port and its pipes, each a server with a
// next-free time. A group keeps the port busy for its issue cycles and each
// pipe it uses for that pipe's cycles at the kernel's warp width (less the
// passes with no active lane, on a GPU that skips them); its results can
// be read its latency after issue, which is what the warp's later groups
// wait for (inputsReady).
type issuer struct {
	portFree float64   // the issue port is next free
	pipeFree []float64 // per pipe: next free
	counts   IssueCounts
}

// MaxPipes is the most execution pipes an engine may have: a group's pipes
// are a 32-bit mask in the ready queue.
const MaxPipes = 32

// IssueCounts are what an engine's issuer did.
type IssueCounts struct {
	Groups      float64           // groups issued
	Ops         float64           // machine operations in them
	IssueCycles float64           // cycles the issue port was busy
	PipeBusy    [MaxPipes]float64 // busy cycles per pipe (index into the kernels' Pipes)
}

// issue starts group gp of warp w at t: the port and the group's pipes
// are busy from t, and the slots it writes are ready its latency later.
// Its memory instructions go to the memory unit; count books it after
// them.
func (is *issuer) issue(w *warpState, gp *groupPlan, t float64) {
	is.portFree = t + gp.issue
	for _, u := range gp.pipes {
		c := u.cycles - u.passes*w.idle
		is.pipeFree[u.pipe] = max(is.pipeFree[u.pipe], t) + c
		is.counts.PipeBusy[u.pipe] += c
	}
	lat := t + gp.latency
	for _, s := range gp.writes {
		w.slots[s] = slotReady{lat, StallDependency}
	}
}

// count books an issued group. It comes after the group's memory
// instructions, which may have held the port for an item copy's extra
// instructions (occupy): the issue cycles add up in that order.
func (is *issuer) count(gp *groupPlan) {
	is.counts.Groups++
	is.counts.IssueCycles += gp.issue
	is.counts.Ops += float64(gp.g.Ops)
}

// occupy holds the port for n cycles from from, or from when it is next
// free if that is later, and returns when that starts: instructions the
// engine issues beyond the lowered groups (an item copy's rounds).
func (is *issuer) occupy(from, n float64) float64 {
	start := max(from, is.portFree)
	is.portFree = start + n
	is.counts.IssueCycles += n
	return start
}

// inputsReady is when group gp of warp w has its inputs — the slots it
// reads, and the warp itself (w.readyAt: its last issue, a fetch, a
// barrier) — and what the latest of them waits for.
func inputsReady(w *warpState, gp *groupPlan) (float64, Cause) {
	s, why := w.readyAt, w.why
	for _, r := range gp.reads {
		if x := w.slots[r]; x.at > s {
			s, why = x.at, x.why
		}
	}
	return s, why
}

// idleShare is the share of a warp's passes, of passLanes lanes each, in
// which no lane of active is set: what a GPU that skips idle passes
// (execution.skips_idle_passes) takes off the pipe cycles of operations
// that run in passes (isa.Group.Passes) while the warp runs that block.
func idleShare(active emu.Mask, width, passLanes int) float64 {
	all := (width + passLanes - 1) / passLanes
	return float64(all-active.Runs(width, passLanes)) / float64(all)
}
