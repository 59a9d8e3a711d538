package ir_test

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// Program-scope __constant tables (constant data uploaded with the
// program) and a private array filled in a loop and read through a helper
// (the light pipeline keeps the call and the array in the frame).
func TestConstantAndPrivateMemory(t *testing.T) {
	for _, file := range both("memory") {
		in := []int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 13, -1, 100}
		out, f := zeros(4*len(in)), zeros(16*len(in))
		launch{file: file, entry: "tables", global: [3]int{len(in), 1, 1}, local: [3]int{4, 1, 1},
			args: []any{&buf{data: i32s(in...)}, out, f}}.mustRun(t)
		table := []int32{3, 1, 4, 1, 5, 9, 2, 6}
		scale := []float32{0.5, 2, -1, 4}
		for i, x := range in {
			k := int(x & 7)
			want := (table[(k+i)&7]+x)*2 + table[k]
			if got := getI32(out.data, i); got != want {
				t.Errorf("%s tables(%d) = %d, want %d", file, x, got, want)
			}
			for c := range scale {
				if got := getF32(f.data, 4*i+c); got != scale[c]*float32(i) {
					t.Errorf("%s scale * %d component %d = %v, want %v", file, i, c, got, scale[c]*float32(i))
				}
			}
		}
	}
}

// rec mirrors the kernel's struct: int a; char b; float c[3]; long d
// (offsets 0, 4, 8, 24; 32 bytes).
type rec struct {
	A int32
	B int8
	_ [3]byte
	C [3]float32
	_ [4]byte
	D int64
}

func recBytes(rs ...rec) []byte {
	var b bytes.Buffer
	for _, r := range rs {
		binary.Write(&b, binary.LittleEndian, r)
	}
	return b.Bytes()
}

// A struct passed by value (copied into every work-item's frame), structs
// loaded, changed and stored whole (OpCopyMemorySized), and pointer
// differences in elements.
func TestStructsAndPointers(t *testing.T) {
	for _, file := range both("memory") {
		const n = 6
		r := rec{A: 100, B: 7, C: [3]float32{1.5, 2.5, 3}, D: 1 << 40}
		var in []rec
		for i := 0; i < n; i++ {
			in = append(in, rec{A: int32(i), C: [3]float32{float32(i) + 1, 0.25, -1}})
		}
		out, diff := zeros(32*n), zeros(8*n)
		launch{file: file, entry: "structs", global: [3]int{n, 1, 1}, local: [3]int{n, 1, 1},
			args: []any{byVal(recBytes(r)), &buf{data: recBytes(in...)}, out, diff}}.mustRun(t)
		for i := 0; i < n; i++ {
			x := in[i]
			x.A += r.A
			x.B = r.B + int8(i)
			x.C[i%3] = r.C[2] * x.C[0]
			x.D = r.D - int64(i)
			if got, want := out.data[32*i:32*i+32], recBytes(x); !bytes.Equal(got, want) {
				t.Errorf("%s structs %d = % x, want % x", file, i, got, want)
			}
			// (in + i) - in, plus &out[i].c[2] - &out[0].c[0] in floats.
			if got, want := getI64(diff.data, i), int64(i)+int64(8*i+2); got != want {
				t.Errorf("%s pointer differences %d = %d, want %d", file, i, got, want)
			}
		}
	}
}

