package ir_test

import (
	"math"
	"math/bits"
	"testing"

	"github.com/pocketgpu/pocketgpu/kernel"
)

// glslMathRef computes what testdata/glsl_math.comp writes for invocation
// i: matrices are column-major (m[c][r]) and every value is a small integer
// or half of one, so the float results are exact in any order.
func glslMathRef(i int, m [4][4]float32, v [4]float32, k2 int) (o [5][4]float32, u [16]uint32) {
	for r := 0; r < 4; r++ {
		for c := 0; c < 4; c++ {
			o[0][r] += m[c][r] * v[c]
			o[1][r] += v[c] * m[r][c]
			o[2][r] += m[r][c] * m[1][c] / 2 // (transpose(m) * m)[1] * 0.5
		}
		o[4][r] = m[3][r] * 2
	}
	d := v[0]*v[3] + v[1]*v[2] + v[2]*v[1] + v[3]*v[0]
	o[3] = [4]float32{v[0]*v[2] + d, v[1]*v[2] + d, v[0]*v[3] + d, v[1]*v[3] + d}
	x := math.Float32bits(v[0])
	s, c := bits.Add32(x, 0xC0000000, 0)
	u[0], u[1] = s, c
	u[2], u[3] = bits.Mul32(uint32(k2+i), 0x80000001)
	p := int64(i-2) * -7
	u[4], u[5] = uint32(p>>32), uint32(p)
	diff, borrow := bits.Sub32(uint32(i), 2, 0)
	u[6], u[7] = diff, borrow
	u[8] = 0xffffffff&^(0xff<<4) | uint32(i+1)&0xff<<4
	u[9] = uint32(int32(int8((0xabcd1234 + uint32(i)) >> 12)))
	u[10] = (0xabcd1234 + uint32(i)) >> 12 & 0xff
	u[11] = uint32(kernel.HalfFromFloat64(float64(v[0]))) | uint32(kernel.HalfFromFloat64(float64(v[1])))<<16
	u[12] = uint32(bits.Len32(uint32(i+5))-1) | uint32(bits.TrailingZeros32(uint32(i+4)))<<8
	anyGT, allGT := false, true
	for _, x := range v {
		anyGT = anyGT || x > 2.5
		allGT = allGT && x > 2.5
	}
	u[13] = b2u(anyGT) | b2u(allGT)<<1 | b2u(!(v[0] > 2.5))<<2
	u[14] = 4
	u[15] = uint32(bits.OnesCount32(uint32(i+6))) | bits.Reverse32(uint32(i))
	return o, u
}

// Matrix products, transposes, outer products and dot products become
// column operations; the extended integer operations, bit fields, packing,
// boolean reductions and OpArrayLength give GLSL's results; the
// specialization-constant expression K*2+1 follows an override of K.
func TestGLSLMath(t *testing.T) {
	var ms [4][4][4]float32
	var vs [4][4]float32
	var in []float32
	for i := 0; i < 4; i++ {
		for c := 0; c < 4; c++ {
			for r := 0; r < 4; r++ {
				ms[i][c][r] = float32((c*4+r+i*3)%7 - 3)
				in = append(in, ms[i][c][r])
			}
		}
		vs[i] = [4]float32{float32(i + 1), 2, -1, float32(3 - i)}
		in = append(in, vs[i][:]...)
	}
	for _, sc := range []struct {
		spec map[uint32]string
		k2   int
	}{{nil, 7}, {map[uint32]string{0: "5"}, 11}} {
		o, u := zeros(4*5*16), zeros(4*16*4)
		launch{file: "glsl_math.spv", global: [3]int{4, 1, 1}, spec: sc.spec,
			args: []any{&buf{data: f32s(in...)}, o, u}}.mustRun(t)
		for i := 0; i < 4; i++ {
			wo, wu := glslMathRef(i, ms[i], vs[i], sc.k2)
			for k := 0; k < 5; k++ {
				for r := 0; r < 4; r++ {
					if got := getF32(o.data, (5*i+k)*4+r); got != wo[k][r] {
						t.Errorf("K2=%d invocation %d: o[%d].%d = %v, want %v", sc.k2, i, 5*i+k, r, got, wo[k][r])
					}
				}
			}
			for k := 0; k < 16; k++ {
				if got := getU32(u.data, 16*i+k); got != wu[k] {
					t.Errorf("K2=%d invocation %d: u[%d] = %#x, want %#x", sc.k2, i, 16*i+k, got, wu[k])
				}
			}
		}
	}
}
