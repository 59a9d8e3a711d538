package bench

import (
	"encoding/binary"
	"fmt"
	"math"
	"testing"

	"github.com/pocketgpu/pocketgpu/device"
	"github.com/pocketgpu/pocketgpu/kernel"
)

// d3q19 is the velocity set of kernels/lbm3d.cl, in its order, with the
// weights.
var d3q19 = [19][3]int{
	{0, 0, 0},
	{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1},
	{1, 1, 0}, {-1, -1, 0}, {1, 0, 1}, {-1, 0, -1}, {0, 1, 1}, {0, -1, -1},
	{1, -1, 0}, {-1, 1, 0}, {1, 0, -1}, {-1, 0, 1}, {0, 1, -1}, {0, -1, 1},
}

func d3q19Weight(i int) float64 {
	switch {
	case i == 0:
		return 1.0 / 3
	case i <= 6:
		return 1.0 / 18
	}
	return 1.0 / 36
}

// lbm3dStep is the Go reference of one D3Q19 step of kernels/lbm3d.cl on a
// periodic nx × nx × nz box (float64 arithmetic): pull streaming, BGK
// collision, solid cells (flag bit 0) left out and their output untouched.
func lbm3dStep(fi, fo []float64, flags []byte, nx, nz int, omega float64) {
	cells := nx * nx * nz
	wrap := func(v, n int) int { return ((v % n) + n) % n }
	for z := 0; z < nz; z++ {
		for y := 0; y < nx; y++ {
			for x := 0; x < nx; x++ {
				cell := x + nx*(y+nx*z)
				if flags[cell]&1 != 0 {
					continue
				}
				var f [19]float64
				for i, c := range d3q19 {
					src := wrap(x-c[0], nx) + nx*(wrap(y-c[1], nx)+nx*wrap(z-c[2], nz))
					f[i] = fi[i*cells+src]
				}
				d3q19Collide(&f, omega)
				for i := range d3q19 {
					fo[i*cells+cell] = f[i]
				}
			}
		}
	}
}

// The D3Q19 kernels compute the Go reference's step on a small box with
// random distributions and a few solid cells, and conserve mass on an
// all-fluid box.
func TestFluidD3Q19MatchesGo(t *testing.T) {
	const xyLog2, zLog2 = 3, 2 // 8 × 8 × 4
	const nx, nz = 1 << xyLog2, 1 << zLog2
	const cells = nx * nx * nz
	const omega = 0.8
	c := newCtx(lookupGPU(t, "mali-g52"), Options{})
	for _, v := range fluidVariants {
		for _, solid := range []bool{false, true} {
			entry := "lbm3d" + v.suffix
			t.Run(fmt.Sprintf("%s/solid=%v", entry, solid), func(t *testing.T) {
				k, err := c.kernel("lbm3d", entry)
				if err != nil {
					t.Fatal(err)
				}
				buf := fmt.Sprintf("buf:%s:%d", v.typ, 19*cells)
				l, err := c.bind(k, cells, 64, buf+"=random:7", buf+"=fill:-1", fmt.Sprintf("buf:u8:%d", cells),
					fmt.Sprintf("u32:%d", xyLog2), fmt.Sprintf("u32:%d", zLog2), "u32:1", fmt.Sprintf("f32:%g", omega))
				if err != nil {
					t.Fatal(err)
				}
				defer l.free()
				flags := l.buffer(2).Bytes()
				if solid {
					for _, cell := range []int{0, 37, 100, 255} {
						flags[cell] = 1
					}
				}
				in := readFloats(l.buffer(0).Bytes(), v.typ)
				if _, err := c.dev.Dispatch(l.k, l.nd, l.bound.Args, device.Options{}); err != nil {
					t.Fatal(err)
				}
				got := readFloats(l.buffer(1).Bytes(), v.typ)
				want := make([]float64, 19*cells)
				for i := range want {
					want[i] = -1
				}
				lbm3dStep(in, want, flags, nx, nz, omega)
				// FP32 arithmetic against float64: a few ulps of the
				// largest terms; FP16 storage rounds the result to 11 bits.
				tol := 1e-5
				if v.typ == "f16" {
					tol = 2e-3
				}
				for i := range want {
					if math.Abs(got[i]-want[i]) > tol*math.Max(1, math.Abs(want[i])) {
						t.Fatalf("distribution %d of cell %d: got %g, want %g", i/cells, i%cells, got[i], want[i])
					}
				}
				if !solid {
					checkMass(t, in, got, tol)
				}
			})
		}
	}
}

