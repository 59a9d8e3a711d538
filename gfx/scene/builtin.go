package scene

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// builtins are the procedural scenes by name; each takes the optional
// number after a colon (":N") as its size parameter (0: the default).
var builtins = map[string]struct {
	doc  string
	make func(n int) (*Scene, error)
}{
	"spheres": {"75 lit, textured spheres in five depth layers drawn back to front (overdraw about 2) before a textured wall and floor, two alpha-blended glass panes in front; spheres:N for about N triangles (default 20000)", func(n int) (*Scene, error) {
		if n == 0 {
			n = 20000
		}
		if n < 100 || n > 5_000_000 {
			return nil, fmt.Errorf("spheres:%d: the triangle count must be 100 to 5000000", n)
		}
		return Spheres(n), nil
	}},
	"ui": {"a static 2D user interface (background, header, icons, text, a translucent panel) where only a progress bar and a blinking cursor change between frames; ignores --camera-orbit", func(n int) (*Scene, error) {
		if n != 0 {
			return nil, fmt.Errorf("ui takes no size parameter")
		}
		return UI(), nil
	}},
	"shadows": {"three render passes: a 512x512 shadow map (depth from a light), the main pass (lit, textured spheres and boxes on a floor, sampling the shadow map) and a bloom-like post-process pass reading the main pass's colour with a full-screen triangle", func(n int) (*Scene, error) {
		if n != 0 {
			return nil, fmt.Errorf("shadows takes no size parameter")
		}
		return Shadows(), nil
	}},
	"cube": {"one lit, textured cube (12 triangles)", func(n int) (*Scene, error) {
		if n != 0 {
			return nil, fmt.Errorf("cube takes no size parameter")
		}
		return Cube(), nil
	}},
}

// BuiltinNames lists the procedural scenes.
func BuiltinNames() []string {
	var names []string
	for n := range builtins {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// BuiltinDoc describes a procedural scene.
func BuiltinDoc(name string) string { return builtins[name].doc }

// Builtin makes the procedural scene spec names: "spheres", "spheres:N",
// "ui" or "cube".
func Builtin(spec string) (*Scene, error) {
	name, arg, hasArg := strings.Cut(spec, ":")
	b, ok := builtins[name]
	if !ok {
		return nil, fmt.Errorf("unknown built-in scene %q (built-in scenes: %s; glTF files end in .gltf or .glb)", spec, strings.Join(BuiltinNames(), ", "))
	}
	n := 0
	if hasArg {
		v, err := strconv.Atoi(arg)
		if err != nil || v < 1 {
			return nil, fmt.Errorf("scene %q: %q is not a positive number", spec, arg)
		}
		n = v
	}
	s, err := b.make(n)
	if err != nil {
		return nil, err
	}
	s.Name = spec
	return s, s.Validate()
}

// checker is a size×size RGBA8 texture of cells×cells squares alternating
// between two colours, with a gradient across it so that filtering shows.
func checker(name string, size, cells int, a, b [3]float64) Texture {
	t := Texture{Name: name, Width: size, Height: size, Pixels: make([]byte, size*size*4)}
	cell := size / cells
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			c := a
			if (x/cell+y/cell)%2 == 1 {
				c = b
			}
			g := 0.7 + 0.3*float64(x+y)/float64(2*size)
			o := (y*size + x) * 4
			for k := 0; k < 3; k++ {
				t.Pixels[o+k] = byte(math.Round(255 * c[k] * g))
			}
			t.Pixels[o+3] = 255
		}
	}
	return t
}

