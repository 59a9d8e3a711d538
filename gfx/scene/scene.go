// Package scene is what pocketgpu renders: triangle meshes with
// materials and RGBA8 textures, instances placing them in the world, a
// camera and a light. Scenes come from glTF 2.0 files (package gltf) or
// from the built-in procedural scenes here.
package scene

import (
	"fmt"
	"math"
)

// Filter is a texture filter.
type Filter uint8

const (
	Linear Filter = iota
	Nearest
)

// Wrap is a texture addressing mode (applied to both coordinates: the
// executor's samplers have one mode).
type Wrap uint8

const (
	Repeat Wrap = iota
	ClampToEdge
	MirroredRepeat
)

// Mipmap is how a minified texture uses its mip chain.
type Mipmap uint8

const (
	MipLinear  Mipmap = iota // blend the two nearest levels (trilinear, with linear filters)
	MipNearest               // the nearest level
	MipNone                  // level 0 only (glTF's and GL's NEAREST and LINEAR minification)
)

// Sampler is how a material samples its texture. The zero Sampler is
// trilinear (linear filters, linear mipmap) with repeat.
type Sampler struct {
	Filter    Filter // magnification
	MinFilter Filter // minification, within a level
	Mipmap    Mipmap
	Wrap      Wrap
}

// Texture is an RGBA8 image, rows top to bottom, not premultiplied.
type Texture struct {
	Name          string
	Width, Height int
	Pixels        []byte
}

// AlphaMode is how a material's alpha is used (glTF alphaMode).
type AlphaMode uint8

const (
	Opaque AlphaMode = iota
	Mask             // alpha-tested: fragments below the cutoff are discarded
	Blend            // alpha-blended over what is behind
)

func (m AlphaMode) String() string { return [...]string{"OPAQUE", "MASK", "BLEND"}[m] }

// Material is a mesh's surface.
type Material struct {
	Name        string
	BaseColor   [4]float64
	Texture     int // index into Scene.Textures, -1 for none (white)
	Sampler     Sampler
	Alpha       AlphaMode
	AlphaCutoff float64
	DoubleSided bool // no back-face culling
	Unlit       bool // lighting weight 0
}

// Mesh is an indexed triangle list; per-vertex attributes other than
// positions may be absent (nil).
type Mesh struct {
	Name      string
	Positions [][3]float32
	Normals   [][3]float32
	TexCoords [][2]float32
	Colors    [][4]float32
	Indices   []uint32
	Material  int
}

// Triangles is the number of triangles of the mesh.
func (m *Mesh) Triangles() int { return len(m.Indices) / 3 }

// Instance draws a mesh with a model transform.
type Instance struct {
	Mesh      int
	Transform Mat4
}

// Camera is a perspective or orthographic camera.
type Camera struct {
	Ortho bool
	// Perspective: eye, target, up, vertical field of view (radians) and
	// depth range.
	Eye, Target, Up Vec3
	FovY, Near, Far float64
	// Ortho: the view-space box shown; Ortho cameras ignore the orbit.
	Left, Right, Bottom, Top float64
}

// Pass is one render pass of a multi-pass scene: which attachments it
// draws into, what it draws and with which of the renderer's built-in
// shader pairs, and which earlier pass's attachment it samples. A scene
// without Passes is one pass with a colour and a depth attachment that
// draws Frame(i) with the scene's camera.
type Pass struct {
	Name string
	// Width and Height fix the pass's size (a shadow map); 0 takes the
	// frame's.
	Width, Height int
	// Camera replaces the scene's camera in this pass when set; a pass's
	// own camera does not orbit.
	Camera *Camera
	// Instances replaces Frame(i) in this pass when set (a post-process
	// pass's full-screen triangle).
	Instances func(frame int) []Instance
	// Shading names the renderer's built-in shader pair: "" for the
	// default ones (or the user's), "depth", "shadowed", "bloom".
	Shading string
	// Color and Depth say which attachments the pass has.
	Color, Depth bool
	// Texture is an earlier pass's attachment every draw of this pass
	// samples instead of its material's texture (set 0 binding 1); Input
	// one bound at set 0 binding 2.
	Texture, Input *PassInput
	// LightFrom names the earlier pass whose view-projection (times each
	// draw's model matrix) is the Draw block's lightMvp: the shadow map's
	// projection.
	LightFrom string
	// Main marks the pass the render options apply to (samples, depth
	// format, load and store actions) and whose tiles the heatmaps show;
	// the last pass's colour is the frame's image.
	Main bool
}

