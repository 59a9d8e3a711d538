package scene

import (
	"math"
	"strings"
	"testing"
)

func clip(m Mat4, p Vec3) [4]float64 {
	var o [4]float64
	for r := 0; r < 4; r++ {
		o[r] = m[r]*p[0] + m[4+r]*p[1] + m[8+r]*p[2] + m[12+r]
	}
	return o
}

func TestProjections(t *testing.T) {
	p := Perspective(math.Pi/2, 2, 1, 10)
	for _, tt := range []struct {
		in    Vec3
		depth float64
	}{{Vec3{0, 0, -1}, 0}, {Vec3{0, 0, -10}, 1}} {
		c := clip(p, tt.in)
		if d := c[2] / c[3]; math.Abs(d-tt.depth) > 1e-12 {
			t.Errorf("depth of %v = %v, want %v", tt.in, d, tt.depth)
		}
	}
	// +Y in view space goes up the screen: negative clip y (Vulkan).
	if c := clip(p, Vec3{0, 1, -2}); c[1] >= 0 {
		t.Errorf("up maps to clip y %v", c[1])
	}
	o := Ortho(0, 1, 1, 0, -1, 1)
	if c := clip(o, Vec3{0, 0, 0.5}); c[0] != -1 || c[1] != -1 || c[2] != 0.25 {
		t.Errorf("ortho corner = %v", c)
	}
	v := LookAt(Vec3{0, 0, 5}, Vec3{0, 0, 0}, Vec3{0, 1, 0})
	if q := v.Point(Vec3{0, 0, 0}); math.Abs(q[2]+5) > 1e-12 || math.Abs(q[0]) > 1e-12 {
		t.Errorf("target in view space = %v", q)
	}
	r := RotateY(math.Pi / 2).Point(Vec3{1, 0, 0})
	if math.Abs(r[2]+1) > 1e-12 {
		t.Errorf("RotateY(90°)·X = %v, want -Z", r)
	}
	q := Quat([4]float64{0, math.Sin(math.Pi / 4), 0, math.Cos(math.Pi / 4)}).Point(Vec3{1, 0, 0})
	if math.Abs(q[2]+1) > 1e-12 {
		t.Errorf("quaternion 90° about Y · X = %v", q)
	}
}

func TestBuiltins(t *testing.T) {
	for _, tt := range []struct {
		spec     string
		min, max int
	}{{"cube", 12, 12}, {"spheres:2000", 1500, 2600}, {"spheres:100000", 90000, 110000}, {"ui", 20, 60}} {
		s, err := Builtin(tt.spec)
		if err != nil {
			t.Fatalf("%s: %v", tt.spec, err)
		}
		if n := s.Triangles(); n < tt.min || n > tt.max {
			t.Errorf("%s: %d triangles, want %d to %d", tt.spec, n, tt.min, tt.max)
		}
		if BuiltinDoc(strings.Split(tt.spec, ":")[0]) == "" {
			t.Errorf("%s has no documentation", tt.spec)
		}
	}
	for _, tt := range []struct{ spec, want string }{
		{"teapot", "unknown built-in scene"}, {"spheres:x", "not a positive number"}, {"spheres:-5", "not a positive number"},
		{"spheres:10", "100 to 5000000"}, {"ui:3", "no size parameter"},
	} {
		if _, err := Builtin(tt.spec); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.spec, err, tt.want)
		}
	}
}

func TestUIChangesOnlyItsDynamicParts(t *testing.T) {
	s := UI()
	a, b := s.Frame(0), s.Frame(1)
	static := len(s.Instances)
	for i := 0; i < static; i++ {
		if a[i] != b[i] {
			t.Fatalf("static instance %d differs between frames", i)
		}
	}
	if a[static] == b[static] {
		t.Error("the progress bar does not move")
	}
	if len(a) == len(b) {
		t.Error("the cursor does not blink")
	}
}

