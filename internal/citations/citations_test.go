package citations

import (
	"os"
	"strings"
	"testing"
)

// The repository's own citations: every seed and section cited in a Go,
// Markdown, YAML or kernel file is listed in docs/references.md.
func TestRepositoryCitationsResolve(t *testing.T) {
	data, err := os.ReadFile("../../docs/references.md")
	if err != nil {
		t.Fatal(err)
	}
	refs, err := ParseReferences(string(data))
	if err != nil {
		t.Fatalf("docs/references.md: %v", err)
	}
	for _, seed := range []string{"000", "001", "002", "003", "004"} {
		if len(refs[seed]) == 0 {
			t.Errorf("docs/references.md lists no sections for seed %s", seed)
		}
	}
	cites, problems, err := Scan("../..")
	if err != nil {
		t.Fatal(err)
	}
	problems = append(problems, refs.Check(cites)...)
	for _, p := range problems {
		t.Error(p)
	}
	sections, seen := 0, map[string]bool{}
	for _, c := range cites {
		seen[c.Seed] = true
		if c.Section != "" {
			sections++
		}
	}
	// Guard against a scanner that silently finds nothing.
	if len(cites) < 500 || sections < 400 || len(seen) < 5 {
		t.Errorf("found %d citations (%d with a section) of %d seeds; the scanner has lost them", len(cites), sections, len(seen))
	}
	t.Logf("%d citations checked, %d of them naming a section", len(cites), sections)
}

var testRefs = References{
	"000": {"GPU Organization", "Memory Pipeline", "L2 Cache and System Level", "Power Management"},
	"003": {"Common Store"},
	"004": {"What’s a Shader Processor?", "Optimizing Tiled Rendering"},
}

// The checker itself: what it accepts and what it must reject.
func TestCheckerOnSyntheticInput(t *testing.T) {
	tests := []struct {
		name, file, src string
		cites           int      // citations found
		bad             []string // a substring of each expected problem, in order
	}{
		{"plain", "a.go", "// seed 000 §Memory Pipeline (a gloss)\n", 1, nil},
		{"gloss after a colon", "a.go", "// seed 000 §Memory Pipeline: 32 B/cycle\n", 1, nil},
		{"document only", "a.go", "// as seed 003 measures\n", 1, nil},
		{"list of documents", "a.md", "(seeds 000, 003 and 004)\n", 3, nil},
		{"unknown document", "a.go", "// seed 009 §Memory Pipeline\n", 1, []string{"seed 009 is not in docs/references.md"}},
		{"unknown document in a list", "a.md", "seeds 000, 007\n", 2, []string{"seed 007 is not"}},
		{"unknown section", "a.go", "// seed 000 §Memory Pipes\n", 1, []string{"no section of seed 000"}},
		{"section of another seed", "a.go", "// seed 003 §Memory Pipeline\n", 1, []string{"no section of seed 003"}},
		{"name runs on in letters", "a.go", "// seed 000 §Memory Pipelines\n", 1, []string{"no section of seed 000"}},
		{"abbreviated", "a.go", "x := 1 // seed 000 §L2 Cache...\n", 1, []string{"no section of seed 000"}},
		{"wrapped Go comment", "a.go", "// seed 000 §L2 Cache and System\n\t// Level: 128 KB\n", 1, nil},
		{"wrapped between seed and number", "a.go", "// (seed\n// 000 §GPU Organization)\n", 1, nil},
		{"wrapped YAML comment", "a.yaml", "# seed 000 §L2 Cache and\n  # System Level\n", 1, nil},
		{"wrapped Markdown", "a.md", "BV/BR (seed 004\n§Optimizing Tiled Rendering): BV bins\n", 1, nil},
		{"truncated before code", "a.go", "// seed 000 §L2 Cache and\nfunc f() {}\n", 1, []string{"no section of seed 000"}},
		{"chained sections", "a.yaml", "source: \"seed 000 §GPU Organization; §Power Management (x)\"\n", 2, nil},
		{"bad chained section", "a.yaml", "source: \"seed 000 §GPU Organization; §Power Manager\"\n", 2, []string{"no section of seed 000"}},
		{"section in parentheses after prose", "a.go", "// seed 000's \"512 or fewer\" (§GPU Organization).\n", 1, nil},
		{"section with no seed", "a.go", "// as measured (§Memory Pipeline)\n", 0, []string{"no seed before it"}},
		{"section too far from its seed", "a.md", "seed 000 says so." + strings.Repeat(" words", 40) + " (§Memory Pipeline)\n", 1, []string{"no seed before it"}},
		{"typographic and plain quotes", "a.md", "seed 004 §What's a Shader Processor? and seed 004 §What’s a Shader Processor?\n", 2, nil},
		{"case", "a.go", "// Seed 003 §common store, exactly\n", 1, nil},
		{"other documents' sections", "a.go", "// SPIR-V spec §2.3, glTF 2.0 §GLB File Format, OpenCL 1.2 §7.4, the spec §Limits\n", 0, nil},
		{"placeholders", "a.go", "msg := \"write seed NNN §Section or seed 00N §Section\"\n", 0, nil},
		{"random seeds are not documents", "a.go", "// splitmix64 for seed 0 and seed 12\n", 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cites, problems := Extract(tt.file, tt.src)
			problems = append(problems, testRefs.Check(cites)...)
			if len(cites) != tt.cites {
				t.Errorf("found %d citations %v, want %d", len(cites), cites, tt.cites)
			}
			if len(problems) != len(tt.bad) {
				t.Fatalf("problems %v, want %d matching %q", problems, len(tt.bad), tt.bad)
			}
			for i, p := range problems {
				if !strings.Contains(p.String(), tt.bad[i]) {
					t.Errorf("problem %q, want one containing %q", p, tt.bad[i])
				}
			}
		})
	}
}

