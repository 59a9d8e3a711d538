package corpus

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"

	"github.com/pocketgpu/pocketgpu/kernel"
)

// Little-endian views of argument contents for the references.

func decode[T any](b []byte) []T {
	var zero T
	s := make([]T, len(b)/binary.Size(zero))
	if _, err := binary.Decode(b, binary.LittleEndian, s); err != nil {
		panic(err) // only reachable with a T that has no fixed size
	}
	return s
}

func encode[T any](s []T) []byte {
	b, err := binary.Append(nil, binary.LittleEndian, s)
	if err != nil {
		panic(err)
	}
	return b
}

func scalar[T any](b []byte) T { return decode[T](b)[0] }

// half rounds a float32 computation's result to binary16 bits.
func half(f float32) uint16 { return kernel.HalfFromFloat64(float64(f)) }

// unhalf widens binary16 bits to float32 (exactly).
func unhalf(h uint16) float32 { return float32(kernel.HalfToFloat64(h)) }

// fma32 is a correctly rounded float32 fused multiply-add. The product of two
// float32 values is exact in float64, but rounding p+c to float64 and then to
// float32 can round twice the wrong way when the float64 sum lands exactly
// half-way between two float32 values; the exact error of the float64 sum
// (TwoSum) decides those cases.
func fma32(a, b, c float32) float32 {
	p := float64(a) * float64(b) // exact: 24+24 bits
	cf := float64(c)
	s := p + cf
	if math.IsInf(s, 0) || math.IsNaN(s) {
		return float32(s)
	}
	bb := s - p
	err := (p - (s - bb)) + (cf - bb) // p + c == s + err exactly
	r := float32(s)
	if err == 0 || float64(r) == s {
		return r
	}
	// The other float32 neighbour of s.
	var other float32
	if s > float64(r) {
		other = math.Nextafter32(r, float32(math.Inf(1)))
	} else {
		other = math.Nextafter32(r, float32(math.Inf(-1)))
	}
	if s-float64(r) == float64(other)-s { // s is a tie: err says which side the exact value is on
		if (err > 0) == (float64(other) > float64(r)) {
			return other
		}
	}
	return r
}

func clampI(v, lo, hi int) int { return min(max(v, lo), hi) }

// --- references, one per case ---------------------------------------------

func refVecadd(in [][]byte) (map[int][]byte, error) {
	a, b, c := decode[float32](in[0]), decode[float32](in[1]), decode[float32](in[2])
	n := int(scalar[uint32](in[3]))
	for i := 0; i < n && i < len(c); i++ {
		c[i] = a[i] + b[i]
	}
	return map[int][]byte{2: encode(c)}, nil
}

func refReduce(in [][]byte) (map[int][]byte, error) {
	data, out := decode[uint32](in[0]), decode[uint32](in[1])
	n := int(scalar[uint32](in[3]))
	const group = 128
	for g := range out {
		var s uint32
		for i := g * group; i < (g+1)*group && i < n; i++ {
			s += data[i]
		}
		out[g] = s
	}
	return map[int][]byte{1: encode(out)}, nil
}

// refReduceGLSL adds in the kernel's tree order, so the float32 result is
// the same bit for bit.
func refReduceGLSL(in [][]byte) (map[int][]byte, error) {
	data, sums := decode[float32](in[0]), decode[float32](in[1])
	const group = 64
	for g := range sums {
		part := make([]float32, group)
		copy(part, data[g*group:])
		for s := group / 2; s > 0; s >>= 1 {
			for l := 0; l < s; l++ {
				part[l] += part[l+s]
			}
		}
		sums[g] = part[0]
	}
	return map[int][]byte{1: encode(sums)}, nil
}

func divergentOne(i, trip uint32) uint32 {
	n := trip % 37
	acc := i
	for k := uint32(0); k < n; k++ {
		if k%7 == 3 {
			continue
		}
		switch {
		case acc > 100000:
			if i&1 != 0 {
				acc = acc/3 + k
			} else {
				acc ^= k << 4
			}
		case acc&3 == 2:
			acc = acc*5 + 1
		default:
			acc += k * k
		}
		if acc%97 == 13 {
			break
		}
	}
	steps := uint32(0)
	for x := acc; x > 1 && steps < 64; steps++ {
		if x&1 != 0 {
			x = 3*x + 1
		} else {
			x >>= 1
		}
	}
	return acc ^ steps<<24
}

