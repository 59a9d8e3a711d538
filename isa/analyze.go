package isa

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/ir"
)

// Report is the static analysis of a kernel on one GPU, in the spirit of the
// Mali Offline Compiler: registers, occupancy, spilling, machine operations
// per pipe and the cycles each pipe spends along the shortest and longest
// paths through the control-flow graph (loops counted once), and the
// bounding pipe. Cycle figures are core cycles per warp: a pipe's busy
// cycles divided by how many such pipes a core has (an ALU pipe or issue
// port per engine; one load/store path and one texture unit share per core),
// so that the pipes compare directly.
type Report struct {
	GPU           string         `json:"gpu"`
	Family        string         `json:"family"`
	Entry         string         `json:"entry"`
	WarpWidth     int            `json:"warp_width"`
	Registers     int            `json:"registers"`
	SpillBytes    int            `json:"spill_bytes"`
	Occupancy     arch.Occupancy `json:"occupancy"`
	OccupancyNote string         `json:"occupancy_note,omitempty"`
	CodeBytes     int            `json:"code_bytes"`
	Groups        int            `json:"groups"`
	Operations    int            `json:"operations"`
	Pipes         []PipeReport   `json:"pipes"`
	ShortestBound string         `json:"shortest_path_bound"`
	LongestBound  string         `json:"longest_path_bound"`
	HasLoops      bool           `json:"has_loops"`
	// Work is one work-item's operations and bytes along the longest
	// path, for a static roofline.
	Work *Work `json:"work_per_item"`
	// Details is the family's part (its Key names it in JSON).
	Details FamilyReport `json:"-"`
}

// PipeReport is one pipe's share of the kernel.
type PipeReport struct {
	Name         string  `json:"name"`
	Instructions int     `json:"instructions"`
	Total        float64 `json:"total_cycles"`
	Shortest     float64 `json:"shortest_path_cycles"`
	Longest      float64 `json:"longest_path_cycles"`
}

// Extra rows of the report besides the ALU pipes.
const (
	RowIssue     = "issue"
	RowLoadStore = "load_store"
	RowTexture   = "texture"
)

// Analyze lowers p for g, a GPU of family f, and reports it. warpWidth 0
// lets the occupancy rules choose (Adreno: wave64 or wave128).
func Analyze(p *ir.Program, g *arch.GPU, warpWidth int, f Family) (*Report, error) {
	if p == nil || g == nil || f == nil {
		return nil, fmt.Errorf("isa: nil program, GPU or family")
	}
	regs, _ := registers(p, g)
	r := &Report{GPU: g.ID, Family: string(g.Family), Entry: p.Entry}
	q := arch.OccupancyQuery{Regs: regs, Barrier: p.UsesBarrier, SizeFixedAtCompile: p.LocalSizeFixed}
	if p.LocalSizeFixed {
		q.WorkgroupSize = max(p.LocalSize[0], 1) * max(p.LocalSize[1], 1) * max(p.LocalSize[2], 1)
	}
	localArg := false
	for _, par := range p.Params {
		localArg = localArg || par.Kind == ir.ParamLocal
	}
	switch {
	case p.LocalBytes > 0 && q.WorkgroupSize > 0:
		q.LocalBytes = p.LocalBytes
	case p.LocalBytes > 0 || localArg:
		r.OccupancyNote = "local memory not counted: its size per work-group depends on arguments or the work-group size, known only at dispatch"
	}
	if localArg && r.OccupancyNote == "" {
		r.OccupancyNote = "__local arguments not counted: their size is given at dispatch"
	}
	og := g
	if warpWidth > 0 && (len(g.WarpSizes) != 1 || g.WarpSizes[0] != warpWidth) {
		// Residency at the width asked for, not the one the rules prefer.
		c := *g
		c.WarpSizes = []int{warpWidth}
		og = &c
	}
	occ, err := og.Occupancy(q)
	if err != nil {
		// A fixed work-group the GPU cannot hold: report without it.
		r.OccupancyNote = fmt.Sprintf("the kernel's work-group does not fit (%v); occupancy shown without it", err)
		q.WorkgroupSize, q.LocalBytes = 0, 0
		if occ, err = og.Occupancy(q); err != nil {
			return nil, fmt.Errorf("isa: occupancy: %w", err)
		}
	}
	if warpWidth == 0 {
		warpWidth = occ.WarpWidth
	}
	lp, err := Lower(p, g, warpWidth, f)
	if err != nil {
		return nil, err
	}
	r.Occupancy = occ
	r.WarpWidth = lp.WarpWidth
	r.Registers, r.SpillBytes, r.CodeBytes = lp.Regs, lp.SpillBytes, lp.CodeBytes

	rows := append(append([]string(nil), lp.Pipes...), RowIssue, RowLoadStore, RowTexture)
	nrow := len(rows)
	blockCost := make([][]float64, len(lp.Blocks))
	insts := make([]int, nrow)
	engines := float64(max(g.EnginesPerCore, 1))
	for b := range lp.Blocks {
		c := make([]float64, nrow)
		for gi := range lp.Blocks[b].Groups {
			gr := &lp.Blocks[b].Groups[gi]
			r.Groups++
			r.Operations += int(gr.Ops)
			for pi, v := range gr.Pipe {
				c[pi] += float64(v) / engines
			}
			c[len(lp.Pipes)] += float64(gr.Issue) / engines
			for _, m := range gr.Mem {
				ls, tex := messageCycles(p, g, lp.WarpWidth, m)
				c[len(lp.Pipes)+1] += ls
				c[len(lp.Pipes)+2] += tex
				if tex > 0 {
					insts[len(lp.Pipes)+2]++
				} else {
					insts[len(lp.Pipes)+1]++
				}
			}
			for _, m := range gr.Spill {
				c[len(lp.Pipes)+1] += loadStoreCycles(g, lp.WarpWidth, int(m.Bytes), ir.SpacePrivate)
				insts[len(lp.Pipes)+1]++
			}
			insts[len(lp.Pipes)] += int(gr.Ops)
		}
		blockCost[b] = c
	}
	copy(insts, lp.opsPerPipe)
	short, long, loops := paths(p, blockCost, nrow)
	r.HasLoops = loops
	for k, name := range rows {
		var total float64
		for b := range blockCost {
			total += blockCost[b][k]
		}
		r.Pipes = append(r.Pipes, PipeReport{Name: name, Instructions: insts[k], Total: Round3(total), Shortest: Round3(short[k]), Longest: Round3(long[k])})
	}
	r.Work = staticWork(p, lp, long[:len(lp.Pipes)])
	r.ShortestBound = bound(r.Pipes, func(pr PipeReport) float64 { return pr.Shortest })
	r.LongestBound = bound(r.Pipes, func(pr PipeReport) float64 { return pr.Longest })

	r.Details = f.Report(lp, occ)
	return r, nil
}

