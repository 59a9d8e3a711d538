package doccmd

import (
	"reflect"
	"strings"
	"testing"
)

const doc = "# T\n\n```sh\ngo run ./cmd/x a \\\n    --b 1   # note\n# only a comment\ngo test ./...\n```\n\n" +
	"<!-- excerpt exit=2: go run ./cmd/x a -->\n```\nname   1\n...\ncount: 7\n```\n\n<!-- file: examples/a.yaml -->\n```yaml\nk: v\n```\n"

func TestParse(t *testing.T) {
	d, err := Parse("t.md", doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Blocks) != 3 {
		t.Fatalf("%d blocks", len(d.Blocks))
	}
	cmds := d.Commands()
	want := []Command{{Line: 4, Text: "go run ./cmd/x a --b 1"}, {Line: 7, Text: "go test ./..."}}
	if !reflect.DeepEqual(cmds, want) {
		t.Errorf("commands %+v, want %+v", cmds, want)
	}
	m := d.Blocks[1].Marker
	if m == nil || m.Kind != "excerpt" || m.Exit != 2 || m.Command != "go run ./cmd/x a" {
		t.Errorf("excerpt marker %+v", m)
	}
	if m := d.Blocks[2].Marker; m == nil || m.Kind != "file" || m.Path != "examples/a.yaml" {
		t.Errorf("file marker %+v", m)
	}
	if d.Blocks[0].Marker != nil {
		t.Errorf("sh block has marker %+v", d.Blocks[0].Marker)
	}
}

func TestParseErrors(t *testing.T) {
	for _, text := range []string{
		"```sh\nx\n",                             // never closed
		"<!-- excerpt exit=x: a -->\n```\n```\n", // bad exit
		"<!-- excerpt: -->\n```\n```\n",          // no command
	} {
		if _, err := Parse("t.md", text); err == nil {
			t.Errorf("%q: no error", text)
		}
	}
}

func TestSplit(t *testing.T) {
	got, err := Split(`run --name "a b" 'c' d`)
	if err != nil || !reflect.DeepEqual(got, []string{"run", "--name", "a b", "c", "d"}) {
		t.Errorf("%q %v", got, err)
	}
	if _, err := Split(`run "a`); err == nil {
		t.Error("unterminated quote accepted")
	}
}

func TestMatch(t *testing.T) {
	out := "name   1   \nother\ncount: 7\n"
	if miss, ok := Match([]string{"name   1", "...", "count: 7"}, out); !ok {
		t.Errorf("missing %q", miss)
	}
	if miss, ok := Match([]string{"count: 7", "name   1"}, out); ok || miss != "name   1" {
		t.Errorf("out-of-order excerpt matched (%q)", miss)
	}
	if _, ok := Match([]string{"count: 8"}, out); ok {
		t.Error("stale figure matched")
	}
}

func TestRefresh(t *testing.T) {
	out := "frame 0: 10 cycles\n  tiles   3 written\nframe 1: 12 cycles\n  tiles   0 written\noccupancy 50.0% of 384\n"
	got, err := Refresh([]string{"frame 1: 99 cycles", "  tiles   7 written", "occupancy 12.5% of 384"}, out)
	want := []string{"frame 1: 12 cycles", "  tiles   0 written", "occupancy 50.0% of 384"}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, %v; want %q", got, err, want)
	}
	if _, err := Refresh([]string{"nothing like it"}, out); err == nil {
		t.Error("refreshed a line with no counterpart")
	}
}

func TestReplace(t *testing.T) {
	d, err := Parse("t.md", doc)
	if err != nil {
		t.Fatal(err)
	}
	d.Replace(d.Blocks[1], []string{"a", "b", "c", "d"})
	d.Replace(d.Blocks[2], []string{"k: w"})
	text := d.Text()
	if !strings.Contains(text, "```\na\nb\nc\nd\n```") || !strings.Contains(text, "```yaml\nk: w\n```") {
		t.Errorf("replaced text:\n%s", text)
	}
	if _, err := Parse("t.md", text); err != nil {
		t.Error(err)
	}
}

// A block inside a list item is indented; its lines are compared without
// the indentation, which a replacement keeps.
func TestIndentedBlock(t *testing.T) {
	d, err := Parse("t.md", "- item\n\n  <!-- excerpt: x -->\n  ```\n  a: 1\n  ```\n")
	if err != nil {
		t.Fatal(err)
	}
	b := d.Blocks[0]
	if b.Marker == nil || b.Indent != "  " || !reflect.DeepEqual(b.Lines, []string{"a: 1"}) {
		t.Fatalf("block %+v", b)
	}
	d.Replace(b, []string{"a: 2"})
	if !strings.Contains(d.Text(), "  ```\n  a: 2\n  ```") {
		t.Errorf("replaced:\n%s", d.Text())
	}
}