func refDivergent(in [][]byte) (map[int][]byte, error) {
	trips, out := decode[uint32](in[0]), decode[uint32](in[1])
	for i := range out {
		out[i] = divergentOne(uint32(i), trips[i])
	}
	return map[int][]byte{1: encode(out)}, nil
}

func refHistogram(in [][]byte) (map[int][]byte, error) {
	data, hist, stats := decode[uint32](in[0]), decode[uint32](in[1]), decode[uint32](in[2])
	n := int(scalar[uint32](in[4]))
	const workItems = 512 // the case's global size
	if n < workItems {
		return nil, fmt.Errorf("histogram reference assumes every work-item sees a value (n %d < %d)", n, workItems)
	}
	for _, v := range data[:n] {
		hist[v%64]++
		stats[1] = max(stats[1], v)
		stats[2] = min(stats[2], v)
	}
	stats[0] += workItems
	return map[int][]byte{1: encode(hist), 2: encode(stats)}, nil
}

func refChase(in [][]byte) (map[int][]byte, error) {
	next, out := decode[uint32](in[0]), decode[uint32](in[1])
	steps, slot := scalar[uint32](in[2]), scalar[uint32](in[3])
	for i := 0; i < len(out)/2; i++ {
		p, sum := uint32(i)*slot, uint32(0)
		for s := uint32(0); s < steps; s++ {
			if int(p) >= len(next) {
				return nil, fmt.Errorf("chase: work-item %d reached element %d of %d", i, p, len(next))
			}
			p = next[p]
			sum += p
		}
		out[2*i], out[2*i+1] = p, sum
	}
	return map[int][]byte{1: encode(out)}, nil
}

func refImage1D(in [][]byte) (map[int][]byte, error) {
	ring, texels := decode[uint32](in[0]), decode[uint32](in[1])
	ends, sw := decode[uint32](in[2]), decode[uint32](in[3])
	steps, slot := scalar[uint32](in[4]), scalar[uint32](in[5])
	for i := range ends {
		p := uint32(i) * slot
		for s := uint32(0); s < steps; s++ {
			p = ring[4*p] // channel x of texel p
		}
		ends[i] = p
		for c := 0; c < 4; c++ {
			sw[4*i+c] = texels[4*i+3-c] + uint32(i)
		}
	}
	return map[int][]byte{2: encode(ends), 3: encode(sw)}, nil
}

func refImage2D(in [][]byte) (map[int][]byte, error) {
	const w, h = 16, 8 // the image
	img, out := decode[float32](in[0]), decode[float32](in[1])
	gw := w + 2
	for y := 0; y < h+2; y++ {
		for x := 0; x < gw; x++ {
			tx, ty := clampI(x-1, 0, w-1), clampI(y-1, 0, h-1)
			add := [4]float32{float32(x), float32(y), 0, 1}
			for c := 0; c < 4; c++ {
				out[4*(y*gw+x)+c] = img[4*(ty*w+tx)+c]*2 + add[c]
			}
		}
	}
	return map[int][]byte{1: encode(out)}, nil
}

func refHalf(in [][]byte) (map[int][]byte, error) {
	a, b := decode[uint16](in[0]), decode[uint16](in[1])
	sum, prod, wide := decode[uint16](in[2]), decode[uint16](in[3]), decode[float32](in[4])
	in4, out4 := decode[uint16](in[5]), decode[uint16](in[6])
	add := [4]float32{1, -1, 0.25, 0}
	for i := range a {
		fa, fb := unhalf(a[i]), unhalf(b[i])
		sum[i] = half(fa + fb) // exact in float32, so one rounding, as in half
		prod[i] = half(fa * fb)
		wide[i] = fa*2 - fb
		for c := 0; c < 4; c++ {
			v := unhalf(in4[4*i+c])*0.5 + add[c] // float32, then vstore_half rounds
			out4[4*i+c] = half(v)
		}
	}
	return map[int][]byte{2: encode(sum), 3: encode(prod), 4: encode(wide), 6: encode(out4)}, nil
}