// sphere is a UV sphere of radius 1 with stacks rings and 2×stacks slices.
func sphere(stacks, mat int) Mesh {
	slices := 2 * stacks
	m := Mesh{Name: fmt.Sprintf("sphere-%d", stacks), Material: mat}
	for i := 0; i <= stacks; i++ {
		phi := math.Pi * float64(i) / float64(stacks)
		for j := 0; j <= slices; j++ {
			th := 2 * math.Pi * float64(j) / float64(slices)
			n := [3]float32{float32(math.Sin(phi) * math.Cos(th)), float32(math.Cos(phi)), float32(-math.Sin(phi) * math.Sin(th))}
			m.Positions = append(m.Positions, n)
			m.Normals = append(m.Normals, n)
			m.TexCoords = append(m.TexCoords, [2]float32{float32(j) / float32(slices) * 4, float32(i) / float32(stacks) * 2})
		}
	}
	row := uint32(slices + 1)
	for i := 0; i < stacks; i++ {
		for j := 0; j < slices; j++ {
			a := uint32(i)*row + uint32(j)
			b, c, d := a+row, a+1, a+row+1
			if i != 0 {
				m.Indices = append(m.Indices, a, b, c)
			}
			if i != stacks-1 {
				m.Indices = append(m.Indices, c, b, d)
			}
		}
	}
	return m
}

// quad is a two-triangle rectangle in the XY plane from (x0,y0) to (x1,y1)
// at depth z, facing +Z, with texture coordinates scaled by uv.
func quad(name string, x0, y0, x1, y1, z float32, uv float32, mat int, colors [][4]float32) Mesh {
	m := Mesh{Name: name, Material: mat,
		Positions: [][3]float32{{x0, y0, z}, {x1, y0, z}, {x1, y1, z}, {x0, y1, z}},
		Normals:   [][3]float32{{0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}},
		TexCoords: [][2]float32{{0, uv}, {uv, uv}, {uv, 0}, {0, 0}},
		Indices:   []uint32{0, 1, 2, 0, 2, 3},
		Colors:    colors,
	}
	return m
}

// Spheres is the overdraw scene: a textured back wall and floor, then
// 75 spheres (about triangles triangles) in five staggered depth layers
// drawn from the farthest to the nearest, so that most pixels are shaded
// several times, and two alpha-blended glass panes in front.
func Spheres(triangles int) *Scene {
	s := &Scene{Light: Vec3{0.4, 0.8, 0.45}.Norm()}
	s.Textures = []Texture{
		checker("floor", 128, 8, [3]float64{0.9, 0.9, 0.85}, [3]float64{0.25, 0.3, 0.35}),
		checker("spheres", 64, 4, [3]float64{0.95, 0.55, 0.2}, [3]float64{0.2, 0.5, 0.9}),
	}
	s.Materials = []Material{
		{Name: "floor", BaseColor: [4]float64{1, 1, 1, 1}, Texture: 0},
		{Name: "spheres", BaseColor: [4]float64{1, 1, 1, 1}, Texture: 1},
		{Name: "glass", BaseColor: [4]float64{0.6, 0.8, 1, 0.35}, Texture: -1, Alpha: Blend, DoubleSided: true},
		{Name: "wall", BaseColor: [4]float64{0.55, 0.6, 0.75, 1}, Texture: 0},
	}
	const layers, cols, rows = 5, 5, 3
	n := layers * cols * rows
	per := max((triangles-8)/n, 8)
	stacks := max(int(math.Round((1+math.Sqrt(1+float64(per)))/2)), 3) // 4·s·(s-1) triangles
	floor := quad("floor", -12, -12, 12, 12, 0, 12, 0, nil)
	// Lay the floor flat (XZ plane, facing up).
	for i, p := range floor.Positions {
		floor.Positions[i] = [3]float32{p[0], -0.9, -p[1]}
		floor.Normals[i] = [3]float32{0, 1, 0}
	}
	wall := quad("wall", -14, -0.9, 14, 10, -10, 6, 3, nil)
	s.Meshes = []Mesh{wall, floor, sphere(stacks, 1), quad("glass", -1.6, -0.6, 1.6, 1.4, 0, 1, 2, nil)}
	s.Instances = append(s.Instances, Instance{Mesh: 0, Transform: Identity()}, Instance{Mesh: 1, Transform: Identity()})
	for l := 0; l < layers; l++ { // far layer first: back to front
		z := -8 + 2*float64(l)
		for r := 0; r < rows; r++ {
			for c := 0; c < cols; c++ {
				p := Vec3{(float64(c)-2)*1.45 + 0.4*float64(l%3-1), float64(r)*1.3 - 0.2 + 0.25*float64(l%2), z + 0.3*float64((c+r)%2)}
				s.Instances = append(s.Instances, Instance{Mesh: 2, Transform: Translate(p).Mul(ScaleM(Vec3{0.85, 0.85, 0.85}))})
			}
		}
	}
	s.Instances = append(s.Instances,
		Instance{Mesh: 3, Transform: Translate(Vec3{-1.2, 0, 2.2})},
		Instance{Mesh: 3, Transform: Translate(Vec3{1.0, 0.3, 2.6})})
	s.Camera = Camera{Eye: Vec3{0, 1.7, 7.5}, Target: Vec3{0, 0.8, -1}, Up: Vec3{0, 1, 0}, FovY: 55 * math.Pi / 180, Near: 0.5, Far: 40}
	return s
}

