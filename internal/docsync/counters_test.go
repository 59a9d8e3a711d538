package docsync_test

import (
	"flag"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/pocketgpu/pocketgpu/counters"
	"github.com/pocketgpu/pocketgpu/internal/docsync"

	// The packages that measure counters register their parts.
	_ "github.com/pocketgpu/pocketgpu/gfx"
	_ "github.com/pocketgpu/pocketgpu/timing"
)

var updateCountersDoc = flag.Bool("update-counters-doc", false, "rewrite the generated counter tables in docs/counters.md")

// Every part of the counter model has its table in docs/counters.md,
// generated from its definitions.
func TestCountersDoc(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "counters.md")
	parts := counters.Parts()
	if len(parts) < 6 {
		t.Fatalf("%d counter parts registered; want the engine's, memory's (each GPU-wide and per core), rendering's and copies'", len(parts))
	}
	for _, p := range parts {
		begin := "<!-- BEGIN GENERATED counters " + p.Key + " by `go test ./internal/docsync -run TestCountersDoc -update-counters-doc`; do not edit by hand -->"
		end := "<!-- END GENERATED counters " + p.Key + " -->"
		docsync.Check(t, path, begin, end, counters.DocTable(p), *updateCountersDoc, "run go test ./internal/docsync -run TestCountersDoc -update-counters-doc")
	}
}

var snake = regexp.MustCompile(`^[a-z][a-z0-9_]*(<[a-z]+>[a-z0-9_]*)?$`)

// Counter names are snake_case (with at most one <placeholder>), each has
// a meaning, and percentages say so in their name.
func TestCounterDefs(t *testing.T) {
	for _, p := range counters.Parts() {
		for _, d := range p.Defs {
			if !snake.MatchString(d.Name) || d.Doc == "" {
				t.Errorf("%s: bad counter %+v", p.Key, d)
			}
			if (d.Unit == "%") != (len(d.Name) > 4 && d.Name[len(d.Name)-4:] == "_pct") {
				t.Errorf("%s: %s has unit %q; percentages and only they end in _pct", p.Key, d.Name, d.Unit)
			}
		}
	}
}