func refInt8(in [][]byte) (map[int][]byte, error) {
	x, y := decode[int8](in[0]), decode[int8](in[1])
	sum, sat, mixed := decode[int8](in[2]), decode[int8](in[3]), decode[uint8](in[4])
	dot := decode[int32](in[5])
	shifts := [4]int8{1, 2, 3, 7}
	for i := range x {
		c := i % 4
		sum[i] = x[i] + y[i]
		sat[i] = int8(clampI(int(x[i])+int(y[i]), math.MinInt8, math.MaxInt8))
		absx := uint8(x[i])
		if x[i] < 0 {
			absx = uint8(-int(x[i]))
		}
		mixed[i] = absx ^ uint8(y[i]>>shifts[c]) ^ (uint8(max(x[i], y[i])) - uint8(min(x[i], y[i])))
		dot[i/4] += int32(x[i]) * int32(y[i])
	}
	return map[int][]byte{2: encode(sum), 3: encode(sat), 4: encode(mixed), 5: encode(dot)}, nil
}

func refInt64(in [][]byte) (map[int][]byte, error) {
	a, b, out := decode[uint64](in[0]), decode[uint64](in[1]), decode[uint64](in[2])
	for i := range a {
		x, y := a[i], b[i]
		o := out[8*i : 8*i+8]
		o[0], _ = bits.Mul64(x, y)
		o[1] = bits.RotateLeft64(x, int(y&63))
		o[2] = uint64(bits.OnesCount64(x))
		o[3] = uint64(bits.LeadingZeros64(y >> (x & 63)))
		o[4] = x*y + x>>7
		o[5] = uint64(int64(x) >> (y & 63))
		o[6] = x / (y>>40 | 1)
		// Signed high half: the unsigned one minus the other operand for
		// each negative operand (two's complement).
		hi, _ := bits.Mul64(x, y)
		if int64(x) < 0 {
			hi -= y
		}
		if int64(y) < 0 {
			hi -= x
		}
		o[7] = hi
	}
	return map[int][]byte{2: encode(out)}, nil
}

func refStencil(in [][]byte) (map[int][]byte, error) {
	src, out := decode[float32](in[0]), decode[float32](in[1])
	w, h := int(scalar[int32](in[2])), int(scalar[int32](in[3]))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			i := y*w + x
			if x == 0 || y == 0 || x == w-1 || y == h-1 {
				out[i] = src[i]
				continue
			}
			s := src[i-1] + src[i+1]
			s += src[i-w]
			s += src[i+w]
			out[i] = 0.5*src[i] + 0.125*s // both products exact
		}
	}
	return map[int][]byte{1: encode(out)}, nil
}

func refMatmul(in [][]byte) (map[int][]byte, error) {
	A, B, C := decode[float32](in[0]), decode[float32](in[1]), decode[float32](in[2])
	M, N, K := int(scalar[int32](in[3])), int(scalar[int32](in[4])), int(scalar[int32](in[5]))
	for r := 0; r < M; r++ {
		for c := 0; c < N; c++ {
			// Integer-valued inputs keep every partial sum below 2^24, so the
			// float32 result is exact whatever the order or fusion.
			var acc float64
			for k := 0; k < K; k++ {
				acc += float64(A[r*K+k]) * float64(B[k*N+c])
			}
			if acc >= 1<<24 {
				return nil, fmt.Errorf("matmul: C[%d][%d] = %g is not exact in float32; keep the inputs small", r, c, acc)
			}
			C[r*N+c] = float32(acc)
		}
	}
	return map[int][]byte{2: encode(C)}, nil
}

func refSpec(in [][]byte) (map[int][]byte, error) {
	const shift, gain, groupSize = 3, 1.5, 32 // the source's defaults
	a, b := decode[uint32](in[0]), decode[float32](in[1])
	c, d := decode[uint32](in[2]), decode[float32](in[3])
	n, bias := scalar[uint32](in[4]), scalar[float32](in[5])
	for i := uint32(0); i < n && int(i) < len(c); i++ {
		v := a[i]>>shift + i/groupSize*groupSize
		c[i] = ^v                 // NEGATE defaults to true
		p := float32(b[i] * gain) // the conversion keeps Go from fusing into the add
		s := p + bias
		d[i] = s + d[i]
	}
	return map[int][]byte{2: encode(c), 3: encode(d)}, nil
}

