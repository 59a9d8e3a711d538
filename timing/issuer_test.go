package timing

import (
	"testing"

	"github.com/pocketgpu/pocketgpu/emu"
	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/isa"
)

// testWarp is a warp with n register slots, all ready at 0.
func testWarp(n int) *warpState {
	return &warpState{slots: make([]slotReady, n)}
}

// A group holds the port for its issue cycles and each of its pipes for
// that pipe's cycles; a pipe still busy with an earlier group delays only
// its own use; the slots it writes are ready its latency after issue.
func TestIssuerPortPipesLatency(t *testing.T) {
	is := &issuer{pipeFree: make([]float64, 2)}
	w := testWarp(4)
	fma := &groupPlan{g: &isa.Group{Ops: 3}, issue: 2, latency: 6, pipes: []pipeUse{{pipe: 0, cycles: 4}}, writes: []int32{1, 3}}
	is.issue(w, fma, 10)
	is.count(fma)
	if is.portFree != 12 || is.pipeFree[0] != 14 || is.pipeFree[1] != 0 {
		t.Errorf("after one group: port free at %v, pipes %v; want 12 and [14 0]", is.portFree, is.pipeFree)
	}
	if w.slots[1] != (slotReady{16, StallDependency}) || w.slots[3] != (slotReady{16, StallDependency}) || w.slots[0].at != 0 {
		t.Errorf("written slots %v; want slots 1 and 3 ready at 16 (dependency)", w.slots)
	}
	// The next group on the same pipe issues at 12 but runs from 14.
	is.issue(w, fma, 12)
	is.count(fma)
	want := IssueCounts{Groups: 2, Ops: 6, IssueCycles: 4}
	want.PipeBusy[0] = 8
	if is.pipeFree[0] != 18 || is.counts != want {
		t.Errorf("after two groups: pipe 0 free at %v, counts %+v; want 18 and %+v", is.pipeFree[0], is.counts, want)
	}
}

// On a GPU that skips idle passes a warp's idle share comes off the pipe
// cycles its groups spend in passes (here half of a wave128's two 64-lane
// passes), and off nothing else.
func TestIssuerIdlePasses(t *testing.T) {
	var half emu.Mask
	for l := 0; l < 64; l++ {
		half.Set(l)
	}
	w := testWarp(1)
	w.idle = idleShare(half, 128, 64)
	if w.idle != 0.5 {
		t.Fatalf("idle share of a half-active wave128 in 64-lane passes: %v, want 0.5", w.idle)
	}
	is := &issuer{pipeFree: make([]float64, 2)}
	gp := &groupPlan{g: &isa.Group{}, issue: 1, pipes: []pipeUse{{pipe: 0, cycles: 4, passes: 4}, {pipe: 1, cycles: 3, passes: 1}}}
	is.issue(w, gp, 0)
	if is.pipeFree[0] != 2 || is.pipeFree[1] != 2.5 {
		t.Errorf("pipes free at %v, want [2 2.5]", is.pipeFree)
	}
	var all emu.Mask
	all.Set(0)
	all.Set(127)
	for _, c := range []struct {
		m    emu.Mask
		want float64
	}{{emu.Mask{}, 1}, {all, 0}, {half, 0.5}} {
		if got := idleShare(c.m, 128, 64); got != c.want {
			t.Errorf("idleShare(%x) = %v, want %v", c.m, got, c.want)
		}
	}
	if got := idleShare(all, 128, 32); got != 0.5 {
		t.Errorf("lanes 0 and 127 in four passes of 32: %v idle, want 0.5", got)
	}
}

// A group can start when its inputs are there: the latest of the slots it
// reads, or the warp's own readiness, with what that waits for.
func TestInputsReady(t *testing.T) {
	w := testWarp(4)
	w.slots[0] = slotReady{30, StallMemory}
	w.slots[2] = slotReady{12, StallDependency}
	w.readyAt, w.why = 5, StallNone
	gp := &groupPlan{reads: []int32{2, 0}}
	if at, why := inputsReady(w, gp); at != 30 || why != StallMemory {
		t.Errorf("reading slots 2 and 0: ready at %v (%v), want 30 (memory)", at, why)
	}
	w.readyAt, w.why = 40, StallBarrier
	if at, why := inputsReady(w, gp); at != 40 || why != StallBarrier {
		t.Errorf("warp held to 40: ready at %v (%v), want 40 (barrier)", at, why)
	}
	if at, why := inputsReady(w, &groupPlan{}); at != 40 || why != StallBarrier {
		t.Errorf("reading nothing: %v (%v)", at, why)
	}
}

// occupy holds the port beyond the lowered groups: from when it is free,
// counted as issue cycles.
func TestIssuerOccupy(t *testing.T) {
	is := &issuer{portFree: 10}
	if start := is.occupy(4, 3); start != 10 || is.portFree != 13 {
		t.Errorf("occupy from 4 with the port busy to 10: start %v, free at %v; want 10 and 13", start, is.portFree)
	}
	if start := is.occupy(20, 2); start != 20 || is.portFree != 22 || is.counts.IssueCycles != 5 {
		t.Errorf("occupy from 20: start %v, free at %v, %v issue cycles; want 20, 22, 5", start, is.portFree, is.counts.IssueCycles)
	}
}

// makePlans keeps what the issue loop reads of each group: float cycles,
// only the pipes a group uses (with their pass cycles) as a mask too, and
// only the register slots the warp tracks.
func TestMakePlans(t *testing.T) {
	p := &isa.Program{IR: &ir.Program{Regs: 4}, Blocks: []isa.Block{{Groups: []isa.Group{{
		Issue: 1.5, Latency: 6, Pipe: []float32{0, 2, 4}, Passes: []float32{0, 0, 4},
		Reads: []int32{0, 7, -1, 3}, Writes: []int32{2, 4},
	}}}}}
	plans := makePlans(p)
	gp := plans[0][0]
	if gp.issue != 1.5 || gp.latency != 6 || gp.mask != 0b110 || len(gp.pipes) != 2 {
		t.Fatalf("plan %+v", gp)
	}
	if gp.pipes[0] != (pipeUse{pipe: 1, cycles: 2}) || gp.pipes[1] != (pipeUse{pipe: 2, cycles: 4, passes: 4}) {
		t.Errorf("pipes %+v", gp.pipes)
	}
	if !equalInt32s(gp.reads, []int32{0, 3}) || !equalInt32s(gp.writes, []int32{2}) {
		t.Errorf("reads %v writes %v; want [0 3] and [2]", gp.reads, gp.writes)
	}
}

func equalInt32s(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
