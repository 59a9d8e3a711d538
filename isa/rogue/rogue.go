// Package rogue is the Imagination PowerVR Rogue family's code generator
// (seed 003 §Unified Shading Cluster): one group per IR instruction. A task
// of 32 threads on 16 pipes issues half a task a cycle, so every
// instruction holds the issue port ceil(task / lanes) = 2 cycles; memory
// messages take one issue per burst of at most l1.burst_bytes (seed 003
// §System Memory Access). Two independent operations of a class whose pack
// allows it (FP32 2, FP16 4: co-issue on one pipe) share one instruction
// and its group.
package rogue

import (
	"fmt"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/isa"
)

// Family is Rogue's isa.Family.
type Family struct{}

// Rules are arch's rules for Rogue.
func (Family) Rules() arch.FamilyRules {
	r, _ := arch.RulesOf(arch.Rogue)
	return r
}

// Schedule issues a block an instruction at a time, co-issuing pairs.
func (Family) Schedule(b *isa.BlockCode) []isa.Group {
	r := b.GPU.Rogue
	burst := 0
	if l1 := b.GPU.L1; l1 != nil {
		burst = l1.BurstBytes
	}
	return isa.SerialBlock(b, isa.SerialRules{
		IssueCycles:      b.IssueCycles(),
		CoIssue:          true,
		BurstBytes:       burst,
		InstructionBytes: max(r.InstructionBits/8, 1),
	})
}

// Report gives the unified-store use.
type Report struct {
	UnifiedStoreRegisters int     `json:"unified_store_registers"`
	RegisterBits          int     `json:"register_bits"`
	PerTaskRegisters      int     `json:"registers_per_task"`
	ResidentTasks         int     `json:"resident_tasks_per_usc"`
	StoreShare            float64 `json:"unified_store_share"`
}

// Report gives a task's registers in the unified store and how many tasks
// it holds.
func (Family) Report(lp *isa.Program, occ arch.Occupancy) isa.FamilyReport {
	g := lp.GPU
	u := g.UnifiedStore
	if u == nil {
		return isa.FamilyReport{}
	}
	rb := u.RegisterBits
	us := (lp.Regs*32 + rb - 1) / rb
	rr := &Report{UnifiedStoreRegisters: us, RegisterBits: rb, PerTaskRegisters: us * lp.WarpWidth, ResidentTasks: occ.ResidentWarpsPerCore}
	if total := u.Stores * u.Registers; total > 0 {
		rr.StoreShare = isa.Round3(float64(rr.PerTaskRegisters*occ.ResidentWarpsPerCore) / float64(total))
	}
	return isa.FamilyReport{Key: "rogue", Details: rr, Rows: []isa.ReportRow{{
		Label: "unified store",
		Value: fmt.Sprintf("%d × %d-bit regs/thread, %d tasks/USC (%.1f%%)", rr.UnifiedStoreRegisters, rr.RegisterBits, rr.ResidentTasks, rr.StoreShare*100),
	}}}
}
