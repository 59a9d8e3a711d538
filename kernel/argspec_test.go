package kernel

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func TestParseArg(t *testing.T) {
	u32 := MakeElem(U32, 1)
	tests := []struct {
		spec string
		want Arg // Spec is filled in by the test
	}{
		{"buf:f32:1024", Arg{Kind: BufferArg, Elem: MakeElem(F32, 1), Count: 1024, Init: Init{Seed: 1}}},
		{"buf:f32x4:8=random", Arg{Kind: BufferArg, Elem: MakeElem(F32, 4), Count: 8, Init: Init{Kind: InitRandom, Seed: 1}}},
		{"buf:i8x16:2=random:0x10", Arg{Kind: BufferArg, Elem: MakeElem(I8, 16), Count: 2, Init: Init{Kind: InitRandom, Seed: 16}}},
		{"buf:u16:3=iota", Arg{Kind: BufferArg, Elem: MakeElem(U16, 1), Count: 3, Init: Init{Kind: InitIota, Seed: 1}}},
		{"buf:u32:5=zero", Arg{Kind: BufferArg, Elem: u32, Count: 5, Init: Init{Kind: InitZero, Seed: 1}}},
		{"buf:i32:4=fill:-7", Arg{Kind: BufferArg, Elem: MakeElem(I32, 1), Count: 4, Init: Init{Kind: InitFill, Seed: 1, Fill: []byte{0xf9, 0xff, 0xff, 0xff}}}},
		{"buf:u8x3:4=fill:1,2,3", Arg{Kind: BufferArg, Elem: MakeElem(U8, 3), Count: 4, Init: Init{Kind: InitFill, Seed: 1, Fill: []byte{1, 2, 3, 0}}}},
		{"buf:f16:2=fill:1.5", Arg{Kind: BufferArg, Elem: MakeElem(F16, 1), Count: 2, Init: Init{Kind: InitFill, Seed: 1, Fill: []byte{0x00, 0x3e}}}},
		{"buf:u8:16=file:data/in=1.bin", Arg{Kind: BufferArg, Elem: MakeElem(U8, 1), Count: 16, Init: Init{Kind: InitFile, Seed: 1, Path: "data/in=1.bin"}}},
		{"buf:u32:4096=chase:64", Arg{Kind: BufferArg, Elem: u32, Count: 4096, Init: Init{Kind: InitChase, Seed: 1, Stride: 64}}},
		{"buf:u32:4096=chase:64:9", Arg{Kind: BufferArg, Elem: u32, Count: 4096, Init: Init{Kind: InitChase, Seed: 9, Stride: 64}}},
		{" BUF:F64X2:1 ", Arg{Kind: BufferArg, Elem: MakeElem(F64, 2), Count: 1, Init: Init{Seed: 1}}},
		{"u32:1000", Arg{Kind: ScalarArg, Elem: u32, Count: 1, Init: Init{Seed: 1}, Scalar: []byte{0xe8, 0x03, 0, 0}}},
		{"u32:0xffffffff", Arg{Kind: ScalarArg, Elem: u32, Count: 1, Init: Init{Seed: 1}, Scalar: []byte{0xff, 0xff, 0xff, 0xff}}},
		{"f32:0.5", Arg{Kind: ScalarArg, Elem: MakeElem(F32, 1), Count: 1, Init: Init{Seed: 1}, Scalar: []byte{0, 0, 0, 0x3f}}},
		{"i64:-3", Arg{Kind: ScalarArg, Elem: MakeElem(I64, 1), Count: 1, Init: Init{Seed: 1}, Scalar: []byte{0xfd, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}}},
		{"i8:-128", Arg{Kind: ScalarArg, Elem: MakeElem(I8, 1), Count: 1, Init: Init{Seed: 1}, Scalar: []byte{0x80}}},
		{"f16:-2", Arg{Kind: ScalarArg, Elem: MakeElem(F16, 1), Count: 1, Init: Init{Seed: 1}, Scalar: []byte{0x00, 0xc0}}},
		{"u16x2:1, 2", Arg{Kind: ScalarArg, Elem: MakeElem(U16, 2), Count: 1, Init: Init{Seed: 1}, Scalar: []byte{1, 0, 2, 0}}},
		{"u16x3:5", Arg{Kind: ScalarArg, Elem: MakeElem(U16, 3), Count: 1, Init: Init{Seed: 1}, Scalar: []byte{5, 0, 5, 0, 5, 0, 0, 0}}},
		{"local:1024", Arg{Kind: LocalArg, LocalBytes: 1024, Init: Init{Seed: 1}}},
		{"bytes:0100_0000 ff", Arg{Kind: BytesArg, Elem: MakeElem(U8, 1), Count: 1, Init: Init{Seed: 1}, Scalar: []byte{1, 0, 0, 0, 0xff}}},
		{"image1d_buffer:u32:64", Arg{Kind: Image1DBufferArg, Elem: MakeElem(U32, 4), Count: 64, ImageW: 64, ImageH: 1, Init: Init{Seed: 1}}},
		{"image1d_buffer:u32:64=chase:32:3", Arg{Kind: Image1DBufferArg, Elem: MakeElem(U32, 4), Count: 64, ImageW: 64, ImageH: 1, Init: Init{Kind: InitChase, Stride: 32, Seed: 3}}},
		{"image2d:f32:16x8=random", Arg{Kind: Image2DArg, Elem: MakeElem(F32, 4), Count: 128, ImageW: 16, ImageH: 8, Init: Init{Kind: InitRandom, Seed: 1}}},
		{"image2d:u8:4X2=fill:1,2,3,255", Arg{Kind: Image2DArg, Elem: MakeElem(U8, 4), Count: 8, ImageW: 4, ImageH: 2, Init: Init{Kind: InitFill, Seed: 1, Fill: []byte{1, 2, 3, 255}}}},
	}
	for _, tt := range tests {
		got, err := ParseArg(tt.spec)
		if err != nil {
			t.Errorf("ParseArg(%q): %v", tt.spec, err)
			continue
		}
		tt.want.Spec = tt.spec
		if fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", tt.want) {
			t.Errorf("ParseArg(%q) =\n %+v\nwant\n %+v", tt.spec, got, tt.want)
		}
	}
}

