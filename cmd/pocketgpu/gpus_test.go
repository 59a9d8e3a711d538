package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
)

var updateArchGoldens = flag.Bool("update-arch-goldens", false, "rewrite the gpus/spec/occupancy goldens in testdata/arch")

// runCLI runs pocketgpu with args and returns the exit code and outputs.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := execute(args, &out, &errOut)
	if strings.Contains(errOut.String(), "goroutine ") || strings.Contains(errOut.String(), "panic:") {
		t.Fatalf("%v: stack trace on stderr:\n%s", args, errOut.String())
	}
	return code, out.String(), errOut.String()
}

// golden compares got with testdata/arch/name, rewriting it with
// -update-arch-goldens.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "arch", name)
	if *updateArchGoldens {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update-arch-goldens to create it)", err, t.Name())
	}
	if got != string(want) {
		t.Errorf("output differs from %s (rerun with -update-arch-goldens if the change is intended)\n--- got ---\n%s", path, got)
	}
}

func TestGPUsCommand(t *testing.T) {
	code, out, errOut := runCLI(t, "gpus")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden(t, "gpus.txt", out)

	code, out, errOut = runCLI(t, "gpus", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var list []map[string]any
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	ids := arch.PresetIDs()
	if len(list) != len(ids) {
		t.Fatalf("%d GPUs listed, want %d", len(list), len(ids))
	}
	for i, g := range list {
		if g["id"] != ids[i] || g["family"] == "" || g["vendor"] == "" {
			t.Errorf("entry %d = %v", i, g)
		}
	}
	if list[6]["id"] != "mali-g52" || list[6]["panfrost_gpu_id"] != "0x7212" || list[6]["family"] != "bifrost" || list[6]["vendor"] != "arm" {
		t.Errorf("mali-g52 entry = %v", list[6])
	}
}

func TestGPUsCommandBadInput(t *testing.T) {
	for _, args := range [][]string{{"gpus", "extra"}, {"gpus", "--jsn"}} {
		code, _, errOut := runCLI(t, args...)
		if code != exitBadInput || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 with a message", args, code, errOut)
		}
	}
}
