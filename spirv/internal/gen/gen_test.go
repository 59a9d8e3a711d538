package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

const grammarDir = "/usr/include/spirv/unified1"

// TestCommittedTablesAreCurrent regenerates the tables and compares them with
// the committed spirv/tables.go, so a grammar update or a generator change
// cannot go unnoticed.
func TestCommittedTablesAreCurrent(t *testing.T) {
	if _, err := os.Stat(filepath.Join(grammarDir, coreFile)); err != nil {
		t.Skip("SPIR-V grammar JSON not found: install spirv-headers")
	}
	got, err := Generate(grammarDir)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("..", "..", "tables.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("spirv/tables.go differs from the generator's output: run go generate ./spirv")
	}
}

func TestGenerateErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Generate(dir); err == nil {
		t.Error("no error for a directory without grammar files")
	}
	// A grammar whose two enumerants share a Go name must be refused.
	write := func(name, s string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(openCLFile, `{"version":100,"revision":1,"instructions":[{"opname":"a","opcode":0,"operands":[]}]}`)
	write(glslFile, `{"version":100,"revision":1,"instructions":[{"opname":"A","opcode":0,"operands":[]}]}`)
	for _, tc := range []struct{ name, core, want string }{
		{"clash", `{"major_version":1,"minor_version":6,"revision":1,"instructions":[],"operand_kinds":[
			{"category":"ValueEnum","kind":"Foo","enumerants":[{"enumerant":"Bar","value":1},{"enumerant":"Bar","value":2}]}]}`,
			"identifier FooBar already declared"},
		{"multi-bit flag", `{"major_version":1,"minor_version":6,"revision":1,"instructions":[],"operand_kinds":[
			{"category":"BitEnum","kind":"Foo","enumerants":[{"enumerant":"Bar","value":"0x0003"}]}]}`,
			"several bits set"},
		{"unknown operand kind", `{"major_version":1,"minor_version":6,"revision":1,"operand_kinds":[],"instructions":[
			{"opname":"OpX","opcode":1,"operands":[{"kind":"Nope"}]}]}`,
			"unknown kind"},
		{"not JSON", `{`, "unexpected end"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			write(coreFile, tc.core)
			_, err := Generate(dir)
			if err == nil || !bytes.Contains([]byte(err.Error()), []byte(tc.want)) {
				t.Errorf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}
