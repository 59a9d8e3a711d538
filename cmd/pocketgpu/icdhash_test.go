package main

import (
	"os"
	"path/filepath"
	"testing"
)

// The ICD's build cache is named by a hash of the source: a tree of links
// to the checkout (as the doc test makes) hashes the same as the checkout,
// and an edit behind a link changes it.
func TestSourceHashFollowsLinks(t *testing.T) {
	real := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(real, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module x\n")
	write("opencl/a.go", "package opencl\n")
	write("opencl/a_test.go", "package opencl // not hashed\n")
	write("docs/x.go", "package docs // not hashed\n")
	links := t.TempDir()
	for _, name := range []string{"go.mod", "opencl", "docs"} {
		if err := os.Symlink(filepath.Join(real, name), filepath.Join(links, name)); err != nil {
			t.Fatal(err)
		}
	}
	a, err := sourceHash(real)
	if err != nil {
		t.Fatal(err)
	}
	b, err := sourceHash(links)
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Errorf("the linked tree hashes %s, the checkout %s", b, a)
	}
	write("opencl/a.go", "package opencl\n\nvar edited = 1\n")
	c, err := sourceHash(links)
	if err != nil {
		t.Fatal(err)
	}
	if c == b {
		t.Error("an edit behind a link left the hash unchanged")
	}
	write("opencl/a_test.go", "package opencl // edited, still not hashed\n")
	if d, _ := sourceHash(links); d != c {
		t.Error("a test file changed the hash")
	}
}
