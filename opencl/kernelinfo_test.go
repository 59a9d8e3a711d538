package opencl

import (
	"testing"
)

// A kernel whose registers keep the device's largest work-group from
// fitting on a core reports the largest that does, and a launch at that
// size runs while one a warp larger is refused (pyopencl's scan sizes its
// work-groups by CL_KERNEL_WORK_GROUP_SIZE).
func TestWorkGroupSizeIsLargestThatRuns(t *testing.T) {
	needCompilers(t)
	const src = `__kernel void wide(__global const float16 *in, __global float *out)
{
	size_t i = get_global_id(0);
	float16 a = in[i], b = in[i + 1], c = in[i + 2], d = in[i + 3];
	float16 s = a * b + c * d + a * d + b * c;
	float16 t = a * a - b * b + c * c - d * d;
	out[i] = s.s0 + s.s1 * t.s2 + s.s3 * t.s4 + s.s5 * t.s6 + s.s7 * t.s8 + s.s9 * t.sa + s.sb * t.sc + s.sd * t.se + s.sf * t.s0
		+ t.s1 * a.s5 + t.s3 * b.s7 + t.s5 * c.s9 + t.s7 * d.sb + t.s9 * a.sd + t.sb * b.sf + t.sd * c.s1 + t.sf * d.s3;
}
`
	limited := 0
	for _, gpu := range []string{"mali-g52", "adreno-640", "powervr-gx6250", "mali-t760"} {
		p, err := NewPlatform([]string{gpu})
		if err != nil {
			t.Fatal(err)
		}
		d := p.Devices[0]
		ctx, _ := p.NewContext(p.Devices)
		q, _ := ctx.NewQueue(d, 0)
		q.Functional = true
		prog, _ := ctx.NewProgram(src)
		if err := prog.Build(nil, ""); err != nil {
			t.Fatalf("%s: %v", gpu, err)
		}
		k, err := prog.NewKernel("wide")
		if err != nil {
			t.Fatal(err)
		}
		info, err := k.WorkGroup(d)
		if err != nil {
			t.Fatal(err)
		}
		if info.Size < 1 || info.Size > d.GPU.MaxWorkgroupSize {
			t.Fatalf("%s: CL_KERNEL_WORK_GROUP_SIZE %d", gpu, info.Size)
		}
		n := info.Size + info.Multiple
		in, _ := ctx.NewBuffer(MemReadWrite, (n+3)*64, nil)
		out, _ := ctx.NewBuffer(MemReadWrite, n*4, nil)
		if err := k.SetArg(0, 8, nil, in); err != nil {
			t.Fatal(err)
		}
		if err := k.SetArg(1, 8, nil, out); err != nil {
			t.Fatal(err)
		}
		if _, err := q.NDRange(k, 1, []int{info.Size}, []int{info.Size}, nil); err != nil {
			t.Errorf("%s: a work-group of CL_KERNEL_WORK_GROUP_SIZE (%d) does not launch: %v", gpu, info.Size, err)
		}
		if info.Size < d.GPU.MaxWorkgroupSize {
			limited++
			if _, err := q.NDRange(k, 1, []int{n}, []int{n}, nil); err == nil {
				t.Errorf("%s: a work-group of %d, over CL_KERNEL_WORK_GROUP_SIZE %d, launched", gpu, n, info.Size)
			}
		}
		t.Logf("%s: CL_KERNEL_WORK_GROUP_SIZE %d of the device's %d", gpu, info.Size, d.GPU.MaxWorkgroupSize)
	}
	if limited == 0 {
		t.Error("the kernel's registers limited no GPU's work-group size: the test checks nothing")
	}
}