// PassInput names an attachment of an earlier pass and how it is
// sampled.
type PassInput struct {
	Pass    string
	Depth   bool // the depth attachment, not the colour one
	Sampler Sampler
}

// Scene is everything one frame draws. Instances are drawn in order.
type Scene struct {
	Name      string
	Meshes    []Mesh
	Materials []Material
	Textures  []Texture
	Instances []Instance
	Camera    Camera
	// Light is the direction towards the light, world space.
	Light Vec3
	// Animate, when set, gives the instances of frame i (a scene whose
	// content changes between frames); otherwise Instances are used.
	Animate func(frame int) []Instance
	// Passes are the render passes of a frame in order (nil: one pass).
	Passes []Pass
}

// Frame returns the instances of frame i.
func (s *Scene) Frame(i int) []Instance {
	if s.Animate != nil {
		return s.Animate(i)
	}
	return s.Instances
}

// ViewProj is the view-projection of frame i for an aspect ratio
// (width/height): the camera orbits its target about Up by orbitDeg
// degrees per frame.
func (s *Scene) ViewProj(frame int, aspect, orbitDeg float64) Mat4 {
	return s.Camera.ViewProj(frame, aspect, orbitDeg)
}

// ViewProj is the camera's view-projection in frame i, turned about its
// target by orbitDeg degrees per frame (an orthographic camera does not
// turn).
func (c Camera) ViewProj(frame int, aspect, orbitDeg float64) Mat4 {
	if c.Ortho {
		return Ortho(c.Left, c.Right, c.Bottom, c.Top, c.Near, c.Far)
	}
	rot := RotateY(float64(frame) * orbitDeg * math.Pi / 180)
	up := c.Up
	if up.Len() == 0 {
		up = Vec3{0, 1, 0}
	}
	eye := c.Target.Add(rot.Point(c.Eye.Sub(c.Target)))
	return Perspective(c.FovY, aspect, c.Near, c.Far).Mul(LookAt(eye, c.Target, up))
}

// Triangles counts the triangles frame 0 draws.
func (s *Scene) Triangles() int {
	n := 0
	for _, in := range s.Frame(0) {
		n += s.Meshes[in.Mesh].Triangles()
	}
	return n
}

// Validate checks that every reference in the scene resolves, so that the
// renderer can index without checks.
func (s *Scene) Validate() error {
	for i := range s.Textures {
		t := &s.Textures[i]
		if t.Width < 1 || t.Height < 1 || len(t.Pixels) != t.Width*t.Height*4 {
			return fmt.Errorf("texture %d (%s): %dx%d with %d bytes of RGBA8", i, t.Name, t.Width, t.Height, len(t.Pixels))
		}
	}
	for i := range s.Materials {
		m := &s.Materials[i]
		if m.Texture < -1 || m.Texture >= len(s.Textures) {
			return fmt.Errorf("material %d (%s): texture %d does not exist (%d textures)", i, m.Name, m.Texture, len(s.Textures))
		}
	}
	for i := range s.Meshes {
		m := &s.Meshes[i]
		n := len(m.Positions)
		if m.Material < 0 || m.Material >= len(s.Materials) {
			return fmt.Errorf("mesh %d (%s): material %d does not exist (%d materials)", i, m.Name, m.Material, len(s.Materials))
		}
		if (m.Normals != nil && len(m.Normals) != n) || (m.TexCoords != nil && len(m.TexCoords) != n) || (m.Colors != nil && len(m.Colors) != n) {
			return fmt.Errorf("mesh %d (%s): attributes of different lengths (%d positions)", i, m.Name, n)
		}
		if len(m.Indices)%3 != 0 {
			return fmt.Errorf("mesh %d (%s): %d indices is not a whole number of triangles", i, m.Name, len(m.Indices))
		}
		for k, ix := range m.Indices {
			if int(ix) >= n {
				return fmt.Errorf("mesh %d (%s): index %d at position %d is past its %d vertices", i, m.Name, ix, k, n)
			}
		}
	}
	check := func(ins []Instance, frame int) error {
		for k, in := range ins {
			if in.Mesh < 0 || in.Mesh >= len(s.Meshes) {
				return fmt.Errorf("frame %d, instance %d: mesh %d does not exist (%d meshes)", frame, k, in.Mesh, len(s.Meshes))
			}
		}
		return nil
	}
	if err := check(s.Frame(0), 0); err != nil {
		return err
	}
	return s.validatePasses()
}

