package mem

import (
	"flag"
	"fmt"
	"github.com/pocketgpu/pocketgpu/internal/docsync"
	"path/filepath"
	"strings"
	"testing"
)

var updateCountersDoc = flag.Bool("update-counters-doc", false, "rewrite the generated memory-counter tables in docs/counters.md")

const (
	countersBegin = "<!-- BEGIN GENERATED memory counters by `go test ./timing/mem -run TestCountersDoc -update-counters-doc`; do not edit by hand -->"
	countersEnd   = "<!-- END GENERATED memory counters -->"
)

// allLevels is a Counters with every optional level present, so that the
// documentation lists every name.
func allLevels() Counters {
	return Counters{Cores: 1, CoreRequests: []int64{0}, L2PathBytes: []int64{0}, L1: []CacheCounters{{}}, SLC: &CacheCounters{}, Local: []LocalCounters{{}}}
}

func countersTable() string {
	var b strings.Builder
	row := func(it Item) {
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", it.Name, it.Unit, strings.ReplaceAll(it.Doc, "|", `\|`))
	}
	b.WriteString("GPU-wide (levels a GPU lacks are left out):\n\n| counter | unit | meaning |\n|---|---|---|\n")
	for _, it := range allLevels().Items(1) {
		row(it)
	}
	b.WriteString("\nPer core:\n\n| counter | unit | meaning |\n|---|---|---|\n")
	for _, it := range allLevels().CoreItems(0) {
		row(it)
	}
	return b.String()
}

func TestCountersDoc(t *testing.T) {
	docsync.Check(t, filepath.Join("..", "..", "docs", "counters.md"), countersBegin, countersEnd, countersTable(), *updateCountersDoc, "run go test ./timing/mem -run TestCountersDoc -update-counters-doc")
}

// Counter names are unique and follow the snake_case of the other counters.
func TestCounterNames(t *testing.T) {
	seen := map[string]bool{}
	for _, it := range allLevels().Items(1) {
		if seen[it.Name] || it.Name != strings.ToLower(it.Name) || strings.ContainsAny(it.Name, " -.") || it.Doc == "" || it.Unit == "" {
			t.Errorf("bad or repeated counter %+v", it)
		}
		seen[it.Name] = true
	}
}
