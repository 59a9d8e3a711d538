package device

import (
	"container/heap"
	"math"

	"github.com/pocketgpu/pocketgpu/ir"
)

// Estimate is what a launch will cost at the least, known before it runs.
type Estimate struct {
	WorkItems, WorkGroups, Warps uint64
	// MinWarpInsts is the fewest warp instructions the launch can take:
	// every warp down the kernel's shortest path from entry to return.
	MinWarpInsts uint64
	// Budget is the warp-instruction budget the run will have (Unlimited
	// when none was set: then only a stall stops it).
	Budget uint64
	// MinSeconds is MinWarpInsts at the simulator's measured rates
	// (functional, timed): a lower bound on the wait.
	MinSeconds [2]float64
}

// Simulation rates measured on this project's 2-core VM (one core), for
// Estimate: warp instructions a second, functional and timed, the faster
// ends of what a spin loop and the corpus run (a lower bound on time wants
// the high rate).
const (
	rateFunctional = 40e6
	rateTimed      = 15e6
)

// Estimate validates a launch as Prepare does and says what it will cost,
// without running it.
func (d *Device) Estimate(k *Kernel, nd NDRange, args []Arg, opt Options) (*Estimate, error) {
	plan, err := d.Prepare(k, nd, args, opt)
	if err != nil {
		return nil, err
	}
	defer plan.Close()
	ed := plan.dispatch
	e := &Estimate{WorkGroups: uint64(ed.NumGroups()), Budget: ed.Budget()}
	e.WorkItems = e.WorkGroups * uint64(ed.WorkGroupSize())
	e.Warps = e.WorkGroups * uint64(ed.WarpsPerGroup())
	if ed.Packed() > 1 {
		e.Warps = uint64(ed.Tasks()) // work-groups sharing warps
	}
	path := shortestPath(k.program())
	if path > 0 && e.Warps > math.MaxUint64/path {
		e.MinWarpInsts = math.MaxUint64
	} else {
		e.MinWarpInsts = e.Warps * path
	}
	e.MinSeconds = [2]float64{float64(e.MinWarpInsts) / rateFunctional, float64(e.MinWarpInsts) / rateTimed}
	return e, nil
}

// OverBudget reports whether the launch cannot finish within its budget.
func (e *Estimate) OverBudget() bool { return e.Budget != Unlimited && e.MinWarpInsts > e.Budget }

// shortestPath is the fewest instructions a work-item runs from the entry
// block to a return (Dijkstra over the blocks, each weighing its code and
// terminator).
func shortestPath(p *ir.Program) uint64 {
	n := len(p.Blocks)
	if n == 0 {
		return 0
	}
	const inf = math.MaxUint64
	dist := make([]uint64, n)
	for i := range dist {
		dist[i] = inf
	}
	weight := func(b int32) uint64 {
		blk := p.Blocks[b]
		if blk.Start < 0 || blk.End < blk.Start {
			return 1
		}
		return uint64(blk.End-blk.Start) + 1
	}
	q := &blockQueue{}
	dist[0] = weight(0)
	heap.Push(q, blockDist{0, dist[0]})
	for q.Len() > 0 {
		cur := heap.Pop(q).(blockDist)
		if cur.d > dist[cur.b] {
			continue
		}
		blk := p.Blocks[cur.b]
		if blk.Term.Kind == ir.TermReturn {
			return cur.d
		}
		for _, s := range blk.Succs {
			if s.To < 0 || int(s.To) >= n {
				continue
			}
			if nd := cur.d + weight(s.To); nd < dist[s.To] {
				dist[s.To] = nd
				heap.Push(q, blockDist{s.To, nd})
			}
		}
	}
	return 0 // no return is reachable: nothing to bound it by
}

type blockDist struct {
	b int32
	d uint64
}

type blockQueue []blockDist

func (q blockQueue) Len() int           { return len(q) }
func (q blockQueue) Less(i, j int) bool { return q[i].d < q[j].d }
func (q blockQueue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *blockQueue) Push(x any)        { *q = append(*q, x.(blockDist)) }
func (q *blockQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}
