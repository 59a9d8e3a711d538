package spirv

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzDecode checks that Decode never panics, that every error is a
// *DecodeError pointing inside the input, and that a module Decode accepts
// keeps its promises: Defs matches the instructions, every instruction's
// operands parse again, and it disassembles.
//
// The seed corpus is the test modules plus testdata/fuzz/FuzzDecode
// (truncations, bit flips, byte-swapped copies and crashers found so far).
// Run it with: go test ./spirv -run='^$' -fuzz=FuzzDecode -fuzztime=5m
func FuzzDecode(f *testing.F) {
	for _, name := range testModules {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Decode(b)
		if err != nil {
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("error %T is not a *DecodeError: %v", err, err)
			}
			if de.Offset < 0 || de.Offset > len(b)/4 {
				t.Fatalf("error offset %d outside the %d-word input: %v", de.Offset, len(b)/4, err)
			}
			return
		}
		if len(m.Defs) != int(m.Bound) {
			t.Fatalf("len(Defs) = %d, bound %d", len(m.Defs), m.Bound)
		}
		defs := 0
		for i := range m.Insts {
			in := &m.Insts[i]
			if in.Result != 0 {
				defs++
				if m.Defs[in.Result] != int32(i) {
					t.Fatalf("Defs[%d] = %d, want %d", in.Result, m.Defs[in.Result], i)
				}
			}
			if _, err := m.Operands(in); err != nil {
				t.Fatalf("instruction %d decoded but its operands do not parse again: %v", i, err)
			}
		}
		for id, d := range m.Defs {
			if d >= 0 {
				defs--
			}
			if d >= int32(len(m.Insts)) || (d >= 0 && m.Insts[d].Result != uint32(id)) {
				t.Fatalf("Defs[%d] = %d does not point at its definition", id, d)
			}
		}
		if defs != 0 {
			t.Fatalf("Defs and the instructions' results disagree by %d", defs)
		}
		_ = Disassemble(m)
	})
}
