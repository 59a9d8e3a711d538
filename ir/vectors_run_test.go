package ir_test

import (
	"math"
	"testing"

	"github.com/pocketgpu/pocketgpu/kernel"
)

// halfRound rounds x to binary16 in a SPIR-V rounding mode (0 nearest
// even, 1 toward zero, 2 toward +inf) from the kernel package's
// nearest-even conversion, stepping one value when it went the wrong way.
func halfRound(x float64, mode int) uint16 {
	h := kernel.HalfFromFloat64(x)
	back := kernel.HalfToFloat64(h)
	switch {
	case mode == 1 && math.Abs(back) > math.Abs(x):
		h-- // toward zero: one step down in magnitude
	case mode == 2 && back < x:
		if x < 0 {
			h--
		} else {
			h++
		}
	}
	return h
}

// Swizzles, inserts and constructors move slots; dynamic indices pick the
// lane's component; geometric functions and relational reductions; the
// shuffles, selects (component-wise and with a scalar condition) and
// bitselect; vload/vstore of 3-vectors and the half forms with their
// rounding modes and the aligned 3-vector stride.
func TestVectors(t *testing.T) {
	for _, file := range both("vectors") {
		const n = 8
		var in []float32
		for i := 0; i < n; i++ {
			in = append(in, float32(i+1), float32(2*i-3), 0.5, float32(-i))
		}
		out, out8 := zeros(16*n), zeros(32*n)
		launch{file: file, entry: "swz", global: [3]int{n, 1, 1}, local: [3]int{n, 1, 1},
			args: []any{&buf{data: f32s(in...)}, out, out8}}.mustRun(t)
		for i := 0; i < n; i++ {
			a, b, c, d := in[4*i], in[4*i+1], in[4*i+2], in[4*i+3]
			want := []float32{d + a, 2*a + b, b + b, a + d}
			want8 := []float32{a, b, c, d, a, b, 2 * a, d}
			for k := range want {
				if got := getF32(out.data, 4*i+k); got != want[k] {
					t.Errorf("%s swz %d: out.s%d = %v, want %v", file, i, k, got, want[k])
				}
			}
			for k := range want8 {
				if got := getF32(out8.data, 8*i+k); got != want8[k] {
					t.Errorf("%s swz %d: out8.s%d = %v, want %v", file, i, k, got, want8[k])
				}
			}
		}

		var vi []int32
		var idx []int32
		for i := 0; i < n; i++ {
			vi = append(vi, int32(10*i), int32(10*i+1), int32(10*i+2), int32(10*i+3))
			idx = append(idx, int32(i*5))
		}
		o1, o4 := zeros(4*n), zeros(16*n)
		launch{file: file, entry: "dyn", global: [3]int{n, 1, 1}, local: [3]int{n, 1, 1},
			args: []any{&buf{data: i32s(vi...)}, &buf{data: i32s(idx...)}, o1, o4}}.mustRun(t)
		for i := 0; i < n; i++ {
			k := int(idx[i] & 3)
			if got := getI32(o1.data, i); got != vi[4*i+k] {
				t.Errorf("%s dyn %d: v[%d] = %d, want %d", file, i, k, got, vi[4*i+k])
			}
			for c := 0; c < 4; c++ {
				want := vi[4*i+c]
				if c == (k+1)&3 {
					want = 77
				}
				if got := getI32(o4.data, 4*i+c); got != want {
					t.Errorf("%s dyn %d: after v[%d] = 77, component %d = %d, want %d", file, i, (k+1)&3, c, got, want)
				}
			}
		}

		xa := [][4]float32{{3, 4, 1, 2}, {0, 3, -4, 0}, {1, 0, 0, 5}, {2, 2, 2, 2}}
		ya := [][4]float32{{1, 2, 7, 10}, {5, 3, 2, 8}, {0, 1, 3, 1}, {2, 2, 2, 2}}
		var xb, yb []float32
		for i := range xa {
			xb = append(xb, xa[i][:]...)
			yb = append(yb, ya[i][:]...)
		}
		g := zeros(4 * 8 * len(xa))
		launch{file: file, entry: "geom", global: [3]int{len(xa), 1, 1}, local: [3]int{len(xa), 1, 1},
			args: []any{&buf{data: f32s(xb...)}, &buf{data: f32s(yb...)}, g}}.mustRun(t)
		for i := range xa {
			x, y := xa[i], ya[i]
			anyGT, allGE := false, true
			for k := 0; k < 4; k++ {
				anyGT = anyGT || x[k] > y[k]
				allGE = allGE && x[k] >= 0
			}
			dz, dw := float64(x[2]-y[2]), float64(x[3]-y[3])
			want := []float32{x[0]*y[0] + x[1]*y[1] + x[2]*y[2] + x[3]*y[3],
				float32(math.Hypot(float64(x[0]), float64(x[1]))), float32(math.Hypot(dz, dw)),
				x[1]*y[2] - x[2]*y[1], x[2]*y[0] - x[0]*y[2], x[0]*y[1] - x[1]*y[0],
				float32(b2u(anyGT)), float32(b2u(allGE))}
			for k := range want {
				if got := getF32(g.data, 8*i+k); got != want[k] {
					t.Errorf("%s geom %v %v: result %d = %v, want %v", file, x, y, k, got, want[k])
				}
			}
		}

		var ua, ub []uint32
		for i := 0; i < n; i++ {
			for k := 0; k < 4; k++ {
				ua = append(ua, uint32(100*i+k))
				ub = append(ub, uint32(100*i+50+k))
			}
		}
		sh := zeros(32 * n)
		launch{file: file, entry: "shuf", global: [3]int{n, 1, 1}, local: [3]int{n, 1, 1},
			args: []any{&buf{data: u32s(ua...)}, &buf{data: u32s(ub...)}, sh}}.mustRun(t)
		for i := 0; i < n; i++ {
			m := []int{3, 0, 6, 1}
			for k := range m {
				m[k] += i & 1
				// Only the mask bits that can index the input count.
				w1 := ua[4*i+m[k]%4]
				var w2 uint32
				if j := m[k] % 8; j < 4 {
					w2 = ua[4*i+j]
				} else {
					w2 = ub[4*i+j-4]
				}
				if got := getU32(sh.data, 8*i+k); got != w1 {
					t.Errorf("%s shuffle %d component %d = %d, want %d", file, i, k, got, w1)
				}
				if got := getU32(sh.data, 8*i+4+k); got != w2 {
					t.Errorf("%s shuffle2 %d component %d = %d, want %d", file, i, k, got, w2)
				}
			}
		}

		var sa, sb []int32
		for i := 0; i < n; i++ {
			sa = append(sa, int32(i), -int32(i), 0x12345678, int32(i*i-9))
			sb = append(sb, int32(3), int32(i-4), 0x0abcdef0, -int32(i))
		}
		so := zeros(48 * n)
		launch{file: file, entry: "sel", global: [3]int{n, 1, 1}, local: [3]int{n, 1, 1},
			args: []any{&buf{data: i32s(sa...)}, &buf{data: i32s(sb...)}, so}}.mustRun(t)
		for i := 0; i < n; i++ {
			for k := 0; k < 4; k++ {
				a, b := sa[4*i+k], sb[4*i+k]
				sel := a
				if a < b {
					sel = b
				}
				bs := a&^0x0f0f0f0f | b&0x0f0f0f0f
				tern := sb[4*i+k]
				if sa[4*i] > sb[4*i] {
					tern = a
				}
				for j, want := range []int32{sel, bs, tern} {
					if got := getI32(so.data, 4*(3*i+j)+k); got != want {
						t.Errorf("%s sel %d: result %d component %d = %#x, want %#x", file, i, j, k, got, want)
					}
				}
			}
		}

		vin := []float32{1.3, -2.7, 0.1, 1000.3, 70000, -70000, 1, 0.333, 65519, 2049.5, -3.0001, 1e-6}
		const nv = 4
		vout, h, back := zeros(4*3*nv), zeros(2*(64+4*nv)), zeros(4*nv)
		launch{file: file, entry: "vls", global: [3]int{nv, 1, 1}, local: [3]int{nv, 1, 1},
			args: []any{&buf{data: f32s(vin...)}, vout, h, back}}.mustRun(t)
		hv := func(k int) uint16 { return getU16(h.data, k) }
		for i := 0; i < nv; i++ {
			x, y, z := float64(vin[3*i]), float64(vin[3*i+1]), float64(vin[3*i+2])
			for k := 0; k < 3; k++ {
				if got := getF32(vout.data, 3*i+k); got != 2*vin[3*i+k] {
					t.Errorf("%s vstore3 %d.%d = %v, want %v", file, i, k, got, 2*vin[3*i+k])
				}
			}
			hx, hy, hz := halfRound(x, 0), halfRound(y, 1), halfRound(z, 2)
			for k, want := range []uint16{hx, hy, hz} {
				if got := hv(3*i + k); got != want {
					t.Errorf("%s vstore_half%s(%v) = %#04x, want %#04x", file, []string{"", "_rtz", "_rtp"}[k], vin[3*i+k], got, want)
				}
			}
			fx, fy, fz := float32(kernel.HalfToFloat64(hx)), float32(kernel.HalfToFloat64(hy)), float32(kernel.HalfToFloat64(hz))
			if got, want := getF32(back.data, i), float32(float32(fx+fy)+fz); got != want && !(math.IsNaN(float64(got)) && math.IsNaN(float64(want))) {
				t.Errorf("%s vload_half sum %d = %v, want %v", file, i, got, want)
			}
			// vstorea_half3 writes (h[3i], h[3i+1], z) at a 4-half stride.
			for k, want := range []uint16{hx, hy, halfRound(z, 0)} {
				if got := hv(64 + 4*i + k); got != want {
					t.Errorf("%s vstorea_half3 %d.%d = %#04x, want %#04x", file, i, k, got, want)
				}
			}
		}
	}
}
