package isa_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/pocketgpu/pocketgpu/internal/corpus"
	"github.com/pocketgpu/pocketgpu/isa/internal/isatest"
)

func TestZZDumpRegs(t *testing.T) {
	f, _ := os.Create(os.Getenv("REGS_OUT"))
	defer f.Close()
	for _, c := range corpus.Cases() {
		if c.SPIRV == nil {
			continue
		}
		p := isatest.BuildSPIRV(t, c.SPIRV, c.Entry)
		fmt.Fprintf(f, "%s %d %d\n", c.Name, p.Registers(), p.PrivateBytes)
	}
}