func TestValidate(t *testing.T) {
	good := func() *Scene { return Cube() }
	for _, tt := range []struct {
		name   string
		break_ func(s *Scene)
		want   string
	}{
		{"texture size", func(s *Scene) { s.Textures[0].Pixels = s.Textures[0].Pixels[:10] }, "bytes of RGBA8"},
		{"material texture", func(s *Scene) { s.Materials[0].Texture = 3 }, "texture 3 does not exist"},
		{"mesh material", func(s *Scene) { s.Meshes[0].Material = 1 }, "material 1 does not exist"},
		{"index", func(s *Scene) { s.Meshes[0].Indices[4] = 99 }, "index 99"},
		{"partial triangle", func(s *Scene) { s.Meshes[0].Indices = s.Meshes[0].Indices[:4] }, "whole number"},
		{"normals", func(s *Scene) { s.Meshes[0].Normals = s.Meshes[0].Normals[:3] }, "different lengths"},
		{"instance", func(s *Scene) { s.Instances[0].Mesh = 2 }, "mesh 2 does not exist"},
	} {
		s := good()
		tt.break_(s)
		if err := s.Validate(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
	if err := good().Validate(); err != nil {
		t.Error(err)
	}
}

func TestFitCamera(t *testing.T) {
	s := Cube()
	s.FitCamera()
	vp := s.ViewProj(0, 1, 0)
	lo, hi, _ := s.Bounds()
	for _, p := range []Vec3{lo, hi, {lo[0], hi[1], lo[2]}} {
		c := clip(vp, p)
		for k := 0; k < 2; k++ {
			if math.Abs(c[k]/c[3]) > 1 {
				t.Errorf("corner %v outside the view: %v", p, c)
			}
		}
		if d := c[2] / c[3]; d < 0 || d > 1 {
			t.Errorf("corner %v depth %v", p, d)
		}
	}
	// Orbiting moves the eye but keeps the target centred.
	a, b := s.ViewProj(0, 1, 0), s.ViewProj(1, 1, 90)
	if a == b {
		t.Error("orbit does not move the camera")
	}
	c := clip(b, s.Camera.Target)
	if math.Abs(c[0]/c[3]) > 1e-9 {
		t.Errorf("target off centre after orbit: %v", c)
	}
}

// A scene's passes are checked: unique names, an attachment each, inputs
// from earlier passes that have the attachment, one main pass, a last pass
// with colour to show.
func TestPassValidation(t *testing.T) {
	ok := []Pass{
		{Name: "shadow", Width: 64, Height: 64, Depth: true},
		{Name: "main", Color: true, Depth: true, Main: true, Input: &PassInput{Pass: "shadow", Depth: true}, LightFrom: "shadow"},
		{Name: "post", Color: true, Texture: &PassInput{Pass: "main"}},
	}
	s := Cube()
	s.Passes = ok
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		edit  func(p []Pass)
		error string
	}{
		{"duplicate", func(p []Pass) { p[2].Name = "main" }, `the name "main" is empty or used twice`},
		{"no attachment", func(p []Pass) { p[0].Depth = false }, "pass shadow has no attachment"},
		{"half a size", func(p []Pass) { p[0].Height = 0 }, "size 64x0"},
		{"later input", func(p []Pass) { p[1].Input.Pass = "post" }, `samples pass "post", which is not an earlier pass`},
		{"missing attachment", func(p []Pass) { p[2].Texture.Pass = "shadow" }, "samples an attachment pass shadow does not have"},
		{"light", func(p []Pass) { p[1].LightFrom = "sun" }, `"sun", which is not an earlier pass`},
		{"two mains", func(p []Pass) { p[2].Main = true }, "2 passes are marked main"},
		{"dark end", func(p []Pass) { p[2].Color, p[2].Depth = false, true }, "the last pass (post) has no colour attachment"},
	} {
		p := make([]Pass, len(ok))
		copy(p, ok)
		in, tex := *ok[1].Input, *ok[2].Texture
		p[1].Input, p[2].Texture = &in, &tex
		tc.edit(p)
		s.Passes = p
		if err := s.Validate(); err == nil || !strings.Contains(err.Error(), tc.error) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.error)
		}
	}
}
