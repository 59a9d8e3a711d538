package describe

import (
	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/probe"
)

// RegisterFit is the register file and allocation rule that reproduce a
// register sweep through the schema's occupancy rule (arch.GPU.Occupancy)
// on the base's cores, engines and warp widths.
type RegisterFit struct {
	FileBytesPerCore int  // register file of one core
	Granule          int  // register_granule
	Pow2             bool // register_alloc_pow2
	WarpSlots        int  // max_warps_per_engine
	// Overhead is the registers the compiler added to the kernels' own
	// values (the loop's counter and addresses): a nuisance the fit
	// finds along, not a property of the GPU.
	Overhead int
}

// FitRegisters finds the register file, granule, doubling rule and warp
// slots that give every point of the sweep its measured resident count,
// for some constant number of registers the compiler adds. Of the fits,
// it keeps the one that changes the fewest of the base's fields, then
// the one with the fewest added registers, then the smallest file. ok is
// false when nothing fits (or the sweep is empty).
func FitRegisters(sw *probe.RegisterSweep, base *arch.GPU) (RegisterFit, bool) {
	if sw == nil || len(sw.Points) == 0 || sw.WorkGroup > base.MaxWorkgroupSize {
		return RegisterFit{}, false
	}
	g := *base
	if base.UnifiedStore != nil {
		u := *base.UnifiedStore
		g.UnifiedStore = &u
	}
	setFile := func(bytes int) bool {
		if u := g.UnifiedStore; u != nil {
			per := u.Stores * u.RegisterBits / 8
			if per <= 0 || bytes%per != 0 {
				return false
			}
			u.Registers = bytes / per
			return true
		}
		if bytes%1024 != 0 {
			return false
		}
		g.RegisterFileKiB = bytes / 1024
		return true
	}
	matches := func(k int) bool {
		for _, p := range sw.Points {
			o, err := g.Occupancy(arch.OccupancyQuery{Regs: min(p.Values+k, g.MaxRegistersPerThread), WorkgroupSize: sw.WorkGroup})
			if err != nil || o.ResidentThreads != p.Resident {
				return false
			}
		}
		return true
	}
	// Warp slots: the base's, or what the lightest kernel's count gives
	// for each warp width (all engines of every core full).
	slots := []int{base.MaxWarpsPerEngine}
	cores, engines := max(base.Cores, 1), max(base.EnginesPerCore, 1)
	for _, w := range base.WarpSizes {
		t := sw.Points[0].Resident
		if t%(cores*engines*w) == 0 && !containsInt(slots, t/(cores*engines*w)) {
			slots = append(slots, t/(cores*engines*w))
		}
	}
	granules := []int{base.RegisterGranule}
	for _, gr := range []int{1, 2, 4, 8, 16, 32, 64} {
		if !containsInt(granules, gr) {
			granules = append(granules, gr)
		}
	}
	baseFile := base.RegisterFileBytesPerCore()
	var best RegisterFit
	bestCost := -1
	for _, s := range slots {
		for _, gr := range granules {
			for _, pow2 := range []bool{base.RegisterAllocPow2, !base.RegisterAllocPow2} {
				g.MaxWarpsPerEngine, g.RegisterGranule, g.RegisterAllocPow2 = s, gr, pow2
				for k := 0; k <= 16; k++ {
					// Register files: the base's, and for each point the
					// file its count would fill exactly at its allocation.
					files := []int{baseFile}
					for _, p := range sw.Points {
						a := alloc(min(p.Values+k, g.MaxRegistersPerThread), gr, pow2)
						f := p.Resident / cores * a * 4
						if f > 0 && !containsInt(files, f) {
							files = append(files, f)
						}
					}
					for _, f := range files {
						if !setFile(f) || !matches(k) {
							continue
						}
						cost := 0
						for _, differs := range []bool{f != baseFile, gr != base.RegisterGranule, pow2 != base.RegisterAllocPow2, s != base.MaxWarpsPerEngine} {
							if differs {
								cost++
							}
						}
						c := RegisterFit{FileBytesPerCore: f, Granule: gr, Pow2: pow2, WarpSlots: s, Overhead: k}
						if bestCost < 0 || cost < bestCost || (cost == bestCost && (k < best.Overhead || (k == best.Overhead && f < best.FileBytesPerCore))) {
							best, bestCost = c, cost
						}
					}
				}
			}
		}
	}
	return best, bestCost >= 0
}

// alloc is the schema's register allocation (arch's allocRegs): r
// registers rounded up to the granule, doubling when pow2.
func alloc(r, granule int, pow2 bool) int {
	gr := max(granule, 1)
	n := (max(r, 1) + gr - 1) / gr
	if pow2 {
		p := 1
		for p < n {
			p *= 2
		}
		n = p
	}
	return n * gr
}
