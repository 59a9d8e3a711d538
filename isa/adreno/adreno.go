// Package adreno is the Qualcomm Adreno family's code generator (seeds 000,
// 001, 004): one group per IR instruction, as ir3 issues them. An ALU
// instruction covers up to adreno.repeat_max components of a vector
// operation (ir3's (rptN)); it issues in one cycle and keeps its pipe busy
// for IssueCycles — a wave128 FP32 instruction two cycles on a 64-wide
// partition, FP16 one, the SFU 1/8 rate on its own pipe, integer adds 1/2,
// 64-bit integers 1/4, the 615's fused FMA hundreds of cycles. The
// 615/530's emulated INT8 is its expands_to sequence (an INT32 operation and
// an AND).
package adreno

import (
	"fmt"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/isa"
)

// Family is Adreno's isa.Family.
type Family struct{}

// Rules are arch's rules for Adreno.
func (Family) Rules() arch.FamilyRules {
	r, _ := arch.RulesOf(arch.Adreno)
	return r
}

// Schedule issues a block an instruction at a time.
func (Family) Schedule(b *isa.BlockCode) []isa.Group {
	return isa.SerialBlock(b, isa.SerialRules{
		IssueCycles:      1,
		InstructionBytes: max(b.GPU.Adreno.InstructionBits/8, 1),
	})
}

// Pack: (rptN) repeats one instruction over up to repeat_max registers,
// whatever the class.
func (Family) Pack(g *arch.GPU, _ string) int { return g.Adreno.RepeatMax }

// Report gives the wave size the occupancy rules chose.
type Report struct {
	WaveSize        int `json:"wave_size"`
	WavesPerUSPTP   int `json:"waves_per_usptp"`
	RegistersPerVec int `json:"vec4_registers"`
}

// Report gives the wave size and how many waves a uSPTP holds.
func (Family) Report(lp *isa.Program, occ arch.Occupancy) isa.FamilyReport {
	r := &Report{WaveSize: lp.WarpWidth, WavesPerUSPTP: occ.ResidentWarpsPerCore, RegistersPerVec: (lp.Regs + 3) / 4}
	return isa.FamilyReport{Key: "adreno", Details: r, Rows: []isa.ReportRow{{
		Label: "wave size",
		Value: fmt.Sprintf("%d (%d waves/uSPTP)", r.WaveSize, r.WavesPerUSPTP),
	}}}
}
