package ir_test

import (
	"testing"
)

// A switch with fall-through, an early return inside a case and a default;
// a switch on a long whose case values differ in the high word; a loop
// whose two variables swap (the phi copies along its back edge read each
// other); loops with break, continue and a do-while, and an early return
// that leaves the output untouched. Both compiler pipelines' modules.
func TestControlFlow(t *testing.T) {
	for _, file := range both("control") {
		in := []int32{0, 1, 2, 3, 4, 5, 6, 6, 7, -3, 2, 1, 0, 6, 5, 100}
		flag := make([]int32, len(in))
		for i := range flag {
			flag[i] = int32(i % 2)
		}
		out := zeros(4 * len(in))
		launch{file: file, entry: "sw", global: [3]int{16, 1, 1}, local: [3]int{8, 1, 1},
			args: []any{&buf{data: i32s(in...)}, &buf{data: i32s(flag...)}, out}}.mustRun(t)
		for i, x := range in {
			var want int32
			switch x {
			case 0:
				want = 10
			case 1, 2:
				want = x * 2 // case 1 falls through into case 2
			case 5:
				want = -x
			case 6:
				want = 6
				if flag[i] != 0 {
					want = 99
				}
			default:
				want = x + 1000
			}
			if got := getI32(out.data, i); got != want {
				t.Errorf("%s sw(%d, flag %d) = %d, want %d", file, x, flag[i], got, want)
			}
		}

		in64 := []int64{0x100000000, -1, 3, 5, 0x100000003, 0xffffffff, -0x100000000 + 3, 0}
		out64 := zeros(8 * len(in64))
		launch{file: file, entry: "sw64", global: [3]int{8, 1, 1}, local: [3]int{8, 1, 1},
			args: []any{&buf{data: i64s(in64...)}, out64}}.mustRun(t)
		for i, x := range in64 {
			want := x ^ 0x5555
			switch x {
			case 0x100000000:
				want = 1
			case -1:
				want = 2
			case 3:
				want = 3
			}
			if got := getI64(out64.data, i); got != want {
				t.Errorf("%s sw64(%#x) = %#x, want %#x", file, x, got, want)
			}
		}

		n := []int32{0, 1, 2, 3, 10, 20, 30, 47, 5, 4, 3, 2, 1, 0, 9, 44}
		fib := zeros(8 * len(n))
		launch{file: file, entry: "swap", global: [3]int{16, 1, 1}, local: [3]int{4, 1, 1},
			args: []any{&buf{data: i32s(n...)}, fib}}.mustRun(t)
		for i, k := range n {
			a, b := uint32(0), uint32(1)
			for j := int32(0); j < k; j++ {
				a, b = b, a+b
			}
			if ga, gb := getU32(fib.data, 2*i), getU32(fib.data, 2*i+1); ga != a || gb != b {
				t.Errorf("%s swap(%d) = %d, %d, want %d, %d", file, k, ga, gb, a, b)
			}
		}

		stop := []int32{0, 1, 2, 3, 5, 8, 13, 21, 34, 63, 64, 99, -1, 7, 9, 12}
		lo := &buf{data: u32s(make([]uint32, len(stop))...)}
		for i := range stop {
			copy(lo.data[4*i:], u32s(0xdeadbeef))
		}
		launch{file: file, entry: "loops", global: [3]int{16, 1, 1}, local: [3]int{8, 1, 1},
			args: []any{&buf{data: i32s(stop...)}, lo}}.mustRun(t)
		for i, s := range stop {
			acc := uint32(0)
			for k := int32(0); k < 64; k++ {
				if k == s {
					break
				}
				if k&3 == 1 {
					continue
				}
				for j := k; ; {
					acc = acc*3 + uint32(j)
					if j -= 7; j <= 0 {
						break
					}
				}
			}
			want := acc
			if acc&15 == 3 {
				want = 0xdeadbeef
			}
			if got := getU32(lo.data, i); got != want {
				t.Errorf("%s loops(%d) = %#x, want %#x", file, s, got, want)
			}
		}
	}
}
