package kernel

import (
	"encoding/binary"
	"fmt"

	"github.com/pocketgpu/pocketgpu/spirv"
)

// orderBlocks puts every function's blocks in reverse postorder from its
// entry block, so that each block comes after the blocks that dominate it,
// as SPIR-V requires. llvm-spirv-14 keeps LLVM's block order, which after
// full optimization can place a block before its dominator; the module is
// otherwise valid, and this is the only change made to it. Blocks no path
// reaches keep their relative order at the end.
func orderBlocks(b []byte) ([]byte, error) {
	m, err := spirv.Decode(b)
	if err != nil {
		return nil, err
	}
	words := make([]uint32, len(b)/4)
	for i := range words {
		words[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	span := func(in *spirv.Inst) []uint32 {
		n := int(words[in.Offset] >> 16)
		return words[in.Offset : in.Offset+n]
	}
	out := append([]uint32(nil), words[:5]...)
	insts := m.Insts
	for i := 0; i < len(insts); i++ {
		if insts[i].Op != spirv.OpFunction {
			out = append(out, span(&insts[i])...)
			continue
		}
		// The function: its header up to the first label, its blocks, its end.
		j := i
		for j < len(insts) && insts[j].Op != spirv.OpLabel && insts[j].Op != spirv.OpFunctionEnd {
			out = append(out, span(&insts[j])...)
			j++
		}
		var blocks [][2]int // [first, last] instruction of each block
		for j < len(insts) && insts[j].Op == spirv.OpLabel {
			k := j + 1
			for k < len(insts) && insts[k].Op != spirv.OpLabel && insts[k].Op != spirv.OpFunctionEnd {
				k++
			}
			blocks = append(blocks, [2]int{j, k - 1})
			j = k
		}
		if j >= len(insts) || insts[j].Op != spirv.OpFunctionEnd {
			return nil, fmt.Errorf("function %%%d has no OpFunctionEnd", insts[i].Result)
		}
		order, err := reversePostorder(m, insts, blocks)
		if err != nil {
			return nil, err
		}
		for _, bi := range order {
			for k := blocks[bi][0]; k <= blocks[bi][1]; k++ {
				out = append(out, span(&insts[k])...)
			}
		}
		out = append(out, span(&insts[j])...)
		i = j
	}
	res := make([]byte, 4*len(out))
	for i, w := range out {
		binary.LittleEndian.PutUint32(res[4*i:], w)
	}
	return res, nil
}

// reversePostorder orders a function's blocks (given as instruction ranges
// starting with their OpLabel) depth-first from the first.
func reversePostorder(m *spirv.Module, insts []spirv.Inst, blocks [][2]int) ([]int, error) {
	if len(blocks) == 0 {
		return nil, nil // a declaration (an imported function) has no blocks
	}
	index := map[uint32]int{}
	for bi, r := range blocks {
		index[insts[r[0]].Result] = bi
	}
	succs := make([][]int, len(blocks))
	for bi, r := range blocks {
		for _, label := range successors(m, &insts[r[1]]) {
			s, ok := index[label]
			if !ok {
				return nil, fmt.Errorf("block %%%d branches to %%%d, not a block of its function", insts[r[0]].Result, label)
			}
			succs[bi] = append(succs[bi], s)
		}
	}
	seen := make([]bool, len(blocks))
	var post []int
	// Iterative depth-first search: a kernel can have thousands of blocks
	// after unrolling.
	type frame struct{ b, next int }
	stack := []frame{{0, 0}}
	seen[0] = true
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next < len(succs[top.b]) {
			s := succs[top.b][top.next]
			top.next++
			if !seen[s] {
				seen[s] = true
				stack = append(stack, frame{s, 0})
			}
			continue
		}
		post = append(post, top.b)
		stack = stack[:len(stack)-1]
	}
	order := make([]int, 0, len(blocks))
	for k := len(post) - 1; k >= 0; k-- {
		order = append(order, post[k])
	}
	for bi := range blocks {
		if !seen[bi] {
			order = append(order, bi)
		}
	}
	return order, nil
}

// successors are the labels a block's terminator (and merge instruction)
// may go to.
func successors(m *spirv.Module, term *spirv.Inst) []uint32 {
	ops := term.Operands
	switch term.Op {
	case spirv.OpBranch:
		if len(ops) >= 1 {
			return ops[:1]
		}
	case spirv.OpBranchConditional:
		if len(ops) >= 3 {
			return ops[1:3]
		}
	case spirv.OpSwitch:
		if len(ops) < 2 {
			return nil
		}
		width := 1 // literal words per case: 2 for a 64-bit selector
		if sel := m.Def(ops[0]); sel != nil {
			if t := m.Def(sel.Type); t != nil && t.Op == spirv.OpTypeInt && len(t.Operands) > 0 && t.Operands[0] == 64 {
				width = 2
			}
		}
		out := []uint32{ops[1]}
		for k := 2 + width; k < len(ops); k += width + 1 {
			out = append(out, ops[k])
		}
		return out
	}
	return nil
}
