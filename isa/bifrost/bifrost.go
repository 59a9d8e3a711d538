// Package bifrost is the Arm Mali Bifrost family's code generator: machine
// operations packed into FMA+FADD tuples and tuples into clauses under the
// real rules (schedule.go), and the clause counts of the static report.
package bifrost

import (
	"fmt"
	"strconv"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/isa"
)

// Family is Bifrost's isa.Family.
type Family struct{}

// Rules are arch's rules for Bifrost.
func (Family) Rules() arch.FamilyRules {
	r, _ := arch.RulesOf(arch.Bifrost)
	return r
}

// Schedule packs a block into clauses.
func (Family) Schedule(b *isa.BlockCode) []isa.Group { return schedule(b) }

// Report counts clauses and tuples.
type Report struct {
	Clauses          int     `json:"clauses"`
	Tuples           int     `json:"tuples"`
	TuplesPerClause  float64 `json:"tuples_per_clause"`
	OpsPerTuple      float64 `json:"ops_per_tuple"`
	MessagesInClause int     `json:"message_clauses"`
}

// Report gives the clauses and tuples of a lowered kernel.
func (Family) Report(lp *isa.Program, _ arch.Occupancy) isa.FamilyReport {
	br := &Report{}
	ops := 0
	for _, blk := range lp.Blocks {
		for _, gr := range blk.Groups {
			br.Clauses++
			br.Tuples += int(gr.Tuples)
			ops += int(gr.Ops)
			if len(gr.Mem)+len(gr.Spill) > 0 {
				br.MessagesInClause++
			}
		}
	}
	if br.Clauses > 0 {
		br.TuplesPerClause = isa.Round3(float64(br.Tuples) / float64(br.Clauses))
	}
	if br.Tuples > 0 {
		br.OpsPerTuple = isa.Round3(float64(ops) / float64(br.Tuples))
	}
	return isa.FamilyReport{Key: "bifrost", Details: br, Rows: []isa.ReportRow{{
		Label: "clauses / tuples",
		Value: fmt.Sprintf("%d / %d (%s ops a tuple)", br.Clauses, br.Tuples, strconv.FormatFloat(br.OpsPerTuple, 'f', -1, 64)),
	}}}
}