func readFloats(b []byte, typ string) []float64 {
	if typ == "f16" {
		out := make([]float64, len(b)/2)
		for i := range out {
			out[i] = kernel.HalfToFloat64(binary.LittleEndian.Uint16(b[2*i:]))
		}
		return out
	}
	out := make([]float64, len(b)/4)
	for i := range out {
		out[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])))
	}
	return out
}

// The FluidX3D-style step (kernels/fx3d.cl): flag bits.
const (
	fxSolid = 1 // not updated
	fxEquil = 2 // relaxed fully to the equilibrium of its own moments
)

// d3q19Collide relaxes one cell's distributions (BGK, float64) with rate
// omega towards the equilibrium of their density and velocity.
func d3q19Collide(f *[19]float64, omega float64) {
	var rho, ux, uy, uz float64
	for i, c := range d3q19 {
		rho += f[i]
		ux += float64(c[0]) * f[i]
		uy += float64(c[1]) * f[i]
		uz += float64(c[2]) * f[i]
	}
	ux, uy, uz = ux/rho, uy/rho, uz/rho
	u2 := ux*ux + uy*uy + uz*uz
	for i, c := range d3q19 {
		cu := float64(c[0])*ux + float64(c[1])*uy + float64(c[2])*uz
		feq := d3q19Weight(i) * rho * (1 + 3*cu + 4.5*cu*cu - 1.5*u2)
		f[i] += omega * (feq - f[i])
	}
}

// fxBox is a periodic sx × sy × sz box, cells numbered x + sx (y + sy z).
type fxBox struct{ sx, sy, sz int }

func (b fxBox) cells() int { return b.sx * b.sy * b.sz }

// at is the cell at (x, y, z) + d, wrapped.
func (b fxBox) at(cell int, d [3]int) int {
	wrap := func(v, n int) int { return ((v % n) + n) % n }
	x, y, z := cell%b.sx, cell/b.sx%b.sy, cell/(b.sx*b.sy)
	return wrap(x+d[0], b.sx) + b.sx*(wrap(y+d[1], b.sy)+b.sy*wrap(z+d[2], b.sz))
}

func fxRate(flag byte, omega float64) float64 {
	if flag&fxEquil != 0 {
		return 1
	}
	return omega
}

// fxPullStep is the plain reference: pull streaming from fi into fo, BGK
// collision; solid cells are left out, their output untouched.
func fxPullStep(fi, fo []float64, flags []byte, b fxBox, omega float64) {
	cells := b.cells()
	for n := 0; n < cells; n++ {
		if flags[n]&fxSolid != 0 {
			continue
		}
		var f [19]float64
		for i, c := range d3q19 {
			f[i] = fi[i*cells+b.at(n, [3]int{-c[0], -c[1], -c[2]})]
		}
		d3q19Collide(&f, fxRate(flags[n], omega))
		for i := range f {
			fo[i*cells+n] = f[i]
		}
	}
}

// fxEsotericStep is one esoteric-pull step of parity t in place, as
// kernels/fx3d.cl's header describes it: for each pair (a, a+1) the cell
// reads f_a from its own cell, plane a+1 on even steps and a on odd ones,
// and f_a+1 from its neighbour n + c_a, plane a (even) or a+1 (odd), and
// writes the post-collision values back swapped. Each slot belongs to one
// cell a step, so updating the cells one after another in place is the
// parallel step.
func fxEsotericStep(f []float64, flags []byte, b fxBox, t int, omega float64) {
	cells := b.cells()
	odd := t & 1
	for n := 0; n < cells; n++ {
		if flags[n]&fxSolid != 0 {
			continue
		}
		var slot [19]int
		slot[0] = n
		for a := 1; a < 19; a += 2 {
			slot[a] = (a+1-odd)*cells + n
			slot[a+1] = (a+odd)*cells + b.at(n, d3q19[a])
		}
		var g [19]float64
		for i := range g {
			g[i] = f[slot[i]]
		}
		d3q19Collide(&g, fxRate(flags[n], omega))
		f[slot[0]] = g[0]
		for a := 1; a < 19; a += 2 {
			f[slot[a+1]] = g[a]
			f[slot[a]] = g[a+1]
		}
	}
}

