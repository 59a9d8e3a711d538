package spirv

import (
	"testing"
)

// benchModule builds a kernel of about 10k words: per iteration a load with
// an alignment, two arithmetic ops, an OpenCL.std fma and a store, chained
// through a phi that refers forward.
func benchModule() []byte {
	a := newAsm(1<<16).kernelPrologue().
		inst(OpName, 4, "bench").
		inst(OpTypePointer, 10, StorageClassCrossWorkgroup, 3).
		inst(OpConstant, 3, 11, 0x3f800000).
		inst(OpTypeFunction, 12, 1, 10).
		inst(OpFunction, 1, 13, FunctionControlNone, 12).
		inst(OpFunctionParameter, 10, 14).
		inst(OpLabel, 15)
	next := uint32(100)
	prev := uint32(11)
	for len(a.words) < 10000-20 {
		ld, mul, add, fma := next, next+1, next+2, next+3
		next += 4
		a.inst(OpLoad, 3, ld, 14, MemoryAccessAligned, 4).
			inst(OpFMul, 3, mul, ld, prev).
			inst(OpFAdd, 3, add, mul, 11).
			inst(OpExtInst, 3, fma, 5, OpenCLStdFma, add, mul, ld).
			inst(OpStore, 14, fma, MemoryAccessAligned, 4)
		prev = fma
	}
	a.inst(OpReturn).inst(OpFunctionEnd)
	a.set(3, next) // the bound
	return a.bytes()
}

func BenchmarkDecode10kWords(b *testing.B) {
	in := benchModule()
	if _, err := Decode(in); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Decode(in); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(in)/4), "words/op")
}

// TestDecodeAllocations keeps allocations per module, not per operand: the
// 10k-word module has about 2000 instructions and 6000 operands.
func TestDecodeAllocations(t *testing.T) {
	in := benchModule()
	allocs := testing.AllocsPerRun(5, func() {
		if _, err := Decode(in); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 40 {
		t.Errorf("Decode of a 10k-word module makes %.0f allocations, want at most 40", allocs)
	}
}