// MarshalJSON writes the report with the family's details under their key
// ("bifrost": {...}), as if they were a field.
func (r *Report) MarshalJSON() ([]byte, error) {
	type plain Report
	b, err := json.Marshal((*plain)(r))
	if err != nil || r.Details.Key == "" || r.Details.Details == nil {
		return b, err
	}
	d, err := json.Marshal(r.Details.Details)
	if err != nil {
		return nil, err
	}
	k, _ := json.Marshal(r.Details.Key)
	out := append(b[:len(b)-1:len(b)-1], ',')
	out = append(append(append(out, k...), ':'), d...)
	return append(out, '}'), nil
}

// messageCycles estimates a message's core cycles on the load/store path or
// the texture unit at hit bandwidth: a warp's bytes over the path's bytes
// per cycle, or its samples over the unit's samples per clock.
func messageCycles(p *ir.Program, g *arch.GPU, w int, pc int32) (ls, tex float64) {
	in := &p.Code[pc]
	bytes, space := 0, ir.SpaceGlobal
	switch in.Op {
	case ir.OpAtomic:
		a := &p.Atomics[in.Aux]
		bytes, space = a.Bytes, a.Space
	case ir.OpImage:
		io := &p.Images[in.Aux]
		if io.Kind != ir.ImageWrite {
			units := 1 / float64(max(g.Texture.CoresPerUnit, 1))
			return 0, (g.Texture.CyclesPerMessage + float64(w)/math.Max(g.Texture.SamplesPerClock, 1e-9)) / units
		}
		bytes = 4 * max(io.N, 1)
	case ir.OpCopyMemory:
		c := &p.Copies[in.Aux]
		bytes, space = 2*max(c.Bytes, 4), c.SrcSpace
	case ir.OpExt:
		bytes = 4
	default:
		sp, b, _, ok := in.Op.MemInfo()
		if !ok {
			return 0, 0
		}
		bytes, space = b*int(in.N), sp
	}
	return loadStoreCycles(g, w, bytes, space), 0
}

// loadStoreCycles is a warp's bytes of a message over the core's load/store
// path (or on-chip local memory's share), at least one cycle.
func loadStoreCycles(g *arch.GPU, w, bytes int, space ir.Space) float64 {
	bpc := g.L2.CoreBytesPerCycle
	if g.L1 != nil {
		bpc = g.L1.BytesPerCycle
	}
	if space == ir.SpaceLocal && g.LocalMemory.Kind == arch.LocalOnChip && g.LocalMemory.BytesPerCycle > 0 {
		bpc = g.LocalMemory.BytesPerCycle / float64(max(g.LocalMemory.CoresPerInstance, 1))
	}
	return math.Max(1, float64(w*bytes)/math.Max(bpc, 1e-9))
}