// fxLayout gives, for each slot of the esoteric-pull array before a step
// of parity t, the slot of the plain (pull) array whose value it holds:
// before an odd step plane a holds the f_a that has arrived at the cell
// and plane a+1 the cell's own f_a+1; before an even step each pair's
// planes are swapped.
func fxLayout(b fxBox, t int) []int {
	cells := b.cells()
	src := make([]int, 19*cells)
	for m := 0; m < cells; m++ {
		src[m] = m
		for a := 1; a < 19; a += 2 {
			c := d3q19[a]
			arrived := a*cells + b.at(m, [3]int{-c[0], -c[1], -c[2]})
			own := (a+1)*cells + m
			if t&1 == 1 {
				src[a*cells+m], src[(a+1)*cells+m] = arrived, own
			} else {
				src[(a+1)*cells+m], src[a*cells+m] = arrived, own
			}
		}
	}
	return src
}

func fxToEsoteric(p []float64, b fxBox, t int) []float64 {
	e := make([]float64, len(p))
	for d, s := range fxLayout(b, t) {
		e[d] = p[s]
	}
	return e
}

func fxFromEsoteric(e []float64, b fxBox, t int) []float64 {
	p := make([]float64, len(e))
	for d, s := range fxLayout(b, t) {
		p[s] = e[d]
	}
	return p
}

func maxDiff(a, b []float64) (int, float64) {
	at, most := 0, 0.0
	for i := range a {
		if d := math.Abs(a[i]-b[i]) / math.Max(1, math.Abs(b[i])); d > most || math.IsNaN(d) {
			at, most = i, d
		}
	}
	return at, most
}

// The Go esoteric-pull step is the pull step: from the same distributions
// (in each scheme's layout), one and two steps of either parity give the
// same values, with and without equilibrium cells; in the wrong layout
// they do not, so the comparison can tell them apart. With solid cells
// the in-place step conserves the sum of all slots exactly.
func TestFluidFX3DEsotericIsPull(t *testing.T) {
	b := fxBox{5, 4, 3}
	cells := b.cells()
	rnd := kernel.NewRandom(11)
	p0 := make([]float64, 19*cells)
	for i := range p0 {
		p0[i] = float64(rnd.Next()>>11) / (1 << 53)
	}
	const omega = 0.8
	for _, equil := range []bool{false, true} {
		flags := make([]byte, cells)
		if equil {
			flags[7], flags[33] = fxEquil, fxEquil
		}
		p1, p2 := make([]float64, len(p0)), make([]float64, len(p0))
		fxPullStep(p0, p1, flags, b, omega)
		fxPullStep(p1, p2, flags, b, omega)
		if _, d := maxDiff(p2, p0); d < 0.01 {
			t.Fatalf("two pull steps moved the distributions by %g only", d)
		}
		for t0 := 0; t0 < 2; t0++ {
			e := fxToEsoteric(p0, b, t0)
			fxEsotericStep(e, flags, b, t0, omega)
			if i, d := maxDiff(e, fxToEsoteric(p1, b, t0+1)); d > 1e-12 {
				t.Errorf("equil=%v t=%d: one step: slot %d differs by %g from the pull step", equil, t0, i, d)
			}
			if _, d := maxDiff(e, fxToEsoteric(p1, b, t0)); d < 0.01 {
				t.Errorf("equil=%v t=%d: one step also matches the layout of the other parity (%g): the check is blind", equil, t0, d)
			}
			fxEsotericStep(e, flags, b, t0+1, omega)
			if i, d := maxDiff(fxFromEsoteric(e, b, t0), p2); d > 1e-12 {
				t.Errorf("equil=%v t=%d: two steps: slot %d differs by %g from two pull steps", equil, t0, i, d)
			}
		}
	}
	flags := make([]byte, cells)
	for _, c := range []int{0, 9, 31, 59} {
		flags[c] = fxSolid
	}
	e := append([]float64(nil), p0...)
	var before float64
	for _, v := range e {
		before += v
	}
	for step := 0; step < 4; step++ {
		fxEsotericStep(e, flags, b, step, omega)
	}
	var after float64
	for _, v := range e {
		after += v
	}
	if math.Abs(after-before) > 1e-9*before {
		t.Errorf("four steps with solid cells: mass %g before, %g after", before, after)
	}
}

