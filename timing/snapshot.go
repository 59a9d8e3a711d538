package timing

// Snapshot is what the engine has counted up to a moment of a run, unit by
// unit, as plain values: each unit keeps its counts in a struct of its own
// (CoreCounts, IssueCounts, StallCounts, FetchCounts, SpillCounts), and a
// snapshot copies them, sharing nothing with the engine or with other
// snapshots. Two snapshots subtract to the work done between them, and a
// difference scales and adds to project a run forward (sampled simulation:
// a steady stretch's counts, times how often it repeats). The reported
// counters (Result) are computed from a snapshot taken at the end and the
// memory hierarchy's mem.Counters.
//
// The arithmetic is field by field. Every field is a count or a sum over
// time, except CoreCounts.PeakResident, a level: a difference holds its
// change, which is 0 once a run is steady.
type Snapshot struct {
	Cycles  float64        // when it was taken
	Cores   []CoreCounts   // per core: the dispatcher's
	Engines []EngineCounts // per engine, core by core
	Fetch   FetchCounts    // the instruction fetcher's, GPU-wide
	Spills  SpillCounts    // the memory unit's
	Kernels []KernelCounts // per kernel, in the order added
}

// EngineCounts are one engine's: what its issuer issued and what its
// scheduler stalled on.
type EngineCounts struct {
	Issue IssueCounts
	Stall StallCounts
}

// KernelCounts are what one kernel's warps did.
type KernelCounts struct {
	// WarpInsts and ThreadInsts are the executor instructions the warps
	// ran, per warp and per active lane (a dispatch's, from emu.Stats:
	// counted as the executor runs each block).
	WarpInsts, ThreadInsts float64
	// WorkgroupsDone are the work-groups that finished (a shader: its
	// warps); Warps a shader's warps launched; HeldCycles the warp-cycles
	// its finished warps waited for ReplayWarp.Retire.
	WorkgroupsDone, Warps, HeldCycles float64
	// ThreadOps are the operation components the warps issued, by arch op
	// class (arch.OpClasses), counted per active lane.
	ThreadOps []float64
}

// Snapshot takes the engine's counts up to time t (cycles of this run; no
// earlier than the engine's last step or event). An engine's open stall,
// a wait the scheduler books when the engine next steps, is not in it yet.
func (e *Engine) Snapshot(t float64) Snapshot {
	s := Snapshot{Cycles: t, Spills: e.mu.counts}
	if e.fetch != nil {
		s.Fetch = e.fetch.counts
	}
	for _, c := range e.cores {
		s.Cores = append(s.Cores, c.snapshot(t))
	}
	for _, en := range e.eng {
		s.Engines = append(s.Engines, EngineCounts{Issue: en.issuer.counts, Stall: en.sched.stalls})
	}
	for _, k := range e.disp.kernels {
		s.Kernels = append(s.Kernels, k.counts())
	}
	return s
}

// Add returns s + o.
func (s Snapshot) Add(o Snapshot) Snapshot {
	return s.zip(o, func(a, b float64) float64 { return a + b })
}

// Sub returns s − o: with o taken earlier, the work done in between.
func (s Snapshot) Sub(o Snapshot) Snapshot {
	return s.zip(o, func(a, b float64) float64 { return a - b })
}

// Scale returns s × f.
func (s Snapshot) Scale(f float64) Snapshot {
	return s.zip(Snapshot{}, func(a, _ float64) float64 { return a * f })
}

// zip applies op to each count of s and the same count of o; a count o
// lacks (a core, engine or kernel past its end) is 0 there.
func (s Snapshot) zip(o Snapshot, op func(a, b float64) float64) Snapshot {
	return Snapshot{
		Cycles: op(s.Cycles, o.Cycles),
		Cores: zipAll(s.Cores, o.Cores, func(a, b CoreCounts) CoreCounts {
			return CoreCounts{
				WarpsLaunched: op(a.WarpsLaunched, b.WarpsLaunched),
				ResidentArea:  op(a.ResidentArea, b.ResidentArea),
				ActiveCycles:  op(a.ActiveCycles, b.ActiveCycles),
				PeakResident:  op(a.PeakResident, b.PeakResident),
			}
		}),
		Engines: zipAll(s.Engines, o.Engines, func(a, b EngineCounts) EngineCounts {
			c := EngineCounts{Issue: IssueCounts{
				Groups:      op(a.Issue.Groups, b.Issue.Groups),
				Ops:         op(a.Issue.Ops, b.Issue.Ops),
				IssueCycles: op(a.Issue.IssueCycles, b.Issue.IssueCycles),
			}}
			for p := range c.Issue.PipeBusy {
				c.Issue.PipeBusy[p] = op(a.Issue.PipeBusy[p], b.Issue.PipeBusy[p])
			}
			for k := range c.Stall {
				c.Stall[k] = op(a.Stall[k], b.Stall[k])
			}
			return c
		}),
		Fetch: FetchCounts{
			Hits:         op(s.Fetch.Hits, o.Fetch.Hits),
			BufferMisses: op(s.Fetch.BufferMisses, o.Fetch.BufferMisses),
			Misses:       op(s.Fetch.Misses, o.Fetch.Misses),
		},
		Spills: SpillCounts{
			Loads:      op(s.Spills.Loads, o.Spills.Loads),
			Stores:     op(s.Spills.Stores, o.Spills.Stores),
			LoadBytes:  op(s.Spills.LoadBytes, o.Spills.LoadBytes),
			StoreBytes: op(s.Spills.StoreBytes, o.Spills.StoreBytes),
		},
		Kernels: zipAll(s.Kernels, o.Kernels, func(a, b KernelCounts) KernelCounts {
			return KernelCounts{
				WarpInsts:      op(a.WarpInsts, b.WarpInsts),
				ThreadInsts:    op(a.ThreadInsts, b.ThreadInsts),
				WorkgroupsDone: op(a.WorkgroupsDone, b.WorkgroupsDone),
				Warps:          op(a.Warps, b.Warps),
				HeldCycles:     op(a.HeldCycles, b.HeldCycles),
				ThreadOps:      zipAll(a.ThreadOps, b.ThreadOps, op),
			}
		}),
	}
}

// zipAll is op over the elements of a and b, the shorter padded with
// zero values; the result is new.
func zipAll[T any](a, b []T, op func(x, y T) T) []T {
	if len(a) == 0 && len(b) == 0 {
		return nil
	}
	out := make([]T, max(len(a), len(b)))
	var zero T
	for i := range out {
		x, y := zero, zero
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		out[i] = op(x, y)
	}
	return out
}
