package timing

import "github.com/pocketgpu/pocketgpu/isa"

// groupPlan is an isa group in the form the issue loop reads: cycles as
// float64, only the pipes it keeps busy, and only the register slots the
// warp tracks.
type groupPlan struct {
	g              *isa.Group
	issue, latency float64
	pipes          []pipeUse
	mask           uint32 // bit p: the group uses pipe p
	reads, writes  []int32
}

type pipeUse struct {
	pipe   int
	cycles float64
	passes float64 // the part of cycles run in passes a warp may skip (isa.Group.Passes)
}

// slotReady is when an IR slot's value is available and what produces it.
type slotReady struct {
	at  float64
	why Cause
}

// makePlans builds every block's group plans once per run.
func makePlans(p *isa.Program) [][]groupPlan {
	regs := int32(p.IR.Regs)
	inRange := func(slots []int32) []int32 {
		var out []int32
		for _, s := range slots {
			if s >= 0 && s < regs {
				out = append(out, s)
			}
		}
		return out
	}
	plans := make([][]groupPlan, len(p.Blocks))
	for b := range p.Blocks {
		groups := p.Blocks[b].Groups
		plans[b] = make([]groupPlan, len(groups))
		for i := range groups {
			g := &groups[i]
			gp := &plans[b][i]
			gp.g, gp.issue, gp.latency = g, float64(g.Issue), float64(g.Latency)
			for pipe, c := range g.Pipe {
				if c > 0 {
					u := pipeUse{pipe: pipe, cycles: float64(c)}
					if pipe < len(g.Passes) {
						u.passes = float64(g.Passes[pipe])
					}
					gp.pipes = append(gp.pipes, u)
					gp.mask |= 1 << pipe
				}
			}
			gp.reads, gp.writes = inRange(g.Reads), inRange(g.Writes)
		}
	}
	return plans
}
