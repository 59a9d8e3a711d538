package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every mistake a new user made in the first hour (issue 10) exits 2 with
// one line in the user's terms, and is refused before any simulation.
func TestUserErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	vecadd := corpusDir + "vecadd.spv"
	vecArgs := []string{"--global", "1024", "--arg", "buf:f32:1024", "--arg", "buf:f32:1024", "--arg", "buf:f32:1024", "--arg", "u32:1024"}
	// spin never finishes: a check made after the simulation would hang
	// until the budget stops it, and the message would be the budget's.
	spin := []string{"run", "--gpu", "mali-g52", kdir + "spin.spv", "--global", "64", "--arg", "buf:u32:1=zero"}
	run := func(extra ...string) []string {
		return append(append([]string{"run", "--gpu", "mali-g52", vecadd}, vecArgs...), extra...)
	}
	zeroClock := write("zero-clock.yaml", "base: mali-g52\nclock_mhz: 0\n")
	zeroWarps := write("zero-warps.yaml", "base: mali-g52\nmax_warps_per_engine: 0\n")
	spv, _ := os.ReadFile(vecadd)
	write("k.spv", string(spv))
	jobTypo := write("typo.yaml", "gpu: mali-g52\nkernel: k.spv\nglobal: [64]\nargz: [u32:1]\n")
	jobType := write("type.yaml", "gpu: mali-g52\nkernel: k.spv\nglobal: many\n")
	jobZero := write("zero.yaml", "gpu: mali-g52\nkernel: k.spv\nglobal: [64]\nmax_instructions: 0\n")
	aFile := write("a-file", "x")
	colors := []string{"bins", "--gpu", "adreno-640", "--width", "64", "--height", "64"}
	for i := 0; i < 9; i++ {
		colors = append(colors, "--color", "rgba8")
	}

	for _, tt := range []struct {
		name string
		args []string
		want string // a substring of the one-line message
	}{
		{"zero clock in a GPU file", []string{"spec", zeroClock}, "clock_mhz: 0 is out of range"},
		{"zero warp slots in a GPU file", []string{"spec", zeroWarps}, "max_warps_per_engine: 0 is out of range"},
		{"job file key typo", []string{"run", jobTypo}, "typo.yaml:4: argz: unknown key (did you mean args?)"},
		{"job file wrong type", []string{"run", jobType}, `type.yaml:3: global: want up to three positive integers, like [1024] or [64, 64], got "many"`},
		{"job file zero budget", []string{"run", jobZero}, "max_instructions: 0 is out of range"},
		{"flag not an integer", []string{"occupancy", "--gpu", "mali-g52", "--regs", "abc"}, `--regs "abc": want an integer`},
		{"flag misspelt", []string{"occupancy", "--gpu", "mali-g52", "--regs", "8", "--wg-szie", "64"}, "unknown flag --wg-szie (did you mean --wg-size?)"},
		{"dump into a missing directory", append(spin, "--dump", "0="+filepath.Join(dir, "no", "x.bin")), "the directory " + filepath.Join(dir, "no") + " does not exist"},
		{"dump onto a directory", append(spin, "--dump", "0="+dir), "is a directory, want a file name"},
		{"demo out onto a file", []string{"demo", "--out", aFile}, "a file is in the way"},
		{"render out onto a file", []string{"render", "--gpu", "mali-g52", "cube", "--out", aFile}, "a file is in the way"},
		{"bench out onto a file", []string{"bench", "--gpu", "mali-g52", "--test", "rates", "--out", aFile}, "a file is in the way"},
		{"warp width the GPU lacks", run("--warp-width", "3"), "--warp-width 3: mali-g52 runs warps of 8 only"},
		{"warp width zero", run("--warp-width", "0"), "--warp-width 0: want a positive width"},
		{"analyze warp width zero", []string{"analyze", "--gpu", "adreno-640", vecadd, "--warp-width", "0"}, "--warp-width 0"},
		{"budget zero", run("--max-instructions", "0"), "want a positive number of warp instructions or unlimited"},
		{"work-group size zero", []string{"occupancy", "--gpu", "mali-g52", "--regs", "8", "--wg-size", "0"}, "--wg-size 0: want at least 1"},
		{"msaa zero", []string{"bins", "--gpu", "adreno-640", "--width", "64", "--height", "64", "--msaa", "0"}, "--msaa 0"},
		{"spec id the shader lacks", []string{"analyze", "--gpu", "mali-g52", corpusDir + "spec_glsl.spv", "--spec", "99=5"}, "specialization constant 99: the module has none with that SpecId; it has 0, 1 (SHIFT)"},
		{"spec id in a kernel without any", run("--spec", "99=5"), "specialization constant 99: the module has no specialization constants"},
		{"nine colour attachments", colors, "9 colour attachments: adreno-640 binds at most 8"},
		{"second GPU unknown", []string{"run", "--gpu", "mali-g52", "--gpu", "mali-g99", kdir + "spin.spv", "--global", "64", "--arg", "buf:u32:1=zero"}, `unknown GPU "mali-g99"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errOut := runCLI(t, tt.args...)
			if code != exitBadInput || !strings.Contains(errOut, tt.want) {
				t.Errorf("%v:\nexit %d, stderr %q\nwant exit 2 and %q", tt.args, code, errOut, tt.want)
			}
			if n := strings.Count(strings.TrimSpace(errOut), "\n"); n > 0 {
				t.Errorf("want one line, got %d:\n%s", n+1, errOut)
			}
			for _, leak := range []string{"strconv.", "main.Job", "!!str", "cannot unmarshal", "invalid argument"} {
				if strings.Contains(errOut, leak) {
					t.Errorf("message leaks %q: %s", leak, errOut)
				}
			}
		})
	}
}

// Help shows each flag's value by name once, never the back-quoted text of
// its usage ("--gpu pocketgpu gpus") or the name repeated at the end.
func TestFlagHelp(t *testing.T) {
	repeat := regexp.MustCompile(`^\s+(-\w, )?--\S+ (\S+)\s.*: ?(\S+)$`)
	for _, cmd := range []string{"run", "analyze", "bench", "bins", "compile", "demo", "layout", "occupancy", "render", "validate"} {
		code, out, _ := runCLI(t, cmd, "--help")
		if code != exitOK {
			t.Fatalf("%s --help: exit %d", cmd, code)
		}
		if strings.Contains(out, "pocketgpu gpus  ") || strings.Contains(out, "(default [])") {
			t.Errorf("%s --help:\n%s", cmd, out)
		}
		for _, line := range strings.Split(out, "\n") {
			if m := repeat.FindStringSubmatch(line); m != nil && m[2] == m[3] {
				t.Errorf("%s --help repeats %s: %s", cmd, m[2], line)
			}
			if strings.HasPrefix(line, "      --gpu ") && !strings.Contains(line, "--gpu GPU ") {
				t.Errorf("%s --help: %s", cmd, line)
			}
		}
	}
}

// Output polish: integers print as integers, labels say what a number is,
// one rounding rule, and a changed GPU is not named as its preset.
func TestOutputPolish(t *testing.T) {
	code, out, errOut := runCLI(t, "run", "--gpu", "mali-g52", corpusDir+"matmul.spv", "--global", "64,64", "--local", "8,8",
		"--arg", "buf:f32:4096=random:1", "--arg", "buf:f32:4096=random:2", "--arg", "buf:f32:4096", "--arg", "i32:64", "--arg", "i32:64", "--arg", "i32:64")
	if code != exitOK {
		t.Fatalf("run: exit %d: %s", code, errOut)
	}
	if strings.Contains(out, "e+") {
		t.Errorf("scientific notation in the run table:\n%s", out)
	}
	code, out, errOut = runCLI(t, "render", "--gpu", "mali-g52", "cube", "--width", "64", "--height", "48", "--out", t.TempDir())
	if code != exitOK || !regexp.MustCompile(`\d+ hits, \d+ misses, hit rate \d+\.\d%`).MatchString(out) {
		t.Errorf("render texture line (exit %d, %s):\n%s", code, errOut, out)
	}
	code, out, _ = runCLI(t, "occupancy", "--gpu", "adreno-640", "--regs", "60", "--wg-size", "256")
	if code != exitOK || !strings.Contains(out, "occupancy 12.5% of") || !strings.Contains(out, "(12.5% of 2048)") {
		t.Errorf("occupancy percentages disagree:\n%s", out)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "g52-mp4.yaml")
	os.WriteFile(p, []byte("base: mali-g52\ncores: 4\n"), 0o644)
	code, out, _ = runCLI(t, "spec", p)
	if code != exitOK || !strings.Contains(out, "Mali-G52 MP4 (custom: base mali-g52, cores 4)") {
		t.Errorf("derived name:\n%s", out)
	}
}
