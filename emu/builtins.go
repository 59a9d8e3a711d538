package emu

import "github.com/pocketgpu/pocketgpu/spirv"

// fillBuiltins writes every builtin's per-lane values: local ids are
// counted up lane by lane (no divisions), a builtin that is the same in
// every lane is computed once. In a packed warp the count restarts at each
// work-group's first lane.
func (w *Warp) fillBuiltins() {
	for _, b := range w.prog.Builtins {
		mask := maskFor(b.Bits)
		for c := 0; c < b.N; c++ {
			s := w.slot(b.Slot + int32(c))
			switch b.Builtin {
			case spirv.BuiltInGlobalInvocationId, spirv.BuiltInLocalInvocationId, spirv.BuiltInLocalInvocationIndex:
				w.fillLocalCount(s, b.Builtin, min(c, 2), mask)
			case spirv.BuiltInSubgroupLocalInvocationId:
				seg := w.width
				if w.seg > 0 {
					seg = w.seg
				}
				for l := range s {
					s[l] = uint64(l%seg) & mask
				}
			default:
				if w.uniformBuiltin(b.Builtin) {
					v := w.builtin(b.Builtin, 0, c) & mask
					for l := range s {
						s[l] = v
					}
					continue
				}
				// Rare builtins: one value per lane the slow way.
				for l := range s {
					s[l] = w.builtin(b.Builtin, l, c) & mask
				}
			}
		}
	}
}

// fillLocalCount writes component c of the global id, the local id or the
// local index into slot s, counting local ids up from the warp's first
// lane (again from 0 at each of a packed warp's work-groups).
func (w *Warp) fillLocalCount(s []uint64, b spirv.BuiltIn, c int, mask uint64) {
	d := w.d
	ls := d.Local
	x, y, z := w.firstLocal%ls[0], w.firstLocal/ls[0]%ls[1], w.firstLocal/(ls[0]*ls[1])
	i := w.firstLocal
	if w.seg == 0 && x+len(s) <= ls[0] {
		// The warp lies in one row of its work-group: x counts up with
		// the lane, y and z stay.
		first := [3]int{x, y, z}[c]
		if b == spirv.BuiltInGlobalInvocationId {
			first += w.wg.ID[c]*ls[c] + d.Offset[c]
		}
		if c > 0 && b != spirv.BuiltInLocalInvocationIndex {
			v := uint64(first) & mask
			for l := range s {
				s[l] = v
			}
			return
		}
		if b == spirv.BuiltInLocalInvocationIndex {
			first = i
		}
		for l := range s {
			s[l] = uint64(first+l) & mask
		}
		return
	}
	base := 0 // the work-group's first global id in dimension c
	group := -1
	for l := range s {
		if w.seg > 0 && l%w.seg == 0 {
			x, y, z, i = 0, 0, 0, 0
		}
		if g := w.member(l); g != group && b == spirv.BuiltInGlobalInvocationId {
			group = g
			id := w.wg.ID
			if w.seg > 0 {
				id = w.wg.ids[min(g, len(w.wg.ids)-1)]
			}
			base = id[c]*ls[c] + d.Offset[c]
		}
		var v int
		switch b {
		case spirv.BuiltInLocalInvocationIndex:
			v = i
		case spirv.BuiltInGlobalInvocationId:
			v = base + [3]int{x, y, z}[c]
		default:
			v = [3]int{x, y, z}[c]
		}
		s[l] = uint64(v) & mask
		i++
		if x++; x == ls[0] {
			x = 0
			if y++; y == ls[1] {
				y, z = 0, z+1
			}
		}
	}
}

// uniformBuiltin says whether builtin b has one value in every lane of the
// warp (the dispatcher's own, in a warp of one work-group).
func (w *Warp) uniformBuiltin(b spirv.BuiltIn) bool {
	if w.d.Builtin != nil {
		return false
	}
	switch b {
	case spirv.BuiltInWorkgroupId:
		return w.seg == 0
	case spirv.BuiltInNumWorkgroups, spirv.BuiltInWorkgroupSize, spirv.BuiltInEnqueuedWorkgroupSize,
		spirv.BuiltInGlobalSize, spirv.BuiltInGlobalOffset, spirv.BuiltInWorkDim, spirv.BuiltInSubgroupSize,
		spirv.BuiltInSubgroupMaxSize, spirv.BuiltInNumSubgroups, spirv.BuiltInNumEnqueuedSubgroups, spirv.BuiltInSubgroupId:
		return true
	}
	return false
}

func maskFor(bits int) uint64 {
	if bits >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(bits) - 1
}

func knownBuiltin(b spirv.BuiltIn) bool {
	switch b {
	case spirv.BuiltInGlobalInvocationId, spirv.BuiltInLocalInvocationId, spirv.BuiltInWorkgroupId,
		spirv.BuiltInNumWorkgroups, spirv.BuiltInWorkgroupSize, spirv.BuiltInEnqueuedWorkgroupSize,
		spirv.BuiltInGlobalSize, spirv.BuiltInGlobalOffset, spirv.BuiltInWorkDim, spirv.BuiltInLocalInvocationIndex,
		spirv.BuiltInGlobalLinearId, spirv.BuiltInSubgroupSize, spirv.BuiltInSubgroupMaxSize, spirv.BuiltInNumSubgroups,
		spirv.BuiltInNumEnqueuedSubgroups, spirv.BuiltInSubgroupId, spirv.BuiltInSubgroupLocalInvocationId:
		return true
	}
	return false
}

// builtin computes a compute builtin for lane l, component c.
func (w *Warp) builtin(b spirv.BuiltIn, l, c int) uint64 {
	d := w.d
	if d.Builtin != nil {
		if v, ok := d.Builtin(b, w, l, c); ok {
			return v
		}
	}
	c3 := min(c, 2)
	switch b {
	case spirv.BuiltInGlobalInvocationId:
		return uint64(w.globalID(l)[c3])
	case spirv.BuiltInLocalInvocationId:
		return uint64(w.localID(l)[c3])
	case spirv.BuiltInWorkgroupId:
		return uint64(w.groupID(l)[c3])
	case spirv.BuiltInNumWorkgroups:
		return uint64(d.groups[c3])
	case spirv.BuiltInWorkgroupSize, spirv.BuiltInEnqueuedWorkgroupSize:
		return uint64(d.Local[c3])
	case spirv.BuiltInGlobalSize:
		return uint64(d.Global[c3])
	case spirv.BuiltInGlobalOffset:
		return uint64(d.Offset[c3])
	case spirv.BuiltInWorkDim:
		return uint64(d.Dims)
	case spirv.BuiltInLocalInvocationIndex:
		return uint64(w.localIndex(l))
	case spirv.BuiltInGlobalLinearId:
		g := w.globalID(l)
		for k := range g {
			g[k] -= d.Offset[k]
		}
		return uint64(g[0] + d.Global[0]*(g[1]+d.Global[1]*g[2]))
	case spirv.BuiltInSubgroupSize, spirv.BuiltInSubgroupMaxSize:
		if w.seg > 0 {
			// A packed work-group is one sub-group of its own.
			return uint64(d.wgSize)
		}
		return uint64(w.width)
	case spirv.BuiltInNumSubgroups, spirv.BuiltInNumEnqueuedSubgroups:
		return uint64(d.WarpsPerGroup())
	case spirv.BuiltInSubgroupId:
		return uint64(w.index)
	case spirv.BuiltInSubgroupLocalInvocationId:
		if w.seg > 0 {
			return uint64(l % w.seg)
		}
		return uint64(l)
	}
	return 0
}
