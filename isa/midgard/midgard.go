// Package midgard is the Arm Mali Midgard family's code generator: VLIW
// bundles filled by a list scheduler (schedule.go), and the bundle counts
// of the static report.
package midgard

import (
	"fmt"
	"strconv"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/isa"
)

// Family is Midgard's isa.Family.
type Family struct{}

// Rules are arch's rules for Midgard.
func (Family) Rules() arch.FamilyRules {
	r, _ := arch.RulesOf(arch.Midgard)
	return r
}

// Schedule packs a block into bundles.
func (Family) Schedule(b *isa.BlockCode) []isa.Group { return schedule(b) }

// Report counts bundles.
type Report struct {
	Bundles       int     `json:"bundles"`
	OpsPerBundle  float64 `json:"ops_per_bundle"`
	MessageBundle int     `json:"message_bundles"`
}

// Report gives the bundles of a lowered kernel.
func (Family) Report(lp *isa.Program, _ arch.Occupancy) isa.FamilyReport {
	mr := &Report{}
	ops := 0
	for _, blk := range lp.Blocks {
		for _, gr := range blk.Groups {
			mr.Bundles++
			ops += int(gr.Ops)
			if len(gr.Mem)+len(gr.Spill) > 0 {
				mr.MessageBundle++
			}
		}
	}
	if mr.Bundles > 0 {
		mr.OpsPerBundle = isa.Round3(float64(ops) / float64(mr.Bundles))
	}
	return isa.FamilyReport{Key: "midgard", Details: mr, Rows: []isa.ReportRow{{
		Label: "bundles",
		Value: fmt.Sprintf("%d (%s ops a bundle)", mr.Bundles, strconv.FormatFloat(mr.OpsPerBundle, 'f', -1, 64)),
	}}}
}