func TestParseArgErrors(t *testing.T) {
	tests := []struct{ spec, want string }{
		{"", "empty"},
		{"buf", "expected buf:TYPE:COUNT"},
		{"buf:f32", "buf:TYPE:COUNT[=INIT]"},
		{"buf:f33:10", `unknown type "f33"`},
		{"buf:f32x5:10", `vector width "5" is not one of 2, 3, 4, 8, 16`},
		{"buf:f32:0", `COUNT "0" is not a positive whole number`},
		{"buf:f32:-4", `COUNT "-4" is not a positive whole number`},
		{"buf:f32:1e3", `COUNT "1e3"`},
		{"buf:f64x16:100000000", "4 GiB"},
		{"buf:u8:99999999999999999999", "COUNT"},
		{"buf:f32:4=bogus", `unknown INIT "bogus" (allowed: zero, fill:V`},
		{"buf:f32:4=fill", "fill needs a value"},
		{"buf:f32:4=fill:abc", `"abc" is not a number`},
		{"buf:f32x4:4=fill:1,2", "2 values for f32x4; give 1"},
		{"buf:u8:4=fill:256", `"256" is not a u8 (whole number from 0 to 255)`},
		{"buf:i8:4=fill:-129", "whole number from -128 to 127"},
		{"buf:f16:4=fill:70000", "out of range for f16"},
		{"buf:f32:4=fill:1e39", "out of range for f32"},
		{"buf:f32:4=random:x", `SEED "x"`},
		{"buf:f32:4=iota:3", "iota takes no parameter"},
		{"buf:f32:4=file:", "file needs a path"},
		{"buf:f32:4096=chase:64", "chase needs u32 elements"},
		{"buf:u32x2:4096=chase:64", "chase needs u32 elements"},
		{"buf:u32:4096=chase", "chase needs a stride"},
		{"buf:u32:4096=chase:6", "not a multiple of the 4-byte element"},
		{"buf:u32:4096=chase:0", "STRIDE_BYTES"},
		{"image1d_buffer:u32:16=chase:4", "not a multiple of the 16-byte element"},
		{"u32:-1", "whole number from 0 to 4294967295"},
		{"u32:1=2", "a scalar takes no =INIT"},
		{"f32x4:1,2,3", "3 values for f32x4"},
		{"f32:", "missing value"},
		{"frob:3", `"frob" is neither an argument kind nor a type`},
		{"local:0", "local:BYTES"},
		{"bytes:", "no bytes given"},
		{"bytes:123", "3 hex digits"},
		{"bytes:zz", `"zz" is not hex`},
		{"bytes:00=1", "bytes takes no =INIT"},
		{"local:64=zero", "takes no initial contents"},
		{"image1d_buffer:u32", "image1d_buffer:CHAN:COUNT"},
		{"image1d_buffer:u64:4", "not one of i8 u8 i16 u16 i32 u32 f16 f32"},
		{"image2d:f32x4:4x4", "texels are always RGBA"},
		{"image2d:f32:16", "not WxH"},
		{"image2d:f32:0x4", "width"},
		{"image2d:f32:65536x65536", "4 GiB"},
	}
	for _, tt := range tests {
		_, err := ParseArg(tt.spec)
		if err == nil {
			t.Errorf("ParseArg(%q) succeeded, want an error containing %q", tt.spec, tt.want)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, tt.want) {
			t.Errorf("ParseArg(%q) error\n %s\nwant it to contain %q", tt.spec, msg, tt.want)
		}
		if !strings.HasPrefix(msg, fmt.Sprintf("argument spec %q: ", tt.spec)) {
			t.Errorf("ParseArg(%q) error does not quote the spec: %s", tt.spec, msg)
		}
	}
}

