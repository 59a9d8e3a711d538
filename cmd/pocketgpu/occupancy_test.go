package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func occupancyOf(t *testing.T, args ...string) map[string]any {
	t.Helper()
	code, out, errOut := runCLI(t, append([]string{"occupancy", "--json"}, args...)...)
	if code != exitOK {
		t.Fatalf("%v: exit %d: %s", args, code, errOut)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	return m
}

func TestOccupancyCommand(t *testing.T) {
	tests := []struct {
		args []string
		want map[string]any
	}{
		{[]string{"--gpu", "mali-g52", "--regs", "33"}, map[string]any{"resident_threads": 384.0, "resident_warps": 48.0, "resident_threads_per_core": 192.0, "limited_by": "registers"}},
		{[]string{"--gpu", "mali-g52", "--regs", "32"}, map[string]any{"resident_threads": 768.0, "limited_by": "warp slots"}},
		{[]string{"--gpu", "powervr-gx6250", "--regs", "40"}, map[string]any{"resident_threads_per_core": 512.0, "warp_width": 32.0}},
		{[]string{"--gpu", "powervr-gx6250", "--regs", "8", "--wg-size", "8", "--barrier"}, map[string]any{"resident_threads_per_core": 384.0, "limited_by": "workgroup packing"}},
		{[]string{"--gpu", "powervr-gx6250", "--regs", "8", "--wg-size", "8", "--barrier", "--fixed-wg-size"}, map[string]any{"resident_threads_per_core": 1536.0}},
		{[]string{"--gpu", "adreno-640", "--regs", "8"}, map[string]any{"warp_width": 128.0, "resident_threads": 12288.0}},
		{[]string{"--gpu", "adreno-640", "--regs", "40"}, map[string]any{"warp_width": 64.0, "limited_by": "registers"}},
		{[]string{"--gpu", "0x7212", "--regs", "16", "--wg-size", "64", "--local-bytes", "1024"}, map[string]any{"resident_threads_per_core": 64.0, "limited_by": "local memory"}},
	}
	for _, tt := range tests {
		got := occupancyOf(t, tt.args...)
		for k, v := range tt.want {
			if got[k] != v {
				t.Errorf("%v: %s = %v, want %v", tt.args, k, got[k], v)
			}
		}
	}

	code, out, errOut := runCLI(t, "occupancy", "--gpu", "mali-g52", "--regs", "33")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden(t, "occupancy-mali-g52-33.txt", out)
}

func TestOccupancyCommandBadInput(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--gpu", "mali-g52"}, `required flag(s) "regs"`},
		{[]string{"--regs", "8"}, `required flag(s) "gpu"`},
		{[]string{"--gpu", "mali-g52", "--regs", "0"}, "--regs: 0 is out of range"},
		{[]string{"--gpu", "mali-g52", "--regs", "65"}, "--regs: 65 is out of range"},
		{[]string{"--gpu", "mali-g52", "--regs", "many"}, `--regs "many": want an integer`},
		{[]string{"--gpu", "mali-g52", "--regs", "8", "--local-bytes", "512"}, "--wg-size: local memory is allocated per work-group"},
		{[]string{"--gpu", "mali-g52", "--regs", "8", "--wg-size", "64", "--local-bytes", "65536"}, "--local-bytes: 65536 is out of range"},
		{[]string{"--gpu", "powervr-gx6250", "--regs", "8", "--wg-size", "1024"}, "1 to 512"},
		{[]string{"--gpu", "mali-g52", "--regs", "40", "--wg-size", "384"}, "--wg-size: a work-group of 384 threads"},
		{[]string{"--gpu", "mali-g5", "--regs", "8"}, "nearest presets"},
		{[]string{"--gpu", "mali-g52", "--regs", "8", "extra"}, "unknown command"},
	}
	for _, tt := range tests {
		code, out, errOut := runCLI(t, append([]string{"occupancy"}, tt.args...)...)
		if code != exitBadInput || out != "" || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tt.args, code, out, errOut, tt.want)
		}
	}
}
