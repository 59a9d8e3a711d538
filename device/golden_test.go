package device

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/internal/corpus"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/timing.golden from this build")

// TestTimingGolden times every corpus kernel on every preset and compares
// the cycles and every counter with testdata/timing.golden, to the last
// digit. Speed work and refactors must leave the model's answers alone:
// a change that moves them shows here, and its commit says why (then
// `go test ./device -run TestTimingGolden -update` records the new
// figures).
func TestTimingGolden(t *testing.T) {
	var out strings.Builder
	for _, g := range arch.Presets() {
		for _, c := range corpus.Cases() {
			if c.SPIRV == nil {
				continue
			}
			fmt.Fprintf(&out, "%s %s: %s\n", g.ID, c.Name, goldenRun(t, g, c))
		}
	}
	path := filepath.Join("testdata", "timing.golden")
	if *updateGolden {
		if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to record it)", err)
	}
	got := strings.Split(out.String(), "\n")
	wl := strings.Split(string(want), "\n")
	if len(got) != len(wl) {
		t.Errorf("%d lines, the golden has %d", len(got), len(wl))
	}
	bad := 0
	for i := range min(len(got), len(wl)) {
		if got[i] != wl[i] {
			if bad++; bad <= 10 {
				t.Errorf("line %d:\n got  %s\n want %s", i+1, got[i], wl[i])
			}
		}
	}
	if bad > 10 {
		t.Errorf("... %d lines differ in all", bad)
	}
}

// goldenRun times one corpus case on g on a fresh device and formats its
// cycles and counters (or the error the launch gave).
func goldenRun(t *testing.T, g *arch.GPU, c corpus.Case) string {
	r, err := corpusTimed(t, g, c, Options{})
	if err != nil {
		return err.Error()
	}
	var s strings.Builder
	fmt.Fprintf(&s, "cycles=%v", r.Timing.Cycles)
	for _, it := range r.Timing.Counters {
		fmt.Fprintf(&s, " %s=%v", it.Name, it.Value)
	}
	return s.String()
}

// loadCorpusCase loads corpus case c on dev and binds its inputs; a case
// the device refuses gives its error, saying which step.
func loadCorpusCase(t testing.TB, dev *Device, c corpus.Case) (*Kernel, NDRange, *Bound, error) {
	t.Helper()
	var nd NDRange
	nd.Dims = len(c.Global)
	copy(nd.Global[:], c.Global)
	copy(nd.Local[:], c.Local)
	k, err := dev.Load(c.SPIRV, c.Entry, LoadOptions{})
	if err != nil {
		return nil, nd, nil, fmt.Errorf("load: %w", err)
	}
	specs, in, err := c.Inputs()
	if err != nil {
		t.Fatal(err)
	}
	b, err := dev.BindSpecs(k, specs, in)
	if err != nil {
		return nil, nd, nil, fmt.Errorf("bind: %w", err)
	}
	return k, nd, b, nil
}
