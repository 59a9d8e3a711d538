package ir

import "fmt"

// analyse computes predecessors, immediate post-dominators (the
// reconvergence points for divergent branches) and loop depths, and checks
// that the control-flow graph is well formed.
func (p *Program) analyse() error {
	n := len(p.Blocks)
	for i := range p.Blocks {
		b := &p.Blocks[i]
		b.Preds = nil
		if b.Start < 0 {
			b.Start, b.End = 0, 0
		}
	}
	for i := range p.Blocks {
		for _, e := range p.Blocks[i].Succs {
			if e.To < 0 || int(e.To) >= n {
				return &Error{Msg: fmt.Sprintf("internal: block %d branches to block %d of %d", i, e.To, n)}
			}
			p.Blocks[e.To].Preds = append(p.Blocks[e.To].Preds, int32(i))
		}
	}
	ipdom := postDominators(p)
	for i := range p.Blocks {
		p.Blocks[i].IPDom = ipdom[i]
	}
	loopDepths(p)
	// The reconvergence stack holds at most one entry per nesting level
	// of divergent regions; blocks bound that.
	p.MaxStack = 2*n + 8
	return nil
}

func isExit(k TermKind) bool {
	return k == TermReturn || k == TermKill || k == TermUnreachable
}

// postDominators computes immediate post-dominators as the dominators of
// the reverse graph, rooted at a virtual exit joined to every returning
// block. Blocks that cannot reach an exit (infinite loops) get NoBlock.
func postDominators(p *Program) []int32 {
	n := len(p.Blocks)
	exit := n
	// In the reverse graph, x's successors are its forward predecessors
	// (the exit's are the returning blocks) and its predecessors are its
	// forward successors (plus the exit for returning blocks).
	rsucc := func(x int) []int {
		var out []int
		if x == exit {
			for i := range p.Blocks {
				if isExit(p.Blocks[i].Term.Kind) {
					out = append(out, i)
				}
			}
			return out
		}
		for _, q := range p.Blocks[x].Preds {
			out = append(out, int(q))
		}
		return out
	}
	rpred := func(x int) []int {
		var out []int
		for _, e := range p.Blocks[x].Succs {
			out = append(out, int(e.To))
		}
		if isExit(p.Blocks[x].Term.Kind) {
			out = append(out, exit)
		}
		return out
	}
	idom := dominators(exit, n+1, rsucc, rpred)
	out := make([]int32, n)
	for i := 0; i < n; i++ {
		if idom[i] < 0 || idom[i] == exit {
			out[i] = NoBlock
		} else {
			out[i] = int32(idom[i])
		}
	}
	return out
}

// dominators runs the Cooper-Harvey-Kennedy iterative algorithm: the
// immediate dominator of every node reachable from root (-1 elsewhere;
// root's is root).
func dominators(root, n int, succ, pred func(int) []int) []int {
	order := postorder(root, n, succ)
	num := make([]int, n)
	for i := range num {
		num[i] = -1
	}
	for i, x := range order {
		num[x] = i
	}
	idom := make([]int, n)
	for i := range idom {
		idom[i] = -1
	}
	idom[root] = root
	intersect := func(a, b int) int {
		for a != b {
			for num[a] < num[b] {
				a = idom[a]
			}
			for num[b] < num[a] {
				b = idom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for i := len(order) - 1; i >= 0; i-- {
			x := order[i]
			if x == root {
				continue
			}
			nd := -1
			for _, q := range pred(x) {
				if num[q] < 0 || idom[q] < 0 {
					continue
				}
				if nd < 0 {
					nd = q
				} else {
					nd = intersect(q, nd)
				}
			}
			if nd >= 0 && idom[x] != nd {
				idom[x] = nd
				changed = true
			}
		}
	}
	return idom
}

// postorder lists the nodes reachable from start in depth-first postorder.
func postorder(start, n int, succ func(int) []int) []int {
	seen := make([]bool, n)
	var order []int
	type frame struct {
		x    int
		next []int
	}
	stack := []frame{{start, succ(start)}}
	seen[start] = true
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if len(top.next) == 0 {
			order = append(order, top.x)
			stack = stack[:len(stack)-1]
			continue
		}
		y := top.next[0]
		top.next = top.next[1:]
		if !seen[y] {
			seen[y] = true
			stack = append(stack, frame{y, succ(y)})
		}
	}
	return order
}

// loopDepths counts, for every block, the natural loops containing it
// (a back edge t->h where h dominates t defines one).
func loopDepths(p *Program) {
	n := len(p.Blocks)
	succ := func(x int) []int {
		var out []int
		for _, e := range p.Blocks[x].Succs {
			out = append(out, int(e.To))
		}
		return out
	}
	pred := func(x int) []int {
		var out []int
		for _, q := range p.Blocks[x].Preds {
			out = append(out, int(q))
		}
		return out
	}
	idom := dominators(0, n, succ, pred)
	dominates := func(a, b int) bool {
		for {
			if a == b {
				return true
			}
			if b == 0 || idom[b] < 0 || idom[b] == b {
				return false
			}
			b = idom[b]
		}
	}
	for t := 0; t < n; t++ {
		if idom[t] < 0 {
			continue
		}
		for _, e := range p.Blocks[t].Succs {
			h := int(e.To)
			if !dominates(h, t) {
				continue
			}
			in := map[int]bool{h: true}
			work := []int{t}
			for len(work) > 0 {
				x := work[len(work)-1]
				work = work[:len(work)-1]
				if in[x] {
					continue
				}
				in[x] = true
				for _, q := range p.Blocks[x].Preds {
					work = append(work, int(q))
				}
			}
			for x := range in {
				p.Blocks[x].LoopDepth++
			}
		}
	}
}
