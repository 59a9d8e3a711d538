package timing

import (
	"reflect"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/timing/mem"
)

// testSnapshot has every kind of count, in whole numbers so that sums
// and differences are exact.
func testSnapshot(k float64) Snapshot {
	s := Snapshot{
		Cycles:  100 * k,
		Cores:   []CoreCounts{{WarpsLaunched: 4 * k, ResidentArea: 300 * k, ActiveCycles: 90 * k, PeakResident: 3}},
		Engines: []EngineCounts{{Issue: IssueCounts{Groups: 10 * k, Ops: 20 * k, IssueCycles: 15 * k}}},
		Fetch:   FetchCounts{Hits: 7 * k, BufferMisses: k, Misses: 2 * k},
		Spills:  SpillCounts{Loads: k, Stores: 2 * k, LoadBytes: 32 * k, StoreBytes: 64 * k},
		Kernels: []KernelCounts{{WarpInsts: 50 * k, ThreadInsts: 400 * k, WorkgroupsDone: 2 * k, ThreadOps: []float64{0, 8 * k}}},
	}
	s.Engines[0].Issue.PipeBusy[1] = 12 * k
	s.Engines[0].Stall[StallMemory] = 5 * k
	return s
}

// Snapshots add, subtract and scale field by field; a snapshot of more
// cores or kernels than the other pads it with zeros; results share no
// memory with their operands.
func TestSnapshotArithmetic(t *testing.T) {
	a, b := testSnapshot(1), testSnapshot(3)
	if got := b.Sub(a); !reflect.DeepEqual(got, fixPeak(testSnapshot(2), 0)) {
		t.Errorf("3 - 1:\n%+v\nwant\n%+v", got, testSnapshot(2))
	}
	if got := a.Add(a).Add(a); !reflect.DeepEqual(got, fixPeak(testSnapshot(3), 9)) {
		t.Errorf("1 + 1 + 1:\n%+v\nwant\n%+v", got, b)
	}
	if got := a.Scale(3); !reflect.DeepEqual(got, fixPeak(testSnapshot(3), 9)) {
		t.Errorf("1 × 3:\n%+v\nwant\n%+v", got, b)
	}
	// A projection: the first stretch plus two more like it.
	if got := a.Add(b.Sub(a).Scale(2)); got.Cycles != 500 || got.Engines[0].Issue.Groups != 50 || got.Kernels[0].ThreadOps[1] != 40 {
		t.Errorf("projection: %+v", got)
	}
	// Another kernel on one side only.
	c := testSnapshot(1)
	c.Kernels = append(c.Kernels, KernelCounts{Warps: 6, ThreadOps: []float64{1, 2, 3}})
	d := c.Sub(a)
	if len(d.Kernels) != 2 || d.Kernels[1].Warps != 6 || !reflect.DeepEqual(d.Kernels[1].ThreadOps, []float64{1, 2, 3}) || d.Kernels[0].ThreadOps[1] != 0 {
		t.Errorf("kernels of different counts: %+v", d.Kernels)
	}
	d.Kernels[1].ThreadOps[0] = 99
	if c.Kernels[1].ThreadOps[0] != 1 {
		t.Error("a difference shares its operand's slices")
	}
	if z := (Snapshot{}).Add(Snapshot{}); z.Cores != nil || z.Kernels != nil {
		t.Errorf("empty snapshots: %+v", z)
	}
}

// fixPeak sets s's peak resident warps (a level: not what a sum or a
// multiple of snapshots of it holds).
func fixPeak(s Snapshot, peak float64) Snapshot {
	s.Cores[0].PeakResident = peak
	return s
}

// Snapshots taken during a run (at the engine's checkpoints) are
// copies: later work leaves them alone, and every count grows from one to
// the next. One taken at the end gives exactly the counters Run reported.
func TestSnapshotDuringRun(t *testing.T) {
	g, err := arch.Lookup("mali-g52")
	if err != nil {
		t.Fatal(err)
	}
	d, low := vecadd(t, 1<<14)
	occ, err := g.Occupancy(arch.OccupancyQuery{Regs: low.Regs, WorkgroupSize: low.WarpWidth})
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(Config{GPU: g, Dispatch: d, Program: low, Occupancy: occ, Memory: mem.New(g)})
	if err != nil {
		t.Fatal(err)
	}
	var snaps, copies []Snapshot
	e.SetCheckpoint(func(at float64) error {
		s := e.Snapshot(at)
		snaps, copies = append(snaps, s), append(copies, s.Scale(1))
		return nil
	})
	r, err := e.Run()
	if err != nil {
		t.Fatal(err)
	}
	if len(snaps) < 3 {
		t.Fatalf("only %d snapshots", len(snaps))
	}
	for i := range snaps {
		if !reflect.DeepEqual(snaps[i], copies[i]) {
			t.Fatalf("snapshot %d changed after it was taken", i)
		}
	}
	for i := 1; i < len(snaps); i++ {
		dd := snaps[i].Sub(snaps[i-1])
		eg := dd.Engines[0].Issue
		if dd.Cycles <= 0 || eg.Groups < 0 || eg.IssueCycles < 0 || dd.Kernels[0].WarpInsts < 0 || dd.Cores[0].ResidentArea < 0 {
			t.Errorf("snapshot %d to %d: counts went back: %+v", i-1, i, dd)
		}
	}
	last := snaps[len(snaps)-1]
	if last.Kernels[0].WarpInsts <= snaps[0].Kernels[0].WarpInsts || last.Engines[0].Issue.Groups <= snaps[0].Engines[0].Issue.Groups {
		t.Error("no work between the first and last snapshots")
	}
	again := e.report(e.Snapshot(r.Cycles), e.mem.Counters())
	if !reflect.DeepEqual(again.Counters, r.Counters) || !reflect.DeepEqual(again.PerCore, r.PerCore) {
		t.Error("a snapshot at the end does not give Run's counters")
	}
}