// validatePasses checks that pass names are unique, that each pass has an
// attachment, and that a pass samples only attachments earlier passes have.
func (s *Scene) validatePasses() error {
	seen := map[string]*Pass{}
	mains := 0
	for i := range s.Passes {
		p := &s.Passes[i]
		if p.Name == "" || seen[p.Name] != nil {
			return fmt.Errorf("pass %d: the name %q is empty or used twice", i, p.Name)
		}
		if !p.Color && !p.Depth {
			return fmt.Errorf("pass %s has no attachment", p.Name)
		}
		if p.Width < 0 || p.Height < 0 || (p.Width == 0) != (p.Height == 0) {
			return fmt.Errorf("pass %s: size %dx%d (both 0 for the frame's, or both positive)", p.Name, p.Width, p.Height)
		}
		for _, in := range []*PassInput{p.Texture, p.Input} {
			if in == nil {
				continue
			}
			src := seen[in.Pass]
			if src == nil {
				return fmt.Errorf("pass %s samples pass %q, which is not an earlier pass", p.Name, in.Pass)
			}
			if (in.Depth && !src.Depth) || (!in.Depth && !src.Color) {
				return fmt.Errorf("pass %s samples an attachment pass %s does not have", p.Name, in.Pass)
			}
		}
		if p.Instances != nil {
			for k, in := range p.Instances(0) {
				if in.Mesh < 0 || in.Mesh >= len(s.Meshes) {
					return fmt.Errorf("pass %s, instance %d: mesh %d does not exist (%d meshes)", p.Name, k, in.Mesh, len(s.Meshes))
				}
			}
		}
		if p.LightFrom != "" && seen[p.LightFrom] == nil {
			return fmt.Errorf("pass %s takes its light's projection from %q, which is not an earlier pass", p.Name, p.LightFrom)
		}
		if p.Main {
			mains++
		}
		seen[p.Name] = p
	}
	if len(s.Passes) > 0 {
		if mains != 1 {
			return fmt.Errorf("%d passes are marked main; one must be", mains)
		}
		if !s.Passes[len(s.Passes)-1].Color {
			return fmt.Errorf("the last pass (%s) has no colour attachment to show", s.Passes[len(s.Passes)-1].Name)
		}
	}
	return nil
}

// Bounds is a world-space box around frame 0's geometry: each mesh's own
// box, transformed by its instances (so the cost does not grow with
// instances × vertices).
func (s *Scene) Bounds() (lo, hi Vec3, ok bool) {
	lo = Vec3{math.Inf(1), math.Inf(1), math.Inf(1)}
	hi = Vec3{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	type box struct {
		lo, hi Vec3
		ok     bool
	}
	boxes := make([]box, len(s.Meshes))
	for i := range s.Meshes {
		b := box{lo: Vec3{math.Inf(1), math.Inf(1), math.Inf(1)}, hi: Vec3{math.Inf(-1), math.Inf(-1), math.Inf(-1)}}
		for _, p := range s.Meshes[i].Positions {
			for k := 0; k < 3; k++ {
				b.lo[k] = math.Min(b.lo[k], float64(p[k]))
				b.hi[k] = math.Max(b.hi[k], float64(p[k]))
			}
			b.ok = true
		}
		boxes[i] = b
	}
	for _, in := range s.Frame(0) {
		b := boxes[in.Mesh]
		if !b.ok {
			continue
		}
		for c := 0; c < 8; c++ {
			corner := Vec3{b.lo[0], b.lo[1], b.lo[2]}
			for k := 0; k < 3; k++ {
				if c&(1<<k) != 0 {
					corner[k] = b.hi[k]
				}
			}
			w := in.Transform.Point(corner)
			for k := 0; k < 3; k++ {
				lo[k] = math.Min(lo[k], w[k])
				hi[k] = math.Max(hi[k], w[k])
			}
		}
		ok = true
	}
	return lo, hi, ok
}

// FitCamera points a perspective camera at the scene's bounds from the
// front and slightly above, far enough to see all of it.
func (s *Scene) FitCamera() {
	lo, hi, ok := s.Bounds()
	if !ok {
		s.Camera = Camera{Eye: Vec3{0, 0, 3}, Up: Vec3{0, 1, 0}, FovY: math.Pi / 3, Near: 0.1, Far: 100}
		return
	}
	centre := lo.Add(hi).Scale(0.5)
	r := math.Max(hi.Sub(lo).Len()/2, 1e-6)
	fov := math.Pi / 3
	dist := r / math.Sin(fov/2) * 1.05
	dir := Vec3{0, 0.35, 1}.Norm()
	s.Camera = Camera{Eye: centre.Add(dir.Scale(dist)), Target: centre, Up: Vec3{0, 1, 0}, FovY: fov,
		Near: math.Max(dist-r*1.5, dist*0.01), Far: dist + r*1.5}
}