// The kernels/fx3d.cl builds compute the Go esoteric-pull step on a small
// box (no dimension a power of two) of random distributions, on steps of
// both parities, with equilibrium cells and with and without solid cells;
// the step conserves the sum of all slots; and on the all-fluid box two
// kernel steps equal two pull steps.
func TestFluidFX3DMatchesGo(t *testing.T) {
	b := fxBox{6, 5, 7}
	cells := b.cells()
	const omega = 0.8
	c := newCtx(lookupGPU(t, "mali-g52"), Options{})
	for _, v := range fluidVariants {
		// FP32 arithmetic against float64: a few ulps of the largest
		// terms; FP16 storage rounds each stored value to 11 bits.
		tol := 1e-5
		if v.typ == "f16" {
			tol = 2e-3
		}
		entry := "fx" + v.suffix
		for _, solid := range []bool{false, true} {
			for step := 1; step <= 2; step++ {
				t.Run(fmt.Sprintf("%s/solid=%v/t=%d", entry, solid, step), func(t *testing.T) {
					k, err := c.kernel("fx3d", entry)
					if err != nil {
						t.Fatal(err)
					}
					l, err := c.bind(k, cells, 42, fmt.Sprintf("buf:%s:%d=random:7", v.typ, 19*cells), fmt.Sprintf("buf:u8:%d", cells),
						fmt.Sprintf("u32:%d", b.sx), fmt.Sprintf("u32:%d", b.sy), fmt.Sprintf("u32:%d", b.sz), fmt.Sprintf("u32:%d", step), "u32:1", fmt.Sprintf("f32:%g", omega))
					if err != nil {
						t.Fatal(err)
					}
					defer l.free()
					flags := l.buffer(1).Bytes()
					flags[12], flags[100] = fxEquil, fxEquil
					if solid {
						for _, cell := range []int{0, 37, 101, 209} {
							flags[cell] = fxSolid
						}
					}
					in := readFloats(l.buffer(0).Bytes(), v.typ)
					if _, err := c.dev.Dispatch(l.k, l.nd, l.bound.Args, device.Options{}); err != nil {
						t.Fatal(err)
					}
					got := readFloats(l.buffer(0).Bytes(), v.typ)
					want := append([]float64(nil), in...)
					fxEsotericStep(want, flags, b, step, omega)
					if i, d := maxDiff(got, want); d > tol {
						t.Fatalf("slot %d (plane %d, cell %d): got %g, want %g", i, i/cells, i%cells, got[i], want[i])
					}
					checkMass(t, in, got, tol)
					if solid {
						return
					}
					// A second step of the other parity, against two pull
					// steps from the same start.
					if err := l.set(5, fmt.Sprintf("u32:%d", step+1)); err != nil {
						t.Fatal(err)
					}
					if _, err := c.dev.Dispatch(l.k, l.nd, l.bound.Args, device.Options{}); err != nil {
						t.Fatal(err)
					}
					got = readFloats(l.buffer(0).Bytes(), v.typ)
					p0 := fxFromEsoteric(in, b, step)
					p1, p2 := make([]float64, len(p0)), make([]float64, len(p0))
					fxPullStep(p0, p1, flags, b, omega)
					fxPullStep(p1, p2, flags, b, omega)
					if i, d := maxDiff(fxFromEsoteric(got, b, step), p2); d > 2*tol {
						t.Errorf("two steps: pull slot %d (plane %d, cell %d) differs by %g from two pull steps", i, i/cells, i%cells, d)
					}
				})
			}
		}
	}
}

// checkMass fails t when the distributions after a step (got) do not sum
// to those before it (in) within tol: the step conserves mass.
func checkMass(t *testing.T, in, got []float64, tol float64) {
	t.Helper()
	var before, after float64
	for i := range in {
		before += in[i]
		after += got[i]
	}
	if math.Abs(after-before) > tol*before {
		t.Errorf("mass %g before the step, %g after", before, after)
	}
}
