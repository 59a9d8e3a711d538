package kernel

import (
	"strings"
	"testing"
)

func needLinkTools(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"clang-14", "llvm-spirv-14", "spirv-val", "opt-14", "llvm-link-14", "llvm-dis-14"} {
		if _, err := FindTool(tool); err != nil {
			t.Skipf("skipping: %v", err)
		}
	}
}

// Two objects, one calling a function of the other through a header given
// in memory, link into one SPIR-V module; the metadata of the kernels
// (argument qualifiers, type names, names, attributes) survives.
func TestCompileObjectsAndLink(t *testing.T) {
	needLinkTools(t)
	hdr := []Header{{Name: "inc/scale.h", Source: []byte("float scale(float x);\n")}}
	meta := map[string]*KernelMeta{}
	a, err := CompileObject([]byte(`#include "inc/scale.h"
typedef struct { float a; int b; } pair_t;
__kernel __attribute__((reqd_work_group_size(4,1,1))) void k(__global const float * restrict in, __global volatile uint *out, __local float4 *tmp, pair_t p) { out[0] = (uint)scale(in[0] + p.a); }
`), "a.cl", Options{Headers: hdr, Meta: meta, ClangFlags: []string{"-cl-kernel-arg-info"}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := CompileObject([]byte("float scale(float x) { return 2 * x; }\n"), "b.cl", Options{})
	if err != nil {
		t.Fatal(err)
	}
	lib, err := LinkObjects([][]byte{b}, true, Options{})
	if err != nil {
		t.Fatal(err)
	}
	spv, err := LinkObjects([][]byte{a, lib}, false, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(spv) < 20 {
		t.Fatalf("SPIR-V of %d bytes", len(spv))
	}
	k := meta["k"]
	if k == nil || len(k.Args) != 4 {
		t.Fatalf("metadata %+v", k)
	}
	want := []ArgMeta{{1, "none", "float*", "restrict const", "in"}, {1, "none", "uint*", "volatile", "out"},
		{3, "none", "float4*", "", "tmp"}, {0, "none", "pair_t", "", "p"}}
	for i, w := range want {
		if k.Args[i] != w {
			t.Errorf("arg %d: %+v, want %+v", i, k.Args[i], w)
		}
	}
	if k.Attributes != "reqd_work_group_size(4,1,1)" || k.ReqdWorkGroupSize != [3]int{4, 1, 1} {
		t.Errorf("attributes %q %v", k.Attributes, k.ReqdWorkGroupSize)
	}
	if _, err := LinkObjects([][]byte{a}, false, Options{}); err == nil || !strings.Contains(err.Error(), "scale") {
		t.Errorf("linking with an undefined function: %v", err)
	}
}
