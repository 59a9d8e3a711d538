package main

import (
	"bytes"
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestParseByteSize(t *testing.T) {
	for s, want := range map[string]uint64{"512MiB": 512 << 20, "4GiB": 4 << 30, "2GB": 2e9, "1.5g": 3 << 29, "1000": 1000, "64 kb": 64000} {
		if got, err := parseByteSize(s); err != nil || got != want {
			t.Errorf("%q: %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"", "x", "-1GiB", "1e30GB", "GiB"} {
		if _, err := parseByteSize(s); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
	if got := formatBytes(3 << 29); got != "1.5 GiB" {
		t.Errorf("formatBytes = %q", got)
	}
}

// The watchdog cancels with the cap as the cause once the live heap passes it.
func TestWatchMemory(t *testing.T) {
	ctx, stop := watchMemory(context.Background(), 64<<20)
	defer stop()
	var hold [][]byte
	deadline := time.Now().Add(10 * time.Second)
	for ctx.Err() == nil && time.Now().Before(deadline) {
		hold = append(hold, make([]byte, 8<<20))
		runtime.GC()
		time.Sleep(20 * time.Millisecond)
	}
	var capErr *memoryCapError
	if !errors.As(context.Cause(ctx), &capErr) || capErr.live <= 64<<20 {
		t.Fatalf("cause %v after holding %d MiB", context.Cause(ctx), 8*len(hold))
	}
	runtime.KeepAlive(hold)
}

// runInterrupted runs a command line and presses Ctrl-C (cancels with
// errInterrupted) after the given time.
func runInterrupted(t *testing.T, after time.Duration, args ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithCancelCause(context.Background())
	timer := time.AfterFunc(after, func() { cancel(errInterrupted) })
	defer timer.Stop()
	var out, errOut bytes.Buffer
	code := executeContext(ctx, args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// Ctrl-C during a run or a render prints what was done, marked partial,
// and exits 130.
func TestInterruptPrintsPartial(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"run timed", []string{"run", "--gpu", "mali-g52", corpusDir + "fma8.spv", "--global", "65536",
			"--arg", "buf:f32:65536", "--arg", "u32:100000", "--arg", "f32:1"},
			[]string{"PARTIAL: interrupted", "warp instructions", "cycles"}},
		{"run functional json", []string{"run", "--gpu", "adreno-640", "--functional", "--json", corpusDir + "fma8.spv", "--global", "65536",
			"--arg", "buf:f32:65536", "--arg", "u32:100000", "--arg", "f32:1"},
			[]string{`"partial": "interrupted`}},
		{"render", []string{"render", "--gpu", "mali-g52", "spheres:4000", "--width", "128", "--height", "128", "--frames", "200", "--out", t.TempDir()},
			[]string{"frame 0:", "PARTIAL: interrupted in frame"}},
	} {
		start := time.Now()
		code, out, errOut := runInterrupted(t, 1500*time.Millisecond, tc.args...)
		if code != exitInterrupted {
			t.Errorf("%s: exit %d, want %d\n%s", tc.name, code, exitInterrupted, errOut)
		}
		if el := time.Since(start); el > 5*time.Second {
			t.Errorf("%s: took %v after the interrupt at 1.5 s", tc.name, el)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: output lacks %q:\n%s", tc.name, w, out)
			}
		}
		if !strings.Contains(errOut, "interrupted") {
			t.Errorf("%s: stderr %q", tc.name, errOut)
		}
	}
}

// Runs that cannot fit or finish are refused before any work; those that
// will take long are announced.
func TestUpFrontEstimates(t *testing.T) {
	code, _, errOut := runCLI(t, "render", "--max-memory", "1GiB", "--gpu", "mali-g52", "spheres", "--width", "16384", "--height", "16384", "--out", t.TempDir())
	if code != exitBadInput || !strings.Contains(errOut, "16384x16384 render needs about 6.") || !strings.Contains(errOut, "--max-memory 1 GiB") {
		t.Errorf("render over the memory cap: exit %d: %s", code, errOut)
	}
	code, _, errOut = runCLI(t, "run", "--gpu", "mali-g52", corpusDir+"fma8.spv", "--global", "4096", "--max-instructions", "100",
		"--arg", "buf:f32:4096", "--arg", "u32:1", "--arg", "f32:1")
	if code != exitBadInput || !strings.Contains(errOut, "over its budget of 100") {
		t.Errorf("launch over its budget: exit %d: %s", code, errOut)
	}
	code, _, errOut = runInterrupted(t, 200*time.Millisecond, "run", "--gpu", "mali-g52", "--functional", kdir+"spin.spv", "--global", "4294967296",
		"--arg", "buf:u32:1")
	if code != exitInterrupted || !strings.Contains(errOut, "4294967296 work-items in 536870912 warps need at least") {
		t.Errorf("huge launch: exit %d: %s", code, errOut)
	}
}