func TestProblemNamesFileAndLine(t *testing.T) {
	cites, _ := Extract("timing/x.go", "package x\n\n// The L2 (seed 000\n// §L2 Cache and Sys).\n")
	problems := testRefs.Check(cites)
	if len(problems) != 1 {
		t.Fatalf("problems %v, want 1", problems)
	}
	if got := problems[0].String(); !strings.HasPrefix(got, "timing/x.go:3: seed 000 §L2 Cache and Sys: ") {
		t.Errorf("problem reads %q", got)
	}
}

func TestParseReferences(t *testing.T) {
	refs, err := ParseReferences("# Refs\n\n## seed 000\n\nTitle.\n\n- §Memory Pipeline — what we take\n- §L2 Cache and System Level\n* §Power Management\n\n## seed 004\n\n- §What’s a Shader Processor? — uSPTP vs SP\n\n## Conventions\n\n- §Not a section: outside any seed\n")
	if err == nil {
		t.Fatal("a § item under a non-seed heading was accepted")
	}
	refs, err = ParseReferences("## The seeds\n\n### seed 000\n\n- §Memory Pipeline — what we take\n- §L2 Cache and System Level\n* §Power Management\n\n## seed 004\n\n- §What’s a Shader Processor? — uSPTP vs SP\n\n## Conventions\n\nText.\n")
	if err != nil {
		t.Fatal(err)
	}
	want := References{
		"000": {"Memory Pipeline", "L2 Cache and System Level", "Power Management"},
		"004": {"What’s a Shader Processor?"},
	}
	for seed, secs := range want {
		if strings.Join(refs[seed], "|") != strings.Join(secs, "|") {
			t.Errorf("seed %s: sections %q, want %q", seed, refs[seed], secs)
		}
	}
	if len(refs) != len(want) {
		t.Errorf("seeds %v, want %v", refs, want)
	}
	for _, bad := range []string{"no headings\n", "## seed 000\n## seed 000\n"} {
		if _, err := ParseReferences(bad); err == nil {
			t.Errorf("ParseReferences(%q) accepted it", bad)
		}
	}
}

func TestScanned(t *testing.T) {
	for rel, want := range map[string]bool{
		"timing/engine.go":                     true,
		"docs/timing.md":                       true,
		"arch/presets/mali-g52.yaml":           true,
		"bench/kernels/iloop.cl":               true,
		"docs/references.md":                   false,
		"arch/testdata/fuzz/FuzzDecode/abc":    false,
		"internal/citations/citations_test.go": false,
		"cmd/pocketgpu/testdata/arch/spec.txt": false,
		"bench/kernels/iloop.spv":              false,
	} {
		if got := Scanned(rel); got != want {
			t.Errorf("Scanned(%q) = %v, want %v", rel, got, want)
		}
	}
}
