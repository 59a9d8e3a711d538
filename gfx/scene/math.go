package scene

import "math"

// Vec3 is a 3-component vector.
type Vec3 [3]float64

func (a Vec3) Add(b Vec3) Vec3      { return Vec3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
func (a Vec3) Sub(b Vec3) Vec3      { return Vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func (a Vec3) Scale(s float64) Vec3 { return Vec3{a[0] * s, a[1] * s, a[2] * s} }
func (a Vec3) Dot(b Vec3) float64   { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func (a Vec3) Cross(b Vec3) Vec3 {
	return Vec3{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}
func (a Vec3) Len() float64 { return math.Sqrt(a.Dot(a)) }

// Norm returns a unit vector along a (a itself when it has no length).
func (a Vec3) Norm() Vec3 {
	l := a.Len()
	if l == 0 {
		return a
	}
	return a.Scale(1 / l)
}

// Mat4 is a 4×4 matrix in column-major order (element [c*4+r] is row r of
// column c), as glTF and GLSL store them.
type Mat4 [16]float64

// Identity is the identity matrix.
func Identity() Mat4 {
	return Mat4{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}
}

// Mul returns a×b (b applied first).
func (a Mat4) Mul(b Mat4) Mat4 {
	var m Mat4
	for c := 0; c < 4; c++ {
		for r := 0; r < 4; r++ {
			var s float64
			for k := 0; k < 4; k++ {
				s += a[k*4+r] * b[c*4+k]
			}
			m[c*4+r] = s
		}
	}
	return m
}

// Point transforms a point (w = 1) and returns x, y, z (no divide).
func (a Mat4) Point(p Vec3) Vec3 {
	var o Vec3
	for r := 0; r < 3; r++ {
		o[r] = a[r]*p[0] + a[4+r]*p[1] + a[8+r]*p[2] + a[12+r]
	}
	return o
}

// Translate is a translation.
func Translate(v Vec3) Mat4 {
	m := Identity()
	m[12], m[13], m[14] = v[0], v[1], v[2]
	return m
}

// ScaleM is a scale.
func ScaleM(v Vec3) Mat4 {
	m := Identity()
	m[0], m[5], m[10] = v[0], v[1], v[2]
	return m
}

// RotateY rotates by rad around +Y.
func RotateY(rad float64) Mat4 {
	c, s := math.Cos(rad), math.Sin(rad)
	m := Identity()
	m[0], m[2], m[8], m[10] = c, -s, s, c
	return m
}

// Quat returns the rotation of unit quaternion (x, y, z, w).
func Quat(q [4]float64) Mat4 {
	x, y, z, w := q[0], q[1], q[2], q[3]
	m := Identity()
	m[0] = 1 - 2*(y*y+z*z)
	m[1] = 2 * (x*y + z*w)
	m[2] = 2 * (x*z - y*w)
	m[4] = 2 * (x*y - z*w)
	m[5] = 1 - 2*(x*x+z*z)
	m[6] = 2 * (y*z + x*w)
	m[8] = 2 * (x*z + y*w)
	m[9] = 2 * (y*z - x*w)
	m[10] = 1 - 2*(x*x+y*y)
	return m
}

// LookAt is a right-handed view matrix: the camera at eye looks at target,
// up roughly +up; view space looks down -Z.
func LookAt(eye, target, up Vec3) Mat4 {
	f := target.Sub(eye).Norm()
	s := f.Cross(up).Norm()
	if s.Len() == 0 {
		s = f.Cross(Vec3{0, 0, 1}).Norm()
	}
	u := s.Cross(f)
	m := Identity()
	m[0], m[4], m[8] = s[0], s[1], s[2]
	m[1], m[5], m[9] = u[0], u[1], u[2]
	m[2], m[6], m[10] = -f[0], -f[1], -f[2]
	m[12], m[13], m[14] = -s.Dot(eye), -u.Dot(eye), f.Dot(eye)
	return m
}

// Perspective is a Vulkan-convention projection: clip-space y points down
// the frame buffer and depth runs from 0 at near to 1 at far.
func Perspective(fovY, aspect, near, far float64) Mat4 {
	f := 1 / math.Tan(fovY/2)
	var m Mat4
	m[0] = f / aspect
	m[5] = -f
	m[10] = far / (near - far)
	m[11] = -1
	m[14] = near * far / (near - far)
	return m
}

// Ortho maps the box [l,r]×[b,t]×[-near,-far] (view space) to Vulkan clip
// space: y down the frame buffer, depth 0 to 1.
func Ortho(l, r, b, t, near, far float64) Mat4 {
	m := Identity()
	m[0] = 2 / (r - l)
	m[5] = -2 / (t - b)
	m[10] = -1 / (far - near)
	m[12] = -(r + l) / (r - l)
	m[13] = (t + b) / (t - b)
	m[14] = -near / (far - near)
	return m
}

// Float32s returns the matrix as float32s, column-major.
func (a Mat4) Float32s() [16]float32 {
	var o [16]float32
	for i, v := range a {
		o[i] = float32(v)
	}
	return o
}
