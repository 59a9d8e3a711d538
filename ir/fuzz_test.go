package ir

import (
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/internal/corpus"
	"github.com/pocketgpu/pocketgpu/spirv"
)

// FuzzBuild lowers every entry point of whatever decodes. The builder must
// answer with an *Error, never crash; an "internal error" (a recovered
// panic) counts as a failure so that fuzzing finds the hole.
func FuzzBuild(f *testing.F) {
	for _, b := range corpus.SPIRVSeeds("../cmd/pocketgpu/testdata/kernels/*.spv", "../spirv/testdata/*.spv") {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := spirv.Decode(data)
		if err != nil {
			return
		}
		for _, ep := range m.EntryPoints {
			p, err := Build(m, ep.Name, Options{})
			if err != nil {
				if strings.Contains(err.Error(), "internal error") {
					t.Fatalf("entry %q: %v", ep.Name, err)
				}
				continue
			}
			p.Registers()
			_ = p.String()
		}
	})
}