// paths sums block costs along the shortest and longest paths from the
// entry to an exit, per row, counting each loop once: a back edge u→h is
// replaced by edges from u to h's successors outside the loop, so a path
// runs the body once and leaves.
func paths(p *ir.Program, cost [][]float64, nrow int) (short, long []float64, loops bool) {
	n := len(p.Blocks)
	short, long = make([]float64, nrow), make([]float64, nrow)
	if n == 0 {
		return
	}
	back := backEdges(p)
	loops = len(back) > 0
	succ := make([][]int32, n)
	for b := range p.Blocks {
		for _, e := range p.Blocks[b].Succs {
			if !back[[2]int32{int32(b), e.To}] {
				succ[b] = appendOnce(succ[b], e.To)
			}
		}
	}
	for be := range back {
		u, h := be[0], be[1]
		in := naturalLoop(p, u, h)
		for _, e := range p.Blocks[h].Succs {
			if !in[e.To] && !back[[2]int32{h, e.To}] {
				succ[u] = appendOnce(succ[u], e.To)
			}
		}
	}
	// Kahn's algorithm from the entry over the forward and virtual edges.
	indeg := make([]int, n)
	reach := make([]bool, n)
	stack := []int32{0}
	reach[0] = true
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, s := range succ[b] {
			indeg[s]++
			if !reach[s] {
				reach[s] = true
				stack = append(stack, s)
			}
		}
	}
	var order []int32
	queue := []int32{0}
	for len(queue) > 0 {
		b := queue[0]
		queue = queue[1:]
		order = append(order, b)
		for _, s := range succ[b] {
			if indeg[s]--; indeg[s] == 0 {
				queue = append(queue, s)
			}
		}
	}
	for k := 0; k < nrow; k++ {
		lo := make([]float64, n)
		hi := make([]float64, n)
		seen := make([]bool, n)
		seen[0] = true
		lo[0], hi[0] = cost[0][k], cost[0][k]
		for _, b := range order {
			for _, s := range succ[b] {
				l, h := lo[b]+cost[s][k], hi[b]+cost[s][k]
				if !seen[s] {
					seen[s], lo[s], hi[s] = true, l, h
					continue
				}
				lo[s] = math.Min(lo[s], l)
				hi[s] = math.Max(hi[s], h)
			}
		}
		first := true
		for _, b := range order {
			if len(succ[b]) > 0 && !isExit(p.Blocks[b].Term.Kind) {
				continue
			}
			if first {
				short[k], long[k], first = lo[b], hi[b], false
				continue
			}
			short[k] = math.Min(short[k], lo[b])
			long[k] = math.Max(long[k], hi[b])
		}
	}
	return
}

func appendOnce(s []int32, x int32) []int32 {
	for _, v := range s {
		if v == x {
			return s
		}
	}
	return append(s, x)
}

func isExit(k ir.TermKind) bool {
	return k == ir.TermReturn || k == ir.TermKill || k == ir.TermUnreachable
}

// backEdges finds the edges to a block on the depth-first search stack.
func backEdges(p *ir.Program) map[[2]int32]bool {
	n := len(p.Blocks)
	state := make([]uint8, n) // 0 new, 1 on stack, 2 done
	back := map[[2]int32]bool{}
	type frame struct {
		b    int32
		next int
	}
	stack := []frame{{0, 0}}
	state[0] = 1
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		succ := p.Blocks[f.b].Succs
		if f.next < len(succ) {
			to := succ[f.next].To
			f.next++
			switch state[to] {
			case 0:
				state[to] = 1
				stack = append(stack, frame{to, 0})
			case 1:
				back[[2]int32{f.b, to}] = true
			}
			continue
		}
		state[f.b] = 2
		stack = stack[:len(stack)-1]
	}
	return back
}

// naturalLoop is the loop of back edge u→h: h and the blocks that reach u
// without passing through h.
func naturalLoop(p *ir.Program, u, h int32) map[int32]bool {
	in := map[int32]bool{h: true}
	preds := make([][]int32, len(p.Blocks))
	for b := range p.Blocks {
		for _, e := range p.Blocks[b].Succs {
			preds[e.To] = append(preds[e.To], int32(b))
		}
	}
	stack := []int32{u}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if in[b] {
			continue
		}
		in[b] = true
		stack = append(stack, preds[b]...)
	}
	return in
}

func bound(rows []PipeReport, v func(PipeReport) float64) string {
	best, name := 0.0, ""
	for _, r := range rows {
		if x := v(r); x > best+1e-9 {
			best, name = x, r.Name
		}
	}
	return name
}

// Round3 rounds a report figure to three decimals.
func Round3(x float64) float64 { return math.Round(x*1000) / 1000 }
