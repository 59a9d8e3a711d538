package timing

import "github.com/pocketgpu/pocketgpu/emu"

// ReplayWarp is a warp the executor has already run: the blocks it
// executed, with their active lanes and memory accesses, in order. The
// engine issues their groups and sends the accesses through the memory
// hierarchy as it would for a live warp.
type ReplayWarp struct {
	Blocks []emu.Trace
	// Start is when the warp may issue its first group (≥ the time Next
	// returned it).
	Start float64
	// Launch, when set, is called when the warp is given a core at t; it
	// returns when the warp's inputs are there (a vertex fetch), which
	// its first group waits for.
	Launch func(t float64) float64
	// Retire, when set, is asked when the warp has issued its last group
	// and its stores are complete (end): the warp stays resident until
	// the time it returns (≥ end) — its outputs wait for a fixed-function
	// unit, a blender, to take them — so a slow unit holds warp slots.
	Retire func(end float64) float64
	// Done, when set, is called with the time the warp retires.
	Done func(t float64)
}

// Record copies a live trace (the executor reuses its slices) onto the
// warp's blocks.
func (r *ReplayWarp) Record(tr *emu.Trace) {
	c := emu.Trace{Block: tr.Block, Active: tr.Active}
	c.Accesses = append([]emu.Access(nil), tr.Accesses...)
	c.Addrs = append([]uint64(nil), tr.Addrs...)
	r.Blocks = append(r.Blocks, c)
}

// step fills tr with recorded block i; the status is what follows it.
func (r *ReplayWarp) step(tr *emu.Trace, i int) emu.Status {
	b := &r.Blocks[i]
	tr.Block, tr.Active = b.Block, b.Active
	tr.Accesses = append(tr.Accesses[:0], b.Accesses...)
	tr.Addrs = append(tr.Addrs[:0], b.Addrs...)
	if i == len(r.Blocks)-1 {
		return emu.Done
	}
	return emu.Running
}
