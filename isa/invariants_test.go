package isa_test

import (
	"github.com/pocketgpu/pocketgpu/isa/families"
	"github.com/pocketgpu/pocketgpu/isa/internal/isatest"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/internal/corpus"
)

// Every corpus kernel lowers on every preset, and the result keeps the
// contract the timing engine relies on: every IR instruction in exactly one
// group of its block, the terminator in the block's last group, messages in
// program order, code laid out without gaps, costs positive, and on Bifrost
// the clause rules.
func TestCorpusInvariants(t *testing.T) {
	for _, c := range corpus.Cases() {
		if c.SPIRV == nil {
			continue
		}
		p := isatest.BuildSPIRV(t, c.SPIRV, c.Entry)
		for _, g := range arch.Presets() {
			lp, err := families.Lower(p, g, 0)
			if err != nil {
				t.Errorf("%s on %s: %v", c.Name, g.ID, err)
				continue
			}
			isatest.CheckInvariants(t, c.Name+" on "+g.ID, lp)
		}
	}
}
