package device

import (
	"fmt"
	"path/filepath"
	"sort"

	"github.com/pocketgpu/pocketgpu/timing"
)

// Profile is a timed dispatch's cost per instruction and per source line
// (Options.Profile): what `pocketgpu run --hotspots` prints. How the
// engine charges cycles and memory work to instructions is in
// docs/timing.md ("Attribution"); the figures add up to the dispatch's
// counters.
type Profile struct {
	Kernel string `json:"kernel"`
	// HasLines says whether the module carries source lines (compiled
	// with -g); without them only the instruction table means anything.
	HasLines bool `json:"has_lines"`
	// Totals over every instruction.
	Total Cost `json:"total"`
	// Instructions lists every instruction of the kernel: IR
	// instructions in program order, then each block's terminator.
	Instructions []InstProfile `json:"instructions"`
}

// Cost is what an instruction or a source line cost.
type Cost struct {
	// Execs are warp executions, Threads the active lanes summed over them.
	Execs   uint64 `json:"warp_executions"`
	Threads uint64 `json:"thread_executions"`
	// Issue cycles: its share of the engines' issue time.
	IssueCycles float64 `json:"issue_cycles"`
	// StallCycles are the engine stall cycles it caused, by cause
	// (memory, texture, dependency, pipe, barrier, bank_conflict,
	// instruction_fetch; "other" for the few the engine gives no cause).
	StallCycles map[string]float64 `json:"stall_cycles,omitempty"`
	// WaitCycles are the stall cycles warps spent waiting to issue it.
	WaitCycles float64 `json:"wait_cycles"`
	// Memory requests (warp instructions) and what the hierarchy did
	// serving them.
	Requests        uint64  `json:"mem_requests"`
	L1Accesses      int64   `json:"l1_accesses"`
	L1Misses        int64   `json:"l1_misses"`
	TextureAccesses int64   `json:"texture_cache_accesses"`
	TextureMisses   int64   `json:"texture_cache_misses"`
	L2Accesses      int64   `json:"l2_accesses"`
	L2Misses        int64   `json:"l2_misses"`
	DRAMBytes       int64   `json:"dram_bytes"`
	ConflictCycles  float64 `json:"bank_conflict_cycles"`
}

// Cycles are the engine cycles it accounts for: issue plus the stalls it
// caused. Hot spots are ranked by them.
func (c *Cost) Cycles() float64 { return c.IssueCycles + c.Stalls() }

// Stalls are its stall cycles over all causes.
func (c *Cost) Stalls() float64 {
	var s float64
	for _, v := range c.StallCycles {
		s += v
	}
	return s
}

// TopStall is the cause of most of its stall cycles ("" without stalls;
// ties go to the cause first by name).
func (c *Cost) TopStall() string {
	best, bv := "", 0.0
	for _, k := range sortedKeys(c.StallCycles) {
		if v := c.StallCycles[k]; v > bv {
			best, bv = k, v
		}
	}
	return best
}

// Misses are its cache misses at every level (L1, texture, L2).
func (c *Cost) Misses() int64 { return c.L1Misses + c.TextureMisses + c.L2Misses }

func (c *Cost) add(o *Cost) {
	c.Execs += o.Execs
	c.Threads += o.Threads
	c.IssueCycles += o.IssueCycles
	for k, v := range o.StallCycles {
		if c.StallCycles == nil {
			c.StallCycles = map[string]float64{}
		}
		c.StallCycles[k] += v
	}
	c.WaitCycles += o.WaitCycles
	c.Requests += o.Requests
	c.L1Accesses += o.L1Accesses
	c.L1Misses += o.L1Misses
	c.TextureAccesses += o.TextureAccesses
	c.TextureMisses += o.TextureMisses
	c.L2Accesses += o.L2Accesses
	c.L2Misses += o.L2Misses
	c.DRAMBytes += o.DRAMBytes
	c.ConflictCycles += o.ConflictCycles
}

// InstProfile is one instruction's cost and where it comes from.
type InstProfile struct {
	Index int `json:"index"`
	Block int `json:"block"`
	// Op is the executor's operation (FMulF32, LoadGlobal32 ...), or the
	// terminator's kind (branch, cond, return, barrier ...).
	Op string `json:"op"`
	// SPIRV is the SPIR-V instruction it was built from ("OpLoad %27"),
	// Name that instruction's OpName, Word its word offset in the module.
	SPIRV string `json:"spirv"`
	Name  string `json:"name,omitempty"`
	Word  int    `json:"word"`
	// File and Line are its source position (0: none).
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	Cost
}