// Local memory: a static __local array and a __local pointer argument,
// a tree reduction between barriers, and the async work-group copies
// (contiguous into local memory, strided back out).
func TestLocalMemory(t *testing.T) {
	for _, file := range both("memory") {
		const n, groupSize = 32, 8
		var in []float32
		for i := 0; i < n; i++ {
			in = append(in, float32(i*i%17))
		}
		out := zeros(4 * n)
		launch{file: file, entry: "shared", global: [3]int{n, 1, 1}, local: [3]int{groupSize, 1, 1}, width: 4,
			args: []any{&buf{data: f32s(in...)}, out, localMem(4 * groupSize)}}.mustRun(t)
		for g := 0; g < n/groupSize; g++ {
			sum := float32(0)
			for l := 0; l < groupSize; l++ {
				sum += in[g*groupSize+l]
			}
			for l := 0; l < groupSize; l++ {
				if got, want := getF32(out.data, g*groupSize+l), sum+float32(groupSize-1-l); got != want {
					t.Errorf("%s shared group %d item %d = %v, want %v", file, g, l, got, want)
				}
			}
		}

		ints := make([]int32, n)
		for i := range ints {
			ints[i] = int32(i*7 - 50)
		}
		cp := &buf{data: make([]byte, 8*n)}
		for i := range 2 * n {
			copy(cp.data[4*i:], i32s(-1))
		}
		launch{file: file, entry: "copies", global: [3]int{n, 1, 1}, local: [3]int{groupSize, 1, 1}, width: 4,
			args: []any{&buf{data: i32s(ints...)}, cp, localMem(4 * groupSize)}}.mustRun(t)
		for i := 0; i < 2*n; i++ {
			want := int32(-1)
			if i%2 == 0 {
				want = 3 * ints[i/2]
			}
			if got := getI32(cp.data, i); got != want {
				t.Errorf("%s strided copy out[%d] = %d, want %d", file, i, got, want)
			}
		}
	}
}

// Every atomic on global ints, uints and a long and on local ints, from
// work-items in several warps and work-groups: the final values are what
// any order gives; compare-exchange succeeds exactly for a prefix of the
// work-items. The atomics follow a barrier, after which the executor runs
// a work-group's youngest warp first (emu.WorkGroup.Round): the first
// group's second warp finds the counter at 0 and fails, then its first
// warp's four work-items succeed in lane order, and the chain stops there
// (work-item 4 has already tried).
func TestAtomics(t *testing.T) {
	for _, file := range both("memory") {
		const n, groupSize = 32, 8
		c := &buf{data: i32s(0, 1000, 5, 5, 40, -100, 0, 0, 0, 0)}
		u := &buf{data: u32s(0xffffffff, 0x100, 0xf0f0, 100, 3)}
		w := &buf{data: i64s(1)}
		old := zeros(4 * n)
		launch{file: file, entry: "atomics", global: [3]int{n, 1, 1}, local: [3]int{groupSize, 1, 1}, width: 4,
			args: []any{c, u, w, old}}.mustRun(t)
		sum, orBits, xor, maxX := int32(0), uint32(0), uint32(0xf0f0), uint32(3)
		for i := 0; i < n; i++ {
			sum += int32(i)
			orBits |= 1 << (i & 31)
			xor ^= uint32(i)
			maxX = max(maxX, uint32(i^5))
		}
		swaps := int32(0)
		for i := 0; i < n; i++ {
			if getI32(old.data, i) == int32(i) {
				if swaps != int32(i) {
					t.Errorf("%s compare-exchange succeeded for item %d after %d successes", file, i, swaps)
				}
				swaps++
			}
		}
		wantC := []int32{sum, 1000 - 2*n, 5 + n, 5 - n, min(40, 50-(n-1)), max(-100, 3*(n-1)-20), swaps, 1234, n, 100*(n/groupSize) - sum}
		for k, want := range wantC {
			if got := getI32(c.data, k); got != want {
				t.Errorf("%s c[%d] = %d, want %d", file, k, got, want)
			}
		}
		if swaps != 4 {
			t.Errorf("%s: %d compare-exchanges succeeded, want 4 (the first warp of the first work-group)", file, swaps)
		}
		wantU := []uint32{0xffffffff &^ orBits, 0x100 | orBits, xor, 7, maxX}
		for k, want := range wantU {
			if got := getU32(u.data, k); got != want {
				t.Errorf("%s u[%d] = %#x, want %#x", file, k, got, want)
			}
		}
		if got, want := getI64(w.data, 0), int64(1)+int64(sum)<<33; got != want {
			t.Errorf("%s atom_add on a long = %#x, want %#x", file, got, want)
		}
	}
}
