package ir_test

import (
	"math"
	"math/big"
	"testing"
)

// satInt clamps v to [lo, hi].
func satInt(v, lo, hi int64) int64 { return min(max(v, lo), hi) }

// Float to int in each rounding mode (the default truncates), the
// saturating conversions (OpSatConvert* and SaturatedConversion
// decorations), reinterpreting casts between vectors of other component
// widths (repacking bytes), and arithmetic on char, short and long.
func TestConversions(t *testing.T) {
	for _, file := range both("conv") {
		fs := []float32{2.5, -2.5, 3.5, -0.4, 1.7, -1.7, 1e9, -7, 0.5, -0.5, 100.49, 2147483520}
		ri := zeros(4 * 5 * len(fs))
		launch{file: file, entry: "round_int", global: [3]int{len(fs), 1, 1}, local: [3]int{4, 1, 1},
			args: []any{&buf{data: f32s(fs...)}, ri}}.mustRun(t)
		for i, x := range fs {
			xd := float64(x)
			big := float64(float32(x * 1e10))
			want := []int32{int32(math.Trunc(xd)), int32(math.RoundToEven(xd)), int32(math.Ceil(xd)), int32(math.Floor(xd)),
				int32(satInt(int64(math.Max(math.Min(math.Trunc(big), 1<<40), -(1<<40))), math.MinInt32, math.MaxInt32))}
			for k, w := range want {
				if got := getI32(ri.data, 5*i+k); got != w {
					t.Errorf("%s convert_int%s(%v) = %d, want %d", file, []string{"", "_rte", "_rtp", "_rtn", "_sat(x*1e10)"}[k], x, got, w)
				}
			}
		}

		in := []int32{-5, 0, 100, 255, 256, 1000, -129, 127, 128, 0x7fffffff, -0x80000000, 42}
		wide := []int64{-5, 40000, -40000, 32767, -32768, 1 << 40, -(1 << 40), 4294967295, 4294967296, 7, 0, -1}
		u8, s16, s8, u32 := zeros(len(in)), zeros(2*len(in)), zeros(len(in)), zeros(4*len(in))
		launch{file: file, entry: "sat", global: [3]int{len(in), 1, 1}, local: [3]int{4, 1, 1},
			args: []any{&buf{data: i32s(in...)}, &buf{data: i64s(wide...)}, u8, s16, s8, u32}}.mustRun(t)
		for i := range in {
			if got, want := u8.data[i], uint8(satInt(int64(in[i]), 0, 255)); got != want {
				t.Errorf("%s convert_uchar_sat(%d) = %d, want %d", file, in[i], got, want)
			}
			if got, want := int16(getU16(s16.data, i)), int16(satInt(wide[i], math.MinInt16, math.MaxInt16)); got != want {
				t.Errorf("%s convert_short_sat(%d) = %d, want %d", file, wide[i], got, want)
			}
			if got, want := int8(s8.data[i]), int8(satInt(int64(uint32(in[i])), math.MinInt8, math.MaxInt8)); got != want {
				t.Errorf("%s convert_char_sat((uint)%d) = %d, want %d", file, in[i], got, want)
			}
			if got, want := getU32(u32.data, i), uint32(satInt(wide[i], 0, math.MaxUint32)); got != want {
				t.Errorf("%s convert_uint_sat(%d) = %d, want %d", file, wide[i], got, want)
			}
		}

		words := []uint32{0x12345678, 0xfffefdfc, 0, 0x80000001, 0x3f800000, 0x00ff00ff, 0xdeadbeef, 7}
		b4, s2, w2, fo := zeros(4*len(words)), zeros(4*len(words)), zeros(8*len(words)), zeros(4*len(words))
		launch{file: file, entry: "reinterpret", global: [3]int{len(words), 1, 1}, local: [3]int{8, 1, 1},
			args: []any{&buf{data: u32s(words...)}, b4, s2, w2, fo}}.mustRun(t)
		for i, x := range words {
			c := [4]byte{byte(x), byte(x >> 8), byte(x >> 16), byte(x >> 24)}
			if got := [4]byte(b4.data[4*i : 4*i+4]); got != [4]byte{c[3], c[2], c[1], c[0]} {
				t.Errorf("%s as_uchar4(%#x).wzyx = %v", file, x, got)
			}
			var inc [4]byte
			for k := range c {
				inc[k] = c[k] + 1
			}
			if got, want := getU32(s2.data, i), uint32(inc[0])|uint32(inc[1])<<8|uint32(inc[2])<<16|uint32(inc[3])<<24; got != want {
				t.Errorf("%s as_ushort2(as_uchar4(%#x) + 1) = %#x, want %#x", file, x, got, want)
			}
			l := uint64(x) | uint64(^x)<<32
			if got, want := getU32(w2.data, 2*i), uint32(l>>16); got != want {
				t.Errorf("%s as_ulong((uint2)(%#x, ~x)) >> 16 = %#x, want %#x", file, x, got, want)
			}
			zero := math.Float32bits(math.Float32frombits(x) * 0)
			if got, want := getU32(w2.data, 2*i+1), math.Float32bits(float32(i))^zero; got != want {
				t.Errorf("%s as_uint((float)%d) ^ as_uint(as_float(%#x) * 0) = %#x, want %#x", file, i, x, got, want)
			}
			if got, want := getF32(fo.data, i), math.Float32frombits(0x40000000+uint32(i)); got != want {
				t.Errorf("%s as_float(as_int(2.0f) + %d) = %v, want %v", file, i, got, want)
			}
		}

		cs := []int8{-128, -1, 0, 1, 127, -77, 33, 5}
		ss := []int16{-32768, -1, 0, 1, 32767, 1234, -999, 6}
		ls := []int64{math.MinInt64 + 1, -1, 0, 1, math.MaxInt64, 123456789012345, -98765432109876, 1 << 62}
		cb := make([]byte, len(cs))
		for i, v := range cs {
			cb[i] = byte(v)
		}
		sb := make([]byte, 2*len(ss))
		for i, v := range ss {
			sb[2*i], sb[2*i+1] = byte(v), byte(uint16(v)>>8)
		}
		wo := zeros(8 * 6 * len(cs))
		launch{file: file, entry: "widths", global: [3]int{len(cs), 1, 1}, local: [3]int{8, 1, 1},
			args: []any{&buf{data: cb}, &buf{data: sb}, &buf{data: i64s(ls...)}, wo}}.mustRun(t)
		for i := range cs {
			a, b, x := cs[i], ss[i], ls[i]
			hi := mulHi64(x, 0x123456789)
			want := []int64{int64(a) * int64(b), int64(uint8(a)) + int64(uint16(b)), x / int64(b|1), x % 1000, hi,
				int64(a>>2) + int64(int16(b<<3)) + int64(uint64(x)>>60)}
			for k, w := range want {
				if got := getI64(wo.data, 6*i+k); got != w {
					t.Errorf("%s widths(%d, %d, %d) result %d = %d, want %d", file, a, b, x, k, got, w)
				}
			}
		}
	}
}

// mulHi64 is the high half of the 128-bit signed product.
func mulHi64(a, b int64) int64 {
	p := new(big.Int).Mul(big.NewInt(a), big.NewInt(b))
	return p.Rsh(p, 64).Int64()
}