// box is a cube of side 1 centred on the origin, faces facing out.
func box(mat int) Mesh {
	m := Mesh{Name: "box", Material: mat}
	faces := []struct{ n, u, v Vec3 }{
		{Vec3{0, 0, 1}, Vec3{1, 0, 0}, Vec3{0, 1, 0}}, {Vec3{0, 0, -1}, Vec3{-1, 0, 0}, Vec3{0, 1, 0}},
		{Vec3{1, 0, 0}, Vec3{0, 0, -1}, Vec3{0, 1, 0}}, {Vec3{-1, 0, 0}, Vec3{0, 0, 1}, Vec3{0, 1, 0}},
		{Vec3{0, 1, 0}, Vec3{1, 0, 0}, Vec3{0, 0, -1}}, {Vec3{0, -1, 0}, Vec3{1, 0, 0}, Vec3{0, 0, 1}},
	}
	for _, f := range faces {
		base := uint32(len(m.Positions))
		for _, c := range [][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
			p := f.n.Add(f.u.Scale(c[0])).Add(f.v.Scale(c[1])).Scale(0.5)
			m.Positions = append(m.Positions, [3]float32{float32(p[0]), float32(p[1]), float32(p[2])})
			m.Normals = append(m.Normals, [3]float32{float32(f.n[0]), float32(f.n[1]), float32(f.n[2])})
			m.TexCoords = append(m.TexCoords, [2]float32{float32(c[0]+1) / 2, float32(1-c[1]) / 2})
		}
		m.Indices = append(m.Indices, base, base+1, base+2, base, base+2, base+3)
	}
	return m
}

