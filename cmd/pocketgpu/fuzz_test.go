package main

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzCLI feeds random command lines (arguments separated by newlines) to
// the CLI. Whatever the arguments, pocketgpu must answer with an exit code
// and a message, never a panic (runCLI fails on a stack trace; a panic
// fails the fuzz target). Simulations run under an already-cancelled
// context and a small memory cap, so that every command gets through its
// argument checks and set-up, which is what is being fuzzed, without
// running for minutes; it runs in a temporary directory, so that output
// flags write nowhere that matters.
//
//	go test ./cmd/pocketgpu -run XXX -fuzz FuzzCLI -fuzztime 5m
func FuzzCLI(f *testing.F) {
	abs := func(p string) string {
		a, err := filepath.Abs(p)
		if err != nil {
			f.Fatal(err)
		}
		return a
	}
	vecadd, spin, spec := abs(corpusDir+"vecadd.spv"), abs(kdir+"spin.spv"), abs(corpusDir+"spec_glsl.spv")
	for _, args := range [][]string{
		{"gpus"},
		{"spec", "mali-g52", "--json"},
		{"spec", "7212"},
		{"occupancy", "--gpu", "adreno-640", "--regs", "60", "--wg-size", "256", "--local-bytes", "30000"},
		{"occupancy", "--gpu", "powervr-gx6250", "--regs", "40", "--wg-size", "8", "--barrier", "--fixed-wg-size"},
		{"run", "--gpu", "mali-g52", vecadd, "--global", "1024", "--local", "64", "--arg", "buf:f32:1024=random:1", "--arg", "buf:f32:1024", "--arg", "buf:f32:1024", "--arg", "u32:1024", "--print", "2:4"},
		{"run", "--gpu", "adreno-640", "--functional", spin, "--global", "4294967296", "--arg", "buf:u32:1=zero", "--max-instructions", "10"},
		{"run", "--gpu", "mali-g52", vecadd, "--global", "64,64,64", "--warp-width", "8", "--spec", "1=2", "--dump", "0=out.bin"},
		{"analyze", "--gpu", "mali-g52", "--gpu", "adreno-640", spec, "--spec", "1=5", "--json"},
		{"render", "--gpu", "mali-g52", "spheres", "--width", "64", "--height", "32", "--frames", "2", "--out", "frames"},
		{"render", "--gpu", "adreno-640", "cube", "--mode", "immediate", "--layout", "linear", "--camera-orbit", "5"},
		{"bins", "--gpu", "adreno-640", "--width", "1920", "--height", "1080", "--color", "rgba16f", "--depth", "d32fs8", "--msaa", "4"},
		{"layout", "u-interleaved", "--width", "64", "--height", "64", "--bpp", "4", "--texel", "17,3"},
		{"layout", "linear", "--width", "64", "--height", "64", "--bpp", "4", "--offset", "1000"},
		{"bench", "--gpu", "mali-g52", "--test", "latency-global", "--quick", "--jobs", "1"},
		{"validate", "--gpu", "adreno-640", "--json"},
		{"demo", "--out", "demo", "--gpu", "mali-g52"},
		{"version"},
		{"compile", "x.cl", "-o", "x.spv", "-D", "N=4"},
		{"run", "--gpu", "mali-g52", "--max-memory", "1KiB", vecadd, "--global", "1"},
	} {
		f.Add(strings.Join(args, "\n"))
	}
	f.Fuzz(func(t *testing.T, line string) {
		if len(line) > 4096 {
			return
		}
		t.Chdir(t.TempDir())
		args := strings.Split(line, "\n")
		ctx, cancel := context.WithCancelCause(context.Background())
		cancel(errInterrupted)
		// The memory cap comes first so that a fuzzed --max-memory later
		// on the line can still raise it (that path is checked too).
		args = append([]string{"--max-memory", "1GiB"}, args...)
		code := executeContext(ctx, args, io.Discard, panicCheck{t, args})
		switch code {
		case exitOK, exitFailure, exitBadInput, exitInterrupted:
		default:
			t.Errorf("%q: exit %d", args, code)
		}
	})
}

// panicCheck is a stderr that fails the test on a stack trace.
type panicCheck struct {
	t    *testing.T
	args []string
}

func (p panicCheck) Write(b []byte) (int, error) {
	if s := string(b); strings.Contains(s, "goroutine ") || strings.Contains(s, "panic:") {
		p.t.Errorf("%q: stack trace on stderr:\n%s", p.args, s)
	}
	return len(b), nil
}