func TestByteSize(t *testing.T) {
	tests := []struct {
		spec string
		want int
	}{
		{"buf:f32:10", 40},
		{"buf:f32x3:10", 160}, // 3-vectors occupy 4 components
		{"buf:i8x3:5", 20},
		{"buf:f16x16:2", 64},
		{"buf:f64x2:3", 48},
		{"u16x3:1,2,3", 8},
		{"f64:1", 8},
		{"local:100", 100},
		{"image1d_buffer:u8:10", 40},
		{"image2d:f32:4x3", 192},
		{"image2d:f16:2x2", 32},
	}
	for _, tt := range tests {
		a, err := ParseArg(tt.spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := a.ByteSize(); got != tt.want {
			t.Errorf("%s: ByteSize = %d, want %d", tt.spec, got, tt.want)
		}
		data, err := a.Materialize("")
		if err != nil {
			t.Fatal(err)
		}
		if a.Kind != LocalArg && len(data) != tt.want {
			t.Errorf("%s: Materialize gave %d bytes, want %d", tt.spec, len(data), tt.want)
		}
	}
}

func TestHalf(t *testing.T) {
	tests := []struct {
		f    float64
		want uint16
	}{
		{0, 0x0000},
		{math.Copysign(0, -1), 0x8000},
		{1, 0x3c00},
		{-2, 0xc000},
		{0.5, 0x3800},
		{65504, 0x7bff},
		{65519.99, 0x7bff},           // rounds down to max
		{65520, 0x7c00},              // rounds up to Inf
		{0x1p-14, 0x0400},            // smallest normal
		{0x1p-24, 0x0001},            // smallest subnormal
		{0x1p-25, 0x0000},            // tie between 0 and 2^-24 goes to even (0)
		{0x1.8p-25, 0x0001},          // above the tie
		{3 * 0x1p-25, 0x0002},        // 1.5 × 2^-24: tie, to even 2
		{1 + 0x1p-11, 0x3c00},        // tie, to even (down)
		{1 + 3*0x1p-11, 0x3c02},      // tie, to even (up)
		{1 + 0x1p-11 + 1e-9, 0x3c01}, // just above the tie
		{0.1, 0x2e66},
		{math.Inf(1), 0x7c00},
		{math.Inf(-1), 0xfc00},
		{1e-300, 0},
	}
	for _, tt := range tests {
		if got := HalfFromFloat64(tt.f); got != tt.want {
			t.Errorf("HalfFromFloat64(%g) = %#04x, want %#04x", tt.f, got, tt.want)
		}
	}
	if h := HalfFromFloat64(math.NaN()); h&0x7c00 != 0x7c00 || h&0x3ff == 0 {
		t.Errorf("NaN -> %#04x, not a NaN", h)
	}
	// Every finite half round-trips through float64.
	for h := 0; h < 1<<16; h++ {
		if h&0x7c00 == 0x7c00 {
			continue
		}
		f := HalfToFloat64(uint16(h))
		if back := HalfFromFloat64(f); back != uint16(h) {
			t.Fatalf("half %#04x -> %g -> %#04x", h, f, back)
		}
	}
}

func TestRandom(t *testing.T) {
	// splitmix64 reference outputs for seed 0 (Vigna's splitmix64.c).
	r := NewRandom(0)
	want := []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f}
	for i, w := range want {
		if got := r.Next(); got != w {
			t.Errorf("draw %d = %#x, want %#x", i, got, w)
		}
	}
	r = NewRandom(7)
	var seen [5]int
	for i := 0; i < 5000; i++ {
		v := r.Below(5)
		if v >= 5 {
			t.Fatalf("Below(5) = %d", v)
		}
		seen[v]++
	}
	for v, n := range seen {
		if n < 900 || n > 1100 {
			t.Errorf("Below(5) gave %d %d times in 5000", v, n)
		}
	}
}

