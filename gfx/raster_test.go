package gfx

import (
	"math/rand"
	"testing"
)

// TestTopLeftFillRule tiles a square, whose corners sit on pixel centres,
// with jittered triangles of both windings: every pixel centre inside is
// covered exactly once (shared edges are neither doubled nor missed), and
// on the square's border only the top and left edges' centres count, so
// exactly side×side pixels are covered.
func TestTopLeftFillRule(t *testing.T) {
	const size = 64
	rng := rand.New(rand.NewSource(1))
	for trial := 0; trial < 20; trial++ {
		r := &Renderer{opt: Options{Width: size, Height: size}}
		fr := &frameRun{r: r, draws: []*drawState{{cullBack: false}}, pass: &renderPass{w: size, h: size, samples: 1}, prog: &program{}}
		// Square from pixel centre (8.5, 8.5) to (40.5, 40.5): n×n cells.
		const n = 8
		const x0, side = 8.5, 32.0
		toClip := func(x, y float64) [4]float32 {
			return [4]float32{float32(x/size*2 - 1), float32(y/size*2 - 1), 0.5, 1}
		}
		// Grid points, interior ones jittered (sub-pixel, so that edges
		// pass through and near pixel centres in every direction).
		var id [n + 1][n + 1]int32
		for j := 0; j <= n; j++ {
			for i := 0; i <= n; i++ {
				x, y := x0+side*float64(i)/n, x0+side*float64(j)/n
				if i > 0 && i < n && j > 0 && j < n {
					x += float64(rng.Intn(5)-2) * 0.5
					y += float64(rng.Intn(5)-2) * 0.5
				}
				id[j][i] = int32(len(fr.clip))
				fr.clip = append(fr.clip, toClip(x, y))
			}
		}
		for j := 0; j < n; j++ {
			for i := 0; i < n; i++ {
				a, b, c, d := id[j][i], id[j][i+1], id[j+1][i+1], id[j+1][i]
				if (i+j+trial)%2 == 0 {
					fr.setup(0, [3]int32{a, b, c}, a)
					fr.setup(0, [3]int32{a, d, c}, a) // the other winding
				} else {
					fr.setup(0, [3]int32{a, b, d}, a)
					fr.setup(0, [3]int32{b, c, d}, b)
				}
			}
		}
		var count [size][size]int
		for pi := range fr.prims {
			p := &fr.prims[pi]
			for y := int(p.by0); y <= int(p.by1); y++ {
				for x := int(p.bx0); x <= int(p.bx1); x++ {
					if p.sampleMask(x, y, samplePositions[1]) != 0 {
						count[y][x]++
					}
				}
			}
		}
		total := 0
		for y := 0; y < size; y++ {
			for x := 0; x < size; x++ {
				c := count[y][x]
				total += c
				inside := x >= 8 && x < 40 && y >= 8 && y < 40
				if (inside && c != 1) || (!inside && c != 0) {
					t.Fatalf("trial %d: pixel (%d,%d) covered %d times", trial, x, y, c)
				}
			}
		}
		if total != 32*32 {
			t.Fatalf("trial %d: %d pixels covered, want %d", trial, total, 32*32)
		}
	}
}

// TestCullingAndClipping: back faces and degenerate triangles are culled
// by cause; a triangle crossing the near plane is clipped, one wholly
// behind the camera is culled.
func TestCullingAndClipping(t *testing.T) {
	r := &Renderer{opt: Options{Width: 32, Height: 32}}
	fr := &frameRun{r: r, draws: []*drawState{{cullBack: true}}, pass: &renderPass{w: 32, h: 32, samples: 1}, prog: &program{}}
	fr.clip = [][4]float32{
		{-0.5, -0.5, 0.5, 1}, {0.5, -0.5, 0.5, 1}, {0, 0.5, 0.5, 1}, // 0-2
		{0.1, 0.1, 0.5, 1}, {0.1, 0.1, 0.5, 1}, // 3, 4: duplicates
		{-0.5, -0.5, -1, 1}, {0.5, -0.5, 0.5, 1}, {0, 0.5, 0.5, 1}, // 5-7: one vertex in front of the near plane
		{-0.5, -0.5, -2, 1}, {0.5, -0.5, -2, 1}, {0, 0.5, -2, 1}, // 8-10: all in front of near
	}
	fr.vary = nil
	fr.draws[0].mesh = nil
	// Counter-clockwise on screen (y down): front.
	fr.setup(0, [3]int32{0, 2, 1}, 0)
	fr.setup(0, [3]int32{0, 1, 2}, 0) // back
	fr.setup(0, [3]int32{3, 4, 0}, 3) // zero area
	if len(fr.prims) != 1 || !fr.prims[0].front || fr.st.PrimitivesCulled.BackFace != 1 || fr.st.PrimitivesCulled.ZeroArea != 1 {
		t.Fatalf("prims %d, culled %+v", len(fr.prims), fr.st.PrimitivesCulled)
	}
	fr.clipTriangle(0, [3]int32{5, 7, 6})
	if len(fr.prims) != 3 { // the clipped quadrilateral is two triangles
		t.Errorf("near-clipped triangle gave %d primitives", len(fr.prims)-1)
	}
	for _, p := range fr.prims[1:] {
		for i := 0; i < 3; i++ {
			if p.z[i] < -1e-6 {
				t.Errorf("clipped vertex at depth %v", p.z[i])
			}
		}
	}
	fr.clipTriangle(0, [3]int32{8, 10, 9})
	if fr.st.PrimitivesCulled.Frustum != 1 {
		t.Errorf("triangle behind the near plane: culled %+v", fr.st.PrimitivesCulled)
	}
}
