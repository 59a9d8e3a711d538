package main

import (
	"bytes"
	"go/format"
	"os"
	"testing"
)

// The committed files are what the table gives: run go generate in ir and
// in emu after changing it.
func TestGeneratedFilesCurrent(t *testing.T) {
	irSrc, emuSrc := sources()
	for _, c := range []struct {
		path, pkg string
		src       []byte
	}{{"../../op_gen.go", "ir", irSrc}, {"../../../emu/alu_gen.go", "emu", emuSrc}} {
		want, err := format.Source(c.src)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate ./%s", c.path, c.pkg)
		}
	}
}

// Each package writes only its own file.
func TestOutputStaysInPackage(t *testing.T) {
	for _, c := range []struct {
		pkg, out, goPackage string
		ok                  bool
	}{
		{"ir", "op_gen.go", "ir", true},
		{"emu", "alu_gen.go", "emu", true},
		{"emu", "alu_gen.go", "", true},
		{"emu", "../emu/alu_gen.go", "ir", false},
		{"emu", "alu_gen.go", "ir", false},
		{"emu", "sub/alu_gen.go", "emu", false},
		{"ir", "..", "ir", false},
		{"ir", "", "ir", false},
		{"isa", "x.go", "isa", false},
	} {
		if err := checkOutput(c.pkg, c.out, c.goPackage); (err == nil) != c.ok {
			t.Errorf("-pkg %s -o %q in package %q: %v", c.pkg, c.out, c.goPackage, err)
		}
	}
}
