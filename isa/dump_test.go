package isa

import (
	"fmt"
	"os"
	"testing"
)

func TestDump(t *testing.T) {
	name, gpu := os.Getenv("ISA_KERNEL"), os.Getenv("ISA_GPU")
	if name == "" {
		t.Skip("set ISA_KERNEL and ISA_GPU")
	}
	p := corpusProgram(t, name)
	lp, err := Lower(p, mustGPU(t, gpu), 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + p.String() + "\n" + lp.String())
}

func TestDumpClauses(t *testing.T) {
	name, gpu := os.Getenv("ISA_KERNEL"), os.Getenv("ISA_GPU")
	if name == "" {
		t.Skip("set ISA_KERNEL and ISA_GPU")
	}
	debugBifrost = func(s *bifrostSched, T int) {
		for tt := 0; tt < T; tt++ {
			line := ""
			for p := 0; p < s.npipes; p++ {
				cell := "-"
				for _, m := range s.members {
					if int(s.first[m]) <= tt && int(s.last[m]) >= tt && int(s.slot[m]) == p {
						cell = ClassNames[s.ops[m].class] + "#" + itoa(int(s.ops[m].inst))
					}
				}
				line += cell + "\t"
			}
			t.Logf("clause %d tuple %d: %s", s.cur, tt, line)
		}
	}
	defer func() { debugBifrost = nil }()
	p := corpusProgram(t, name)
	if _, err := Lower(p, mustGPU(t, gpu), 0); err != nil {
		t.Fatal(err)
	}
}

func itoa(i int) string { return fmt.Sprint(i) }
