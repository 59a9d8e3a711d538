package isa

import (
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/internal/corpus"
	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/spirv"
)

func mustGPU(t testing.TB, name string) *arch.GPU {
	t.Helper()
	g, err := arch.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func buildSPIRV(t testing.TB, spv []byte, entry string) *ir.Program {
	t.Helper()
	m, err := spirv.Decode(spv)
	if err != nil {
		t.Fatal(err)
	}
	p, err := ir.Build(m, entry, ir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func corpusProgram(t testing.TB, name string) *ir.Program {
	t.Helper()
	c, ok := corpus.Lookup(name)
	if !ok || c.SPIRV == nil {
		t.Fatalf("corpus case %s missing", name)
	}
	return buildSPIRV(t, c.SPIRV, c.Entry)
}
