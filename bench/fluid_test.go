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
				var rho, ux, uy, uz float64
				for i, c := range d3q19 {
					src := wrap(x-c[0], nx) + nx*(wrap(y-c[1], nx)+nx*wrap(z-c[2], nz))
					f[i] = fi[i*cells+src]
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
					fo[i*cells+cell] = f[i] + omega*(feq-f[i])
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
					var before, after float64
					for i := range in {
						before += in[i]
						after += got[i]
					}
					if math.Abs(after-before) > tol*before {
						t.Errorf("mass %g before the step, %g after", before, after)
					}
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
