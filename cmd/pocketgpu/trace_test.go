package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/timing/trace"
)

// run --trace writes a trace that decodes, with a track group per GPU, the
// engines' issue slices adding up to the run's groups_issued, and the
// same bytes for the same run.
func TestRunTrace(t *testing.T) {
	dir := t.TempDir()
	args := func(file string) []string {
		a := append([]string{"run", "--gpu", "mali-g52", "--gpu", "powervr-gx6250", kdir + "hotspot.spv"}, hotspotArgs()...)
		return append(a, "--json", "--trace", file, "--trace-interval", "200")
	}
	a, b := filepath.Join(dir, "a.pftrace"), filepath.Join(dir, "b.pftrace")
	code, out, errOut := runCLI(t, args(a)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "wrote trace "+a) {
		t.Errorf("stderr does not say where the trace went: %s", errOut)
	}
	data, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	d, slices, err := trace.DecodeSlices(data)
	if err != nil {
		t.Fatal(err)
	}
	groups := map[string]uint64{}
	for _, s := range slices {
		p := d.Path(s.Track)
		if gpu, rest, _ := strings.Cut(p, "/"); strings.HasPrefix(rest, "Core ") && strings.Contains(rest, "/engine ") {
			groups[gpu] += s.Args["groups"].(uint64)
		}
	}
	for _, gpu := range []string{"mali-g52", "powervr-gx6250"} {
		// The JSON's counters for this GPU's run.
		i := strings.Index(out, `"gpu": "`+gpu+`"`)
		j := strings.Index(out[i:], `"groups_issued": `)
		var want uint64
		for _, c := range out[i+j+len(`"groups_issued": `):] {
			if c < '0' || c > '9' {
				break
			}
			want = want*10 + uint64(c-'0')
		}
		if i < 0 || j < 0 || groups[gpu] != want || want == 0 {
			t.Errorf("%s: issue slices hold %d groups, groups_issued %d", gpu, groups[gpu], want)
		}
	}
	if code, _, errOut := runCLI(t, args(b)...); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if again, _ := os.ReadFile(b); !bytes.Equal(data, again) {
		t.Error("the same run gave a different trace")
	}
}

// Bad --trace values exit 2 with a message and leave no file behind.
func TestTraceBadInput(t *testing.T) {
	dir := t.TempDir()
	run := []string{"run", "--gpu", "mali-g52", kdir + "early_exit.spv", "--global", "64", "--arg", "buf:u32:64", "--arg", "u32:64"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--trace", filepath.Join(dir, "no", "such", "dir.pftrace")}, "--trace " + filepath.Join(dir, "no", "such", "dir.pftrace") + ": no such file or directory"},
		{[]string{"--trace", filepath.Join(dir, "t.pftrace"), "--trace-interval", "0"}, "--trace-interval 0: want a number of cycles, 1 or more"},
		{[]string{"--trace", filepath.Join(dir, "t.pftrace"), "--trace-interval", "NaN"}, "--trace-interval NaN"},
		{[]string{"--trace-interval", "100"}, "--trace-interval needs --trace FILE"},
		{[]string{"--trace", filepath.Join(dir, "t.pftrace"), "--functional"}, "--functional has none"},
	} {
		code, _, errOut := runCLI(t, append(append([]string{}, run...), tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
	for _, cmd := range [][]string{{"bench", "--gpu", "mali-g52", "--test", "rates"}, {"render", "--gpu", "mali-g52", "spheres"}, {"demo"}} {
		code, _, errOut := runCLI(t, append(cmd, "--trace", "x.pftrace", "--trace-interval", "-5")...)
		if code != 2 || !strings.Contains(errOut, "--trace-interval -5") {
			t.Errorf("%v: exit %d, %q", cmd, code, errOut)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "t.pftrace")); err == nil {
		t.Error("a refused run left its trace file")
	}
}