// LineProfile is the cost of one source line: its instructions' summed.
type LineProfile struct {
	File string `json:"file"`
	Line int    `json:"line"` // 0: instructions without a position
	Cost
	// Instructions are the indices of its instructions in
	// Profile.Instructions.
	Instructions []int `json:"instructions"`
}

// Lines sums the instructions by source line: files in the order their
// first instruction appears, lines in order; instructions without a
// position form a last line 0 when they cost anything.
func (p *Profile) Lines() []LineProfile {
	type key struct {
		file string
		line int
	}
	idx := map[key]int{}
	fileOrder := map[string]int{}
	var out []LineProfile
	for i := range p.Instructions {
		in := &p.Instructions[i]
		k := key{in.File, in.Line}
		if in.Line == 0 {
			k = key{}
		}
		if _, ok := fileOrder[k.file]; !ok && k.line > 0 {
			fileOrder[k.file] = len(fileOrder)
		}
		j, ok := idx[k]
		if !ok {
			j = len(out)
			idx[k] = j
			out = append(out, LineProfile{File: k.file, Line: k.line})
		}
		out[j].add(&in.Cost)
		out[j].Instructions = append(out[j].Instructions, i)
	}
	kept := out[:0]
	for _, l := range out {
		if l.Line > 0 || l.Cycles() > 0 || l.Requests > 0 {
			kept = append(kept, l)
		}
	}
	sort.SliceStable(kept, func(a, b int) bool {
		la, lb := kept[a], kept[b]
		if (la.Line == 0) != (lb.Line == 0) {
			return lb.Line == 0
		}
		if la.File != lb.File {
			return fileOrder[la.File] < fileOrder[lb.File]
		}
		return la.Line < lb.Line
	})
	return kept
}

// Hottest returns the indices of lines in order of the cycles they account
// for, most first (ties: source order).
func Hottest(lines []LineProfile) []int {
	order := make([]int, len(lines))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return lines[order[a]].Cycles() > lines[order[b]].Cycles() })
	return order
}

// profileOf turns the engine's profile into the device's.
func profileOf(tp *timing.Profile) *Profile {
	p := &Profile{Kernel: tp.Kernel}
	prog := tp.Program.IR
	blockOf := make([]int, len(prog.Code))
	for b := range prog.Blocks {
		for pc := prog.Blocks[b].Start; pc < prog.Blocks[b].End; pc++ {
			blockOf[pc] = b
		}
	}
	for i := range tp.Entries {
		e := &tp.Entries[i]
		s := tp.Site(i)
		in := InstProfile{Index: i, SPIRV: s.Op.String(), Name: s.Name, Word: s.Offset}
		if s.Result != 0 {
			in.SPIRV = fmt.Sprintf("%s %%%d", s.Op, s.Result)
		}
		if s.Line > 0 {
			in.File, in.Line = filepath.Clean(s.File), s.Line
			p.HasLines = true
		}
		if b, ok := tp.Terminator(i); ok {
			in.Block, in.Op = b, prog.Blocks[b].Term.Kind.String()
		} else {
			in.Block, in.Op = blockOf[i], prog.Code[i].Op.String()
		}
		in.Cost = Cost{Execs: e.Execs, Threads: e.Threads, IssueCycles: e.Issue, WaitCycles: e.Wait, Requests: e.Requests,
			L1Accesses: e.Mem.L1Accesses, L1Misses: e.Mem.L1Misses, TextureAccesses: e.Mem.TextureAccesses, TextureMisses: e.Mem.TextureMisses,
			L2Accesses: e.Mem.L2Accesses, L2Misses: e.Mem.L2Misses, DRAMBytes: e.Mem.DRAMBytes, ConflictCycles: e.Conflicts}
		for c, v := range e.Stall {
			if v == 0 {
				continue
			}
			name := timing.Cause(c).String()
			if timing.Cause(c) == timing.StallNone || timing.Cause(c) == timing.StallNoWarp {
				name = "other"
			}
			if in.StallCycles == nil {
				in.StallCycles = map[string]float64{}
			}
			in.StallCycles[name] += v
		}
		p.Total.add(&in.Cost)
		p.Instructions = append(p.Instructions, in)
	}
	return p
}

func sortedKeys(m map[string]float64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
