package kernel

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Random is the deterministic generator behind random[:SEED] and
// chase:STRIDE[:SEED]: splitmix64 (Steele, Lea, Flood, "Fast splittable
// pseudorandom number generators", OOPSLA 2014), the state starting at SEED.
// Each component takes one 64-bit draw, in memory order (3-vector padding takes
// none): integers keep the low Bits bits, so they are uniform over the type's
// full range; f16, f32 and f64 are uniform in [0,1) as k×2^-11, k×2^-24 and
// k×2^-53 from the top 11, 24 or 53 bits.
type Random struct{ state uint64 }

// NewRandom returns the generator for seed.
func NewRandom(seed uint64) *Random { return &Random{state: seed} }

// Next returns the next 64-bit draw.
func (r *Random) Next() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Below returns a uniform integer in [0, n) for n > 0: draw % n, rejecting
// the 2^64 mod n smallest draws so that every remainder is equally likely.
func (r *Random) Below(n uint64) uint64 {
	threshold := -n % n // 2^64 mod n: draws below it would favour small results
	for {
		if v := r.Next(); v >= threshold {
			return v % n
		}
	}
}

// Materialize returns the argument's initial contents, little-endian: the
// buffer or image data (images as RGBA texels, rows packed), the scalar value,
// or nil for local memory. file: paths are relative to baseDir.
//
// chase:STRIDE[:SEED] builds a pointer-chase ring: slots are the elements at
// byte offsets 0, STRIDE, 2×STRIDE, ... that lie inside the buffer; a random
// single cycle through all slots is drawn with Sattolo's algorithm (for i
// from n-1 down to 1, swap p[i] with p[j], j uniform in [0, i)), and slot k
// holds the element index of slot p[k] (u32). Every other element is 0, so a
// walk started at element 0 visits every slot once before returning. For an
// image the ring is over texels and the index is stored in channel x.
func (a *Arg) Materialize(baseDir string) ([]byte, error) {
	switch a.Kind {
	case ScalarArg, BytesArg:
		return append([]byte(nil), a.Scalar...), nil
	case LocalArg:
		return nil, nil
	case BufferArg, Image1DBufferArg, Image2DArg:
	default:
		return nil, fmt.Errorf("argument %q: unknown kind %v", a.Spec, a.Kind)
	}
	size := a.ByteSize()
	if a.Init.Kind == InitFile {
		return a.readFile(baseDir, size)
	}
	data := make([]byte, size)
	e := a.Elem
	cb := e.Bits / 8
	esz := e.Size()
	switch a.Init.Kind {
	case InitZero:
	case InitFill:
		if len(a.Init.Fill) != esz {
			return nil, fmt.Errorf("argument %q: fill value has %d bytes, want %d", a.Spec, len(a.Init.Fill), esz)
		}
		for off := 0; off < size; off += esz {
			copy(data[off:], a.Init.Fill)
		}
	case InitIota:
		k := uint64(0)
		for i := 0; i < a.Count; i++ {
			for c := 0; c < e.Vec; c++ {
				putComponent(data[i*esz+c*cb:], e, k, float64(k))
				k++
			}
		}
	case InitRandom:
		r := NewRandom(a.Init.Seed)
		for i := 0; i < a.Count; i++ {
			for c := 0; c < e.Vec; c++ {
				v := r.Next()
				var f float64
				switch e.Base {
				case F16:
					f = float64(v>>53) * 0x1p-11
				case F32:
					f = float64(v>>40) * 0x1p-24
				case F64:
					f = float64(v>>11) * 0x1p-53
				}
				putComponent(data[i*esz+c*cb:], e, v, f)
			}
		}
	case InitChase:
		if a.Init.Stride <= 0 || a.Init.Stride%esz != 0 || e.Base != U32 {
			return nil, fmt.Errorf("argument %q: chase needs u32 elements and a stride that is a positive multiple of %d bytes", a.Spec, esz)
		}
		step := a.Init.Stride / esz // elements between slots
		n := (a.Count + step - 1) / step
		p := make([]uint32, n)
		for i := range p {
			p[i] = uint32(i)
		}
		r := NewRandom(a.Init.Seed)
		for i := n - 1; i >= 1; i-- {
			j := r.Below(uint64(i))
			p[i], p[j] = p[j], p[i]
		}
		for k := 0; k < n; k++ {
			binary.LittleEndian.PutUint32(data[k*step*esz:], p[k]*uint32(step))
		}
	default:
		return nil, fmt.Errorf("argument %q: unknown INIT kind %d", a.Spec, a.Init.Kind)
	}
	return data, nil
}

