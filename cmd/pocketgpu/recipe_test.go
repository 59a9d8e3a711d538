package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/isa"
	"github.com/pocketgpu/pocketgpu/isa/families"
)

// toyFamily is docs/architecture.md's recipe "Add a family" followed step by
// step, in a test instead of a shipped package: a family with no parameters
// of its own that issues every machine operation as a group of its own.
type toyFamily struct{}

func (toyFamily) Rules() arch.FamilyRules { return arch.FamilyRules{Name: "toy"} }

func (toyFamily) Schedule(b *isa.BlockCode) []isa.Group {
	prod := isa.Producers(b.Ops)
	groups := make([]isa.Group, len(b.Ops))
	pipes := make([]int, len(b.Ops))
	for i := range b.Ops {
		pipes[i] = -1
		if o := &b.Ops[i]; o.Kind == isa.OpALU && len(o.Pipes) > 0 {
			pipes[i] = o.Pipes[0]
		}
		k := int32(i)
		b.Fill(&groups[i], prod, []int32{k}, func(q int32) bool { return q == k }, func(q int32) int { return pipes[q] }, nil)
		groups[i].Issue = float32(b.IssueCycles())
		groups[i].Latency = float32(b.GPU.Execution.ALULatencyCycles)
		groups[i].CodeBytes = 8
	}
	isa.AssignInsts(groups, b.Ops, func(q int32) int { return int(q) })
	return groups
}

func (toyFamily) Report(lp *isa.Program, _ arch.Occupancy) isa.FamilyReport {
	n := 0
	for _, b := range lp.Blocks {
		n += len(b.Groups)
	}
	return isa.FamilyReport{Key: "toy", Details: map[string]int{"groups": n},
		Rows: []isa.ReportRow{{Label: "toy groups", Value: fmt.Sprint(n)}}}
}

var registerToy sync.Once

// The recipe works: a family registered in one line runs kernels through
// every command, a description naming it as its family is a GPU like any
// other, and the static report shows the family's own row.
func TestRecipeToyFamily(t *testing.T) {
	registerToy.Do(func() {
		if err := families.Register(toyFamily{}); err != nil {
			t.Fatal(err)
		}
	})
	dir := t.TempDir()
	desc := filepath.Join(dir, "toy.yaml")
	if err := os.WriteFile(desc, []byte("base: mali-g52\nid: toy-1\nname: Toy GPU\nfamily: toy\nbifrost: null\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "analyze", "--gpu", desc, "--gpu", "mali-g52", corpusDir+"vecadd.spv")
	if code != exitOK || !strings.Contains(out, "toy groups") || !strings.Contains(out, "clauses / tuples") {
		t.Fatalf("analyze: exit %d\n%s%s", code, out, errOut)
	}
	// Timed on the toy GPU, the results equal the Mali-G52's.
	var prints []string
	for _, g := range []string{desc, "mali-g52"} {
		args := append([]string{"run", "--gpu", g, corpusDir + "vecadd.spv", "--print", "2:5"}, vecaddArgs()...)
		code, out, errOut := runCLI(t, args...)
		if code != exitOK || !strings.Contains(out, "cycles") {
			t.Fatalf("run on %s: exit %d\n%s%s", g, code, out, errOut)
		}
		i := strings.Index(out, "arg 2")
		if i < 0 {
			t.Fatalf("run on %s printed no arg 2:\n%s", g, out)
		}
		prints = append(prints, out[i:])
	}
	if a, b := firstLine(prints[0]), firstLine(prints[1]); a != b {
		t.Errorf("toy and mali-g52 results differ:\n%s\n%s", a, b)
	}
	for _, cmd := range [][]string{{"spec", desc}, {"occupancy", "--gpu", desc, "--regs", "33"}} {
		if code, out, errOut := runCLI(t, cmd...); code != exitOK {
			t.Errorf("%v: exit %d\n%s%s", cmd, code, out, errOut)
		}
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
