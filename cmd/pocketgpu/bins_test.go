package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestBinsCommand(t *testing.T) {
	code, out, errOut := runCLI(t, "bins", "--gpu", "adreno-640", "--width", "1920", "--height", "1080", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"bin_width": 320.0, "bin_height": 368.0, "bins_x": 6.0, "bins_y": 3.0, "gmem_bytes": 1048576.0, "direct_rendering": false, "passes": 19.0, "bins_per_pipe": 1.0}
	for k, v := range want {
		if m[k] != v {
			t.Errorf("%s = %v, want %v", k, m[k], v)
		}
	}
	code, out, _ = runCLI(t, "bins", "--gpu", "640", "--width", "1920", "--height", "1080", "--color", "rgba16f", "--color", "rgba8", "--depth", "d32fs8", "--msaa", "4")
	if code != exitOK || !strings.Contains(out, "stencil (d32fs8)") || !strings.Contains(out, "bins ") || !strings.Contains(out, "passes") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	code, out, _ = runCLI(t, "bins", "--gpu", "../../gfx/testdata/gpus/adreno-1k-gmem.yaml", "--width", "64", "--height", "64", "--json")
	if code != exitOK || !strings.Contains(out, `"direct_rendering": true`) {
		t.Errorf("exit %d:\n%s", code, out)
	}
	code, out, _ = runCLI(t, "bins", "--gpu", "adreno-640", "--width", "1920", "--height", "1080")
	if code != exitOK {
		t.Fatal(out)
	}
	golden(t, "bins-adreno-640-1920x1080.txt", out)
}

func TestBinsCommandBadInput(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--gpu", "mali-g52", "--width", "64", "--height", "64"}, "mali-g52 (a bifrost GPU) has no GMEM bins to lay out: its tiling.scheme is tile_lists"},
		{[]string{"--gpu", "adreno-640", "--width", "64"}, `required flag(s) "height"`},
		{[]string{"--gpu", "adreno-640", "--width", "64", "--height", "64", "--color", "argb"}, `colour format "argb" is not known`},
		{[]string{"--gpu", "adreno-640", "--width", "64", "--height", "64", "--depth", "d8"}, `depth format "d8"`},
		{[]string{"--gpu", "adreno-640", "--width", "64", "--height", "64", "--msaa", "3"}, "--msaa 3"},
		{[]string{"--gpu", "adreno-640", "--width", "-5", "--height", "64"}, "at least 1"},
		{[]string{"--gpu", "adreno-640", "--width", "99999", "--height", "64"}, "limit of 16384"},
	}
	for _, tt := range tests {
		code, out, errOut := runCLI(t, append([]string{"bins"}, tt.args...)...)
		if code != exitBadInput || out != "" || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tt.args, code, out, errOut, tt.want)
		}
	}
}