func (a *Arg) readFile(baseDir string, size int) ([]byte, error) {
	path := a.Init.Path
	if !filepath.IsAbs(path) && baseDir != "" {
		path = filepath.Join(baseDir, path)
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("argument %q: %w", a.Spec, err)
	}
	if st.IsDir() {
		return nil, fmt.Errorf("argument %q: %s is a directory, not a data file", a.Spec, path)
	}
	if st.Size() != int64(size) {
		return nil, fmt.Errorf("argument %q: file %s has %d bytes, but the argument is %d bytes (%d × %d-byte %v); the size must match", a.Spec, path, st.Size(), size, a.Count, a.Elem.Size(), a.Elem)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("argument %q: %w", a.Spec, err)
	}
	if len(data) != size {
		return nil, fmt.Errorf("argument %q: file %s changed size while being read", a.Spec, path)
	}
	return data, nil
}

// putComponent stores one component of type e.Base: the low bits of u for an
// integer, f rounded for a float.
func putComponent(b []byte, e ElemType, u uint64, f float64) {
	switch e.Base {
	case F16:
		binary.LittleEndian.PutUint16(b, HalfFromFloat64(f))
	case F32:
		binary.LittleEndian.PutUint32(b, math.Float32bits(float32(f)))
	case F64:
		binary.LittleEndian.PutUint64(b, math.Float64bits(f))
	default:
		putUint(b[:e.Bits/8], u)
	}
}

// Component returns component c of element i of data (type e) as a float64
// (for floats) or as the integer's value in i (signed) or u (unsigned).
func Component(data []byte, e ElemType, i, c int) (f float64, s int64, u uint64) {
	cb := e.Bits / 8
	b := data[i*e.Size()+c*cb:][:cb]
	raw := getUint(b)
	switch {
	case e.Base == F16:
		f = HalfToFloat64(uint16(raw))
	case e.Base == F32:
		f = float64(math.Float32frombits(uint32(raw)))
	case e.Base == F64:
		f = math.Float64frombits(raw)
	case e.Signed:
		s = int64(raw<<(64-e.Bits)) >> (64 - e.Bits)
	default:
		u = raw
	}
	return f, s, u
}

// FormatElements formats the first count elements of data (type e) for
// printing, one string per element: "1.5", "-3", or "(1, 2, 3, 4)" for a
// vector (a 3-vector prints 3 components). Floats print the shortest
// decimal that reads back to the same value of their type. count < 0, or
// more than data holds, means every whole element in data.
func FormatElements(data []byte, e ElemType, count int) []string {
	size := e.Size()
	if size <= 0 || e.Vec <= 0 {
		return nil
	}
	n := len(data) / size
	if count >= 0 && count < n {
		n = count
	}
	out := make([]string, n)
	var sb strings.Builder
	for i := 0; i < n; i++ {
		sb.Reset()
		if e.Vec > 1 {
			sb.WriteByte('(')
		}
		for c := 0; c < e.Vec; c++ {
			if c > 0 {
				sb.WriteString(", ")
			}
			sb.WriteString(formatComponent(data, e, i, c))
		}
		if e.Vec > 1 {
			sb.WriteByte(')')
		}
		out[i] = sb.String()
	}
	return out
}

func formatComponent(data []byte, e ElemType, i, c int) string {
	f, s, u := Component(data, e, i, c)
	switch {
	case e.Base == F16:
		return formatHalf(f)
	case e.Base == F32:
		return strconv.FormatFloat(f, 'g', -1, 32)
	case e.Base == F64:
		return strconv.FormatFloat(f, 'g', -1, 64)
	case e.Signed:
		return strconv.FormatInt(s, 10)
	}
	return strconv.FormatUint(u, 10)
}

// formatHalf prints the shortest decimal that rounds back to the same half;
// whole numbers (every half of magnitude 1024 or more is one) print in full.
func formatHalf(f float64) string {
	if math.IsInf(f, 0) || math.IsNaN(f) || f == math.Trunc(f) {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	h := HalfFromFloat64(f)
	for prec := 1; prec < 17; prec++ {
		s := strconv.FormatFloat(f, 'g', prec, 64)
		if v, err := strconv.ParseFloat(s, 64); err == nil && HalfFromFloat64(v) == h {
			return s
		}
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}