// Shadows is the multi-pass scene: a shadow map rendered from a light
// (a 512x512 depth-only pass with its own camera), the main pass lighting
// spheres and boxes on a floor with it, and a post-process pass adding a
// glow of the main pass's bright parts with one full-screen triangle.
func Shadows() *Scene {
	lightEye, centre := Vec3{-6, 9, 5}, Vec3{0, 0, -1}
	s := &Scene{Light: lightEye.Sub(centre).Norm()}
	s.Textures = []Texture{
		checker("floor", 128, 8, [3]float64{0.95, 0.95, 0.9}, [3]float64{0.55, 0.6, 0.65}),
		checker("objects", 64, 4, [3]float64{0.95, 0.6, 0.25}, [3]float64{0.3, 0.55, 0.95}),
	}
	s.Materials = []Material{
		{Name: "floor", BaseColor: [4]float64{1, 1, 1, 1}, Texture: 0},
		{Name: "objects", BaseColor: [4]float64{1, 1, 1, 1}, Texture: 1},
		{Name: "post", BaseColor: [4]float64{1, 1, 1, 1}, Texture: -1, Unlit: true, DoubleSided: true},
	}
	floor := quad("floor", -10, -10, 10, 10, 0, 10, 0, nil)
	for i, p := range floor.Positions {
		floor.Positions[i] = [3]float32{p[0], 0, -p[1]}
		floor.Normals[i] = [3]float32{0, 1, 0}
	}
	// A triangle that covers the whole frame with texture coordinates
	// 0 to 1 across it (y down, as the attachments' rows).
	fullscreen := Mesh{Name: "fullscreen", Material: 2,
		Positions: [][3]float32{{-1, -1, 0}, {3, -1, 0}, {-1, 3, 0}},
		TexCoords: [][2]float32{{0, 0}, {2, 0}, {0, 2}},
		Indices:   []uint32{0, 1, 2}}
	s.Meshes = []Mesh{floor, sphere(12, 1), box(1), fullscreen}
	s.Instances = []Instance{{Mesh: 0, Transform: Identity()}}
	for i := 0; i < 3; i++ {
		x := -3 + 3*float64(i)
		s.Instances = append(s.Instances,
			Instance{Mesh: 1, Transform: Translate(Vec3{x, 0.8, -2}).Mul(ScaleM(Vec3{0.8, 0.8, 0.8}))},
			Instance{Mesh: 2, Transform: Translate(Vec3{x + 1.2, 0.6, 0.6}).Mul(RotateY(0.4 * float64(i+1))).Mul(ScaleM(Vec3{1.2, 1.2, 1.2}))})
	}
	s.Camera = Camera{Eye: Vec3{0, 4, 8}, Target: Vec3{0, 0.5, -1}, Up: Vec3{0, 1, 0}, FovY: 55 * math.Pi / 180, Near: 1, Far: 30}
	light := Camera{Eye: lightEye, Target: centre, Up: Vec3{0, 1, 0}, FovY: 60 * math.Pi / 180, Near: 4, Far: 25}
	post := Camera{Ortho: true, Left: -1, Right: 1, Bottom: 1, Top: -1, Near: -1, Far: 1}
	clampLinear := Sampler{Filter: Linear, Wrap: ClampToEdge}
	s.Passes = []Pass{
		{Name: "shadow", Width: 512, Height: 512, Camera: &light, Shading: "depth", Depth: true},
		{Name: "main", Shading: "shadowed", Color: true, Depth: true, Main: true, LightFrom: "shadow",
			Input: &PassInput{Pass: "shadow", Depth: true, Sampler: Sampler{Filter: Nearest, Wrap: ClampToEdge}}},
		{Name: "bloom", Camera: &post, Shading: "bloom", Color: true, Texture: &PassInput{Pass: "main", Sampler: clampLinear},
			Instances: func(int) []Instance { return []Instance{{Mesh: 3, Transform: Identity()}} }},
	}
	return s
}

// Cube is one lit, textured cube.
func Cube() *Scene {
	s := &Scene{Light: Vec3{0.5, 0.7, 0.5}.Norm()}
	s.Textures = []Texture{checker("cube", 32, 4, [3]float64{0.95, 0.95, 0.95}, [3]float64{0.8, 0.2, 0.2})}
	s.Materials = []Material{{Name: "cube", BaseColor: [4]float64{1, 1, 1, 1}, Texture: 0, Sampler: Sampler{Filter: Nearest, MinFilter: Nearest, Mipmap: MipNearest, Wrap: Repeat}}}
	m := box(0)
	m.Name = "cube"
	s.Meshes = []Mesh{m}
	s.Instances = []Instance{{Mesh: 0, Transform: RotateY(0.6)}}
	s.Camera = Camera{Eye: Vec3{0.4, 1.2, 2.2}, Target: Vec3{0, 0, 0}, Up: Vec3{0, 1, 0}, FovY: 50 * math.Pi / 180, Near: 0.3, Far: 10}
	return s
}

// icons is a 64×64 atlas of four 32×32 symbols (ring, disc, cross, bars)
// with transparent backgrounds.
func icons() Texture {
	t := Texture{Name: "icons", Width: 64, Height: 64, Pixels: make([]byte, 64*64*4)}
	for y := 0; y < 64; y++ {
		for x := 0; x < 64; x++ {
			cx, cy := float64(x%32)-15.5, float64(y%32)-15.5
			r := math.Hypot(cx, cy)
			var on bool
			switch (y/32)*2 + x/32 {
			case 0:
				on = r > 9 && r < 14
			case 1:
				on = r < 12
			case 2:
				on = math.Abs(cx) < 3 || math.Abs(cy) < 3
			case 3:
				on = int(cy+16)%8 < 4 && math.Abs(cx) < 12
			}
			o := (y*64 + x) * 4
			if on {
				t.Pixels[o], t.Pixels[o+1], t.Pixels[o+2], t.Pixels[o+3] = 250, 250, 250, 255
			}
		}
	}
	return t
}

