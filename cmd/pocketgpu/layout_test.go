package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func layoutJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	code, out, errOut := runCLI(t, append([]string{"layout"}, append(args, "--json")...)...)
	if code != exitOK {
		t.Fatalf("%v: exit %d: %s", args, code, errOut)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestLayoutCommand(t *testing.T) {
	// Texel (17,3): tile (1,0), index 0b1110 = 14 (x1^y1=1, y1=1, x0^y0=0,
	// y0=1): (256 + 14) × 4 bytes.
	m := layoutJSON(t, "u-interleaved", "--width", "100", "--height", "50", "--bpp", "4", "--texel", "17,3")
	if m["offset"] != 1080.0 || m["index_in_tile"] != 14.0 {
		t.Errorf("u-interleaved --texel: %v", m)
	}
	m = layoutJSON(t, "u-interleaved", "--width", "100", "--height", "50", "--bpp", "4", "--offset", "1082")
	if tx, ok := m["texel"].([]any); !ok || tx[0] != 17.0 || tx[1] != 3.0 || m["byte_in_texel"] != 2.0 {
		t.Errorf("u-interleaved --offset: %v", m)
	}
	m = layoutJSON(t, "linear", "--width", "100", "--height", "50", "--bpp", "4", "--texel", "17,3")
	if m["offset"] != 1268.0 || m["tile"] != nil {
		t.Errorf("linear --texel: %v", m)
	}
	m = layoutJSON(t, "linear", "--width", "100", "--height", "50", "--bpp", "4", "--offset", "1268")
	if tx := m["texel"].([]any); tx[0] != 17.0 || tx[1] != 3.0 {
		t.Errorf("linear --offset: %v", m)
	}
	code, out, _ := runCLI(t, "layout", "u-interleaved", "--width", "100", "--height", "50", "--bpp", "4", "--texel", "17,3")
	if code != exitOK || !strings.Contains(out, "is at byte offset 1080") {
		t.Errorf("exit %d: %s", code, out)
	}
}

func TestLayoutCommandBadInput(t *testing.T) {
	base := []string{"--width", "100", "--height", "50", "--bpp", "4"}
	tests := []struct {
		args []string
		want string
	}{
		{append([]string{"morton"}, append(base, "--texel", "1,1")...), "unknown layout"},
		{append([]string{"linear"}, base...), "exactly one of --texel"},
		{append([]string{"linear"}, append(base, "--texel", "1,1", "--offset", "4")...), "exactly one of --texel"},
		{append([]string{"linear"}, append(base, "--texel", "100,0")...), "outside the 100x50 image"},
		{append([]string{"linear"}, append(base, "--texel", "a,b")...), "give X,Y"},
		{append([]string{"linear"}, append(base, "--offset", "20000")...), "outside the image's 20000 bytes"},
		// Texel (100,0) is padding: tile 6, index 16 (x2^y2 = 1).
		{append([]string{"u-interleaved"}, append(base, "--offset", "6208")...), "falls in the padding"},
		{[]string{"linear", "--width", "0", "--height", "1", "--bpp", "4", "--offset", "0"}, "at least 1"},
		{[]string{"linear", "--width", "1", "--height", "1", "--offset", "0"}, `required flag(s) "bpp"`},
	}
	for _, tt := range tests {
		code, out, errOut := runCLI(t, append([]string{"layout"}, tt.args...)...)
		if code != exitBadInput || out != "" || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tt.args, code, out, errOut, tt.want)
		}
	}
}