func TestChase(t *testing.T) {
	tests := []struct {
		spec   string
		step   int // elements between slots
		idxOff int // bytes to the stored index within a slot element
	}{
		{"buf:u32:1000=chase:64", 16, 0},
		{"buf:u32:1000=chase:4:5", 1, 0},
		{"buf:u32:10=chase:400", 100, 0},
		{"buf:u32:17=chase:8", 2, 0},
		{"image1d_buffer:u32:50=chase:32:2", 2, 0},
		{"image2d:u32:8x4=chase:16", 1, 0},
	}
	for _, tt := range tests {
		a, err := ParseArg(tt.spec)
		if err != nil {
			t.Fatal(err)
		}
		data, err := a.Materialize("")
		if err != nil {
			t.Fatal(err)
		}
		esz := a.Elem.Size()
		slots := (a.Count + tt.step - 1) / tt.step
		at := func(i int) uint32 { return binary.LittleEndian.Uint32(data[i*esz+tt.idxOff:]) }
		// Walk from element 0: every slot once, then back to 0.
		visited := map[int]bool{}
		cur := 0
		for i := 0; i < slots; i++ {
			if cur%tt.step != 0 || cur >= a.Count || visited[cur] {
				t.Fatalf("%s: step %d reached element %d (a non-slot, out of range or revisited)", tt.spec, i, cur)
			}
			visited[cur] = true
			cur = int(at(cur))
		}
		if cur != 0 {
			t.Errorf("%s: after %d steps the walk is at %d, not back at 0", tt.spec, slots, cur)
		}
		// Every byte outside the slots' indices is zero.
		for i := 0; i < a.Count; i++ {
			for b := 0; b < esz; b++ {
				if (i%tt.step == 0 && b < 4) || data[i*esz+b] == 0 {
					continue
				}
				t.Fatalf("%s: element %d byte %d is %d, want 0", tt.spec, i, b, data[i*esz+b])
			}
		}
	}
	// The seed changes the ring; the same seed gives the same ring.
	a1, _ := ParseArg("buf:u32:256=chase:4:1")
	a2, _ := ParseArg("buf:u32:256=chase:4:2")
	a3, _ := ParseArg("buf:u32:256=chase:4")
	d1, _ := a1.Materialize("")
	d2, _ := a2.Materialize("")
	d3, _ := a3.Materialize("")
	if bytes.Equal(d1, d2) || !bytes.Equal(d1, d3) {
		t.Errorf("chase seeds: seed 1 vs 2 equal=%v, seed 1 vs default equal=%v", bytes.Equal(d1, d2), bytes.Equal(d1, d3))
	}
}

func TestMaterializeFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "in.bin"), []byte{1, 0, 2, 0, 3, 0}, 0o644); err != nil {
		t.Fatal(err)
	}
	a, _ := ParseArg("buf:u16:3=file:in.bin")
	got, err := a.Materialize(dir)
	if err != nil || !bytes.Equal(got, []byte{1, 0, 2, 0, 3, 0}) {
		t.Fatalf("Materialize = % x, %v", got, err)
	}
	tests := []struct{ spec, want string }{
		{"buf:u16:4=file:in.bin", "file " + filepath.Join(dir, "in.bin") + " has 6 bytes, but the argument is 8 bytes (4 × 2-byte u16)"},
		{"buf:u16:3=file:missing.bin", "missing.bin"},
		{"buf:u16:3=file:.", "is a directory"},
	}
	for _, tt := range tests {
		a, err := ParseArg(tt.spec)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.Materialize(dir); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.spec, err, tt.want)
		}
	}
}

// TestMaterializeGolden pins the contents every INIT produces (the PRNG and
// the rounding rules are part of the spec language: a job must give the same
// inputs on every machine and every version).
func TestMaterializeGolden(t *testing.T) {
	specs := []string{
		"buf:u8:6=iota",
		"buf:i8:4=fill:-1",
		"buf:u8x3:2=iota",
		"buf:i16x2:3=random:5",
		"buf:u32:4=random",
		"buf:i32:4=random",
		"buf:u64:2=random:42",
		"buf:i64:2=iota",
		"buf:f16:6=random",
		"buf:f16x4:2=iota",
		"buf:f32:6=random",
		"buf:f32x3:2=iota",
		"buf:f32x4:2=fill:1,2.5,-3,1e-3",
		"buf:f64:4=random:3",
		"buf:u32:16=chase:8",
		"u8x16:1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,255",
		"f64x2:0.1,-0.25",
		"image1d_buffer:u32:3=iota",
		"image1d_buffer:u32:8=chase:32",
		"image2d:f32:2x2=random:9",
		"image2d:u8:2x1=fill:1,2,3,4",
	}
	var sb strings.Builder
	for _, spec := range specs {
		a, err := ParseArg(spec)
		if err != nil {
			t.Fatal(err)
		}
		data, err := a.Materialize("")
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&sb, "%s\n\t%s\n", spec, strings.Join(FormatElements(data, a.Elem, -1), " "))
	}
	compareGolden(t, "testdata/materialize.golden", sb.String())
}

func compareGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (run go test -update after checking):\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

func TestFormatElements(t *testing.T) {
	tests := []struct {
		spec  string
		count int
		want  []string
	}{
		{"f32:1.5", -1, []string{"1.5"}},
		{"f32:0.1", -1, []string{"0.1"}},
		{"f16:0.1", -1, []string{"0.1"}},
		{"f16:-65504", -1, []string{"-65504"}},
		{"f16:inf", -1, []string{"+Inf"}},
		{"i8:-5", -1, []string{"-5"}},
		{"i64:-9223372036854775808", -1, []string{"-9223372036854775808"}},
		{"u64:18446744073709551615", -1, []string{"18446744073709551615"}},
		{"f32x4:1,2,3,4", -1, []string{"(1, 2, 3, 4)"}},
		{"i16x3:-1,0,7", -1, []string{"(-1, 0, 7)"}}, // padding not printed
		{"u32x2:9", 0, []string{}},
		{"u32x2:9", 5, []string{"(9, 9)"}}, // clamped to what data holds
	}
	for _, tt := range tests {
		a, err := ParseArg(tt.spec)
		if err != nil {
			t.Fatal(err)
		}
		got := FormatElements(a.Scalar, a.Elem, tt.count)
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%s: FormatElements = %q, want %q", tt.spec, got, tt.want)
		}
	}
	// A short tail that is not a whole element is not printed.
	if got := FormatElements([]byte{1, 0, 0, 0, 2, 0}, MakeElem(U32, 1), -1); len(got) != 1 || got[0] != "1" {
		t.Errorf("partial element: %q", got)
	}
}