// UI is the static user-interface scene: only the progress bar's end and
// the cursor change from one frame to the next.
func UI() *Scene {
	s := &Scene{Light: Vec3{0, 0, 1}}
	s.Textures = []Texture{icons()}
	s.Materials = []Material{
		{Name: "flat", BaseColor: [4]float64{1, 1, 1, 1}, Texture: -1, Unlit: true, DoubleSided: true},
		{Name: "icons", BaseColor: [4]float64{1, 1, 1, 1}, Texture: 0, Unlit: true, DoubleSided: true, Alpha: Blend, Sampler: Sampler{Filter: Linear, Wrap: ClampToEdge}},
		{Name: "panel", BaseColor: [4]float64{0.1, 0.1, 0.15, 0.55}, Texture: -1, Unlit: true, DoubleSided: true, Alpha: Blend},
	}
	solid := func(c [4]float32) [][4]float32 { return [][4]float32{c, c, c, c} }
	z := float32(0)
	next := func() float32 { z += 0.01; return z }
	var meshes []Mesh
	add := func(m Mesh) { meshes = append(meshes, m) }
	// Background gradient, header, side panel.
	add(quad("background", 0, 0, 1, 1, next(), 1, 0, [][4]float32{{0.15, 0.2, 0.35, 1}, {0.15, 0.2, 0.35, 1}, {0.05, 0.05, 0.1, 1}, {0.05, 0.05, 0.1, 1}}))
	add(quad("header", 0, 0, 1, 0.12, next(), 1, 0, solid([4]float32{0.85, 0.35, 0.2, 1})))
	// Icons: two rows of four, each a quarter of the atlas.
	for i := 0; i < 8; i++ {
		x := 0.08 + float32(i%4)*0.22
		y := 0.2 + float32(i/4)*0.22
		m := quad(fmt.Sprintf("icon-%d", i), x, y, x+0.14, y+0.16, next(), 1, 1, solid([4]float32{0.9, 0.9, 1, 1}))
		u0, v0 := float32(i%2)*0.5, float32((i/2)%2)*0.5
		m.TexCoords = [][2]float32{{u0, v0}, {u0 + 0.5, v0}, {u0 + 0.5, v0 + 0.5}, {u0, v0 + 0.5}}
		add(m)
	}
	// Text lines.
	for i := 0; i < 5; i++ {
		w := 0.5 + 0.08*float32(i%3)
		add(quad(fmt.Sprintf("text-%d", i), 0.08, 0.66+float32(i)*0.045, 0.08+w, 0.685+float32(i)*0.045, next(), 1, 0, solid([4]float32{0.75, 0.78, 0.8, 1})))
	}
	// Translucent panel over part of the icons and text.
	add(quad("panel", 0.55, 0.35, 0.95, 0.8, next(), 1, 2, nil))
	// Progress bar track.
	add(quad("track", 0.08, 0.9, 0.92, 0.93, next(), 1, 0, solid([4]float32{0.25, 0.25, 0.3, 1})))
	static := len(meshes)
	// Unit-width fill and cursor, scaled and placed per frame.
	add(quad("fill", 0, 0.9, 1, 0.93, next(), 1, 0, solid([4]float32{0.3, 0.85, 0.4, 1})))
	add(quad("cursor", 0, 0.66, 0.006, 0.685, next(), 1, 0, solid([4]float32{1, 1, 1, 1})))
	s.Meshes = meshes
	s.Camera = Camera{Ortho: true, Left: 0, Right: 1, Bottom: 1, Top: 0, Near: -1, Far: 1}
	var base []Instance
	for i := 0; i < static; i++ {
		base = append(base, Instance{Mesh: i, Transform: Identity()})
	}
	s.Instances = base
	s.Animate = func(frame int) []Instance {
		ins := append([]Instance(nil), base...)
		progress := float64(frame%40+1) / 40 * 0.84
		ins = append(ins, Instance{Mesh: static, Transform: Translate(Vec3{0.08, 0, 0}).Mul(ScaleM(Vec3{progress, 1, 1}))})
		if frame%2 == 0 {
			ins = append(ins, Instance{Mesh: static + 1, Transform: Translate(Vec3{0.66, 0, 0})})
		}
		return ins
	}
	return s
}