func refVectors(in [][]byte) (map[int][]byte, error) {
	a, b, c3 := decode[float32](in[0]), decode[int32](in[1]), decode[float32](in[2])
	o16, o8, o3 := decode[float32](in[3]), decode[int32](in[4]), decode[float32](in[5])
	osum, o2 := decode[float32](in[6]), decode[uint16](in[7])
	for i := range osum {
		v := a[16*i : 16*i+16]
		w := b[8*i : 8*i+8]
		for k := 0; k < 16; k++ {
			hl := v[(k+8)%16] // (v.hi, v.lo)
			o16[16*i+k] = hl + v[15-k]*2
		}
		for k := 0; k < 8; k++ {
			w2 := int32(uint32(w[7-k])*uint32(k+1) + uint32(w[k]>>2))
			if w2 < 0 {
				w2 = int32(-uint32(w2))
			}
			o8[8*i+k] = w2
		}
		t := c3[4*i : 4*i+4]
		o3[4*i+0] = t[2] - v[0]
		o3[4*i+1] = t[0] - v[1]
		o3[4*i+2] = t[1] - v[2]
		o3[4*i+3] = 0 // padding, not compared
		var acc float32
		for k := 0; k < 16; k++ {
			acc = acc*0.5 + v[(k*5+i)&15]
		}
		osum[i] = acc
		s0, s1 := uint16(uint32(w[0]))*65533, uint16(uint32(w[1]))*1000
		o2[2*i], o2[2*i+1] = s1, s0
	}
	return map[int][]byte{3: encode(o16), 4: encode(o8), 5: encode(o3), 6: encode(osum), 7: encode(o2)}, nil
}

func refMath(in [][]byte) (map[int][]byte, error) {
	x, o := decode[float32](in[0]), decode[float32](in[1])
	f := func(v float64) float32 { return float32(v) }
	for i, a := range x {
		v := a*4 - 2
		r := o[8*i : 8*i+8]
		r[0] = f(math.Sqrt(float64(a)))
		r[1] = f(math.Exp(float64(v)))
		r[2] = f(math.Log(float64(a + 0.5)))
		r[3] = f(math.Sin(float64(v * 3)))
		r[4] = f(math.Cos(float64(v * 3)))
		r[5] = f(1 / float64(a+0.25))
		r[6] = f(1 / math.Sqrt(float64(a+0.25)))
		r[7] = f(math.Sqrt(float64(v)*float64(v) + 1))
	}
	return map[int][]byte{1: encode(o)}, nil
}

func refSelect(in [][]byte) (map[int][]byte, error) {
	x, y := decode[float32](in[0]), decode[float32](in[1])
	o, oi := decode[float32](in[2]), decode[int32](in[3])
	for i := range x {
		a, b := x[i], y[i]
		v := a*4 - 2
		r := o[6*i : 6*i+6]
		r[0] = min(max(v, -1), 0.5)
		d := b - a
		r[1] = a + d*0.25 // exact product, one rounding
		r[2] = float32(math.Abs(float64(v)))
		r[3] = min(a, b)
		r[4] = max(a, b)
		r[5] = a
		if a > b {
			r[5] = b
		}
		ia := int32(a*16777216) - 8388608
		ib := int32(b*256) - 128
		q := oi[8*i : 8*i+8]
		q[0] = ia*ib + int32(i)
		q[1] = min(ia, ib)
		q[2] = max(ia, ib)
		q[3] = min(max(ia, -1000000), 1000000)
		for c, m := range [4]int32{ia, ib, -ia, -ib} {
			q[4+c] = int32(c + 1)
			if m < 0 { // vector select takes b where the mask's top bit is set
				q[4+c] = -int32(c + 1)
			}
		}
	}
	return map[int][]byte{2: encode(o), 3: encode(oi)}, nil
}

func refFMA8(in [][]byte) (map[int][]byte, error) {
	out := decode[float32](in[0])
	iters, m := scalar[uint32](in[1]), scalar[float32](in[2])
	adds := [8]float32{0.5, 0.25, 0.125, -0.5, 1, -0.25, 0.75, -1}
	for i := range out {
		x := float32(float32(i) * 0.001) // rounded before the adds, as in the kernel
		var acc [8]float32
		for j := range acc {
			acc[j] = x + float32(j)
		}
		acc[0] = x
		for k := uint32(0); k < iters; k++ {
			for j := range acc {
				acc[j] = fma32(acc[j], m, adds[j])
			}
		}
		s := acc[0]
		for _, v := range acc[1:] {
			s += v
		}
		out[i] = s
	}
	return map[int][]byte{0: encode(out)}, nil
}
