package ir_test

import (
	"math/big"
	"testing"

	"github.com/pocketgpu/pocketgpu/spirv"
)

// bigWords is the low and high 64-bit words of an exact product.
func bigWords(a, b *big.Int) (lo, hi uint64) {
	p := new(big.Int).Mul(a, b)
	m := new(big.Int).Lsh(big.NewInt(1), 128)
	p.Mod(p, m)
	lo = new(big.Int).And(p, new(big.Int).SetUint64(^uint64(0))).Uint64()
	hi = new(big.Int).Rsh(p, 64).Uint64()
	return lo, hi
}

// Instructions the compilers rarely emit (testdata/run_misc.spvasm): a
// vector OpSelect on one bool, OpCopyMemory, OpQuantizeToF16,
// OpSatConvertUToS, atomic flags, the 64-bit extended arithmetic,
// OpPtrDiff and OpPtrEqual, a dynamic extract past the vector, a half
// specialization constant (default and overridden), and an OpLine that
// gives the store its source position.
func TestRarelyEmitted(t *testing.T) {
	for _, sc := range []struct {
		spec map[uint32]string
		half uint32
	}{{nil, 0x3e00}, {map[uint32]string{4: "-2.25"}, 0xc080}} {
		const n = 6
		out, out64 := zeros(4*512*n), zeros(8*512*n)
		p := launch{file: "run_misc.spv", global: [3]int{n, 1, 1}, local: [3]int{n, 1, 1}, width: 4, spec: sc.spec,
			args: []any{out, out64}}.mustRun(t)
		for g := 0; g < n; g++ {
			sel := []uint32{16, 16, 300, 0}
			if g%2 == 1 {
				sel = []uint32{1, 2, 3, 7}
			}
			dyn := uint32(0) // an index past the vector reads 0
			if g < 4 {
				dyn = sel[g]
			}
			// 1 + 2^-11 is half-way between two halves: to even, 1.
			wantU := map[int]uint32{0: sel[0], 1: sel[2], 2: 0x3f800000, 3: 127, 7: 2, 16: dyn, 300: sc.half}
			for k, want := range wantU {
				if got := getU32(out.data, 512*g+k); got != want {
					t.Errorf("spec %v item %d: out[%d] = %#x, want %#x", sc.spec, g, k, got, want)
				}
			}
			gbig := uint64(g) + 0xfffffffffffffff0
			umlo, umhi := bigWords(new(big.Int).SetUint64(0xfffffffffffffff0), new(big.Int).SetUint64(gbig))
			smlo, smhi := bigWords(big.NewInt(-3), big.NewInt(int64(gbig)))
			wantL := map[int]uint64{0: uint64(g) + 0x10, 1: 1, 2: uint64(g) - 0x20, 3: 1, 4: 300 - 7, 5: smlo, 7: umlo, 9: smhi, 16: umhi}
			for k, want := range wantL {
				if got := uint64(getI64(out64.data, 512*g+k)); got != want {
					t.Errorf("spec %v item %d: out64[%d] = %#x, want %#x", sc.spec, g, k, got, want)
				}
			}
		}
		found := false
		for _, s := range p.Sites {
			if s.File == "misc.cl" && s.Line == 7 && s.Op == spirv.OpStore {
				found = true
			}
			if s.File != "" && s.Op != spirv.OpStore {
				t.Errorf("site %v has a position though only the last store follows OpLine", s)
			}
		}
		if !found {
			t.Error("no site of the store at misc.cl:7")
		}
		if len(p.SpecConsts) != 1 || p.SpecConsts[0].SpecID != 4 || p.SpecConsts[0].Bits != 16 || uint32(p.SpecConsts[0].Default) != sc.half {
			t.Errorf("spec constants %+v, want SpecId 4, 16 bits, default %#x", p.SpecConsts, sc.half)
		}
	}
}
