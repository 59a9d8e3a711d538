package bench

import (
	"math"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
)

// TestSuiteOnEveryPreset: every test that applies to a preset gives points
// on it (a kernel whose work-group does not fit is run smaller, as an
// OpenCL host would, not dropped). Short sweeps; skipped with -short.
func TestSuiteOnEveryPreset(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the quick suite on every preset (-short)")
	}
	// The package's three long tests run side by side: on two cores the
	// package then stays well inside go test's 10 minutes.
	t.Parallel()
	var jobs []Job
	for _, g := range arch.Presets() {
		for _, tt := range suite {
			if tt.AppliesTo(g) {
				jobs = append(jobs, Job{Test: tt, GPU: g})
			}
		}
	}
	rs, err := RunJobs(jobs, Options{Quick: true}, 2)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rs {
		j := jobs[i]
		n := 0
		for _, s := range r.Series {
			for _, p := range s.Points {
				if math.IsNaN(p.Y) || math.IsInf(p.Y, 0) || p.Y < 0 {
					t.Errorf("%s on %s: point %q is %v", j.Test.Name, j.GPU.ID, p.Label, p.Y)
				}
				n++
			}
		}
		if n == 0 {
			t.Errorf("%s on %s: no points", j.Test.Name, j.GPU.ID)
		}
	}
}
