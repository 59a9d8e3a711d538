package bench

import (
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
)

// TestFittedNamesFigures: every `fitted:` tag in a preset names a figure
// of figures.yaml, and the description of the GPU that figure was measured
// on carries the tag (a figure calibrates the GPU it was measured on; a
// preset that inherits the fitted value from its base is not fitted to
// it).
func TestFittedNamesFigures(t *testing.T) {
	figs, err := Figures()
	if err != nil {
		t.Fatal(err)
	}
	gpuOf := map[string]string{}
	for _, f := range figs {
		gpuOf[f.ID] = f.GPU
	}
	type tag struct{ figure, gpu string }
	carried := map[tag]bool{}
	for _, g := range arch.Presets() {
		for id, paths := range g.Fitted() {
			if _, ok := gpuOf[id]; !ok {
				t.Errorf("%s: %v fitted to %q, which is not a figure of bench/figures.yaml", g.ID, paths, id)
			}
			carried[tag{id, g.ID}] = true
		}
	}
	for tg := range carried {
		if gpu := gpuOf[tg.figure]; gpu != "" && !carried[tag{tg.figure, gpu}] {
			t.Errorf("figure %s was measured on %s, whose description does not carry its fitted tag (%s's does)", tg.figure, gpu, tg.gpu)
		}
	}
}
