package corpus

// The corpus. Sizes are kept small so that tests stay fast; a case's Global
// is a multiple of its Local in every dimension. Seeds differ between
// arguments so that no two inputs are equal.
var cases = []Case{
	{
		Name: "vecadd", Lang: "opencl", SourceFile: "kernels/vecadd.cl", Entry: "vecadd",
		Global: []int{1024}, Local: []int{64},
		Args:    []string{"buf:f32:1000=random:1", "buf:f32:1000=random:2", "buf:f32:1000", "u32:1000"},
		Outputs: []int{2}, Reference: refVecadd,
	},
	{
		Name: "reduce", Lang: "opencl", SourceFile: "kernels/reduce.cl", Entry: "reduce",
		Global: []int{1024}, Local: []int{128},
		Args:    []string{"buf:u32:1000=random:3", "buf:u32:8", "local:512", "u32:1000"},
		Outputs: []int{1}, Reference: refReduce,
	},
	{
		Name: "reduce_glsl", Lang: "glsl", SourceFile: "kernels/reduce.comp", Entry: "main",
		Global: []int{256}, Local: []int{64},
		Args:    []string{"buf:f32:256=random:4", "buf:f32:4"},
		Outputs: []int{1}, Reference: refReduceGLSL,
	},
	{
		Name: "divergent", Lang: "opencl", SourceFile: "kernels/divergent.cl", Entry: "divergent",
		Global: []int{256}, Local: []int{64},
		Args:    []string{"buf:u32:256=random:5", "buf:u32:256"},
		Outputs: []int{1}, Reference: refDivergent,
	},
	{
		Name: "divergent_glsl", Lang: "glsl", SourceFile: "kernels/divergent.comp", Entry: "main",
		Global: []int{256}, Local: []int{64},
		Args:    []string{"buf:u32:256=random:5", "buf:u32:256"},
		Outputs: []int{1}, Reference: refDivergent,
	},
	{
		Name: "histogram", Lang: "opencl", SourceFile: "kernels/histogram.cl", Entry: "histogram",
		Global: []int{512}, Local: []int{64},
		// stats starts as {count 0, max 0, min 0xffffffff, unused 0}.
		Args:    []string{"buf:u32:2000=random:6", "buf:u32:64", "buf:u32x4:1=fill:0,0,4294967295,0", "local:256", "u32:2000"},
		Outputs: []int{1, 2}, Reference: refHistogram,
	},
	{
		Name: "chase", Lang: "opencl", SourceFile: "kernels/chase.cl", Entry: "chase",
		Global: []int{64}, Local: []int{16},
		// A ring over 256 slots 64 bytes (16 elements) apart; 100 steps.
		Args:    []string{"buf:u32:4096=chase:64", "buf:u32x2:64", "u32:100", "u32:16"},
		Outputs: []int{1}, Reference: refChase,
	},
	{
		Name: "image1d", Lang: "opencl", SourceFile: "kernels/image1d.cl", Entry: "image1d",
		Global: []int{64}, Local: []int{16},
		// A ring over 64 slots 4 texels apart; 50 steps from texel 4i.
		Args: []string{"image1d_buffer:u32:256=chase:64:2", "image1d_buffer:u32:64=random:7",
			"buf:u32:64", "buf:u32x4:64", "u32:50", "u32:4"},
		Outputs: []int{2, 3}, Reference: refImage1D,
	},
	{
		Name: "image2d", Lang: "opencl", SourceFile: "kernels/image2d.cl", Entry: "image2d",
		// One work-item more than the 16x8 image on every side.
		Global: []int{18, 10}, Local: []int{6, 5},
		Args:    []string{"image2d:f32:16x8=random:8", "buf:f32x4:180"},
		Outputs: []int{1}, Reference: refImage2D,
	},
	{
		Name: "half", Lang: "opencl", SourceFile: "kernels/half.cl", Entry: "halfmath",
		Global: []int{256}, Local: []int{64},
		Args: []string{"buf:f16:256=random:9", "buf:f16:256=random:10", "buf:f16:256", "buf:f16:256",
			"buf:f32:256", "buf:f16x4:256=random:11", "buf:f16x4:256"},
		Outputs: []int{2, 3, 4, 6}, Reference: refHalf,
	},
	{
		Name: "int8", Lang: "opencl", SourceFile: "kernels/int8.cl", Entry: "int8ops",
		Global: []int{256}, Local: []int{64},
		Args: []string{"buf:i8x4:256=random:12", "buf:i8x4:256=random:13", "buf:i8x4:256", "buf:i8x4:256",
			"buf:u8x4:256", "buf:i32:256"},
		Outputs: []int{2, 3, 4, 5}, Reference: refInt8,
	},
	{
		Name: "int64", Lang: "opencl", SourceFile: "kernels/int64.cl", Entry: "int64ops",
		Global: []int{64}, Local: []int{16},
		Args:    []string{"buf:u64:64=random:14", "buf:u64:64=random:15", "buf:u64:512"},
		Outputs: []int{2}, Reference: refInt64,
	},
	{
		Name: "stencil", Lang: "opencl", SourceFile: "kernels/stencil.cl", Entry: "stencil",
		Global: []int{32, 16}, Local: []int{8, 4},
		Args:    []string{"buf:f32:512=random:16", "buf:f32:512", "i32:32", "i32:16"},
		Outputs: []int{1}, Reference: refStencil,
	},
	{
		Name: "matmul", Lang: "opencl", SourceFile: "kernels/matmul.cl", Entry: "matmul",
		BuildOpts: []string{"-DTILE=8"},
		Global:    []int{16, 16}, Local: []int{8, 8},
		// A is 16x24, B 24x16, with integer values (iota) so that C is exact.
		Args:    []string{"buf:f32:384=iota", "buf:f32:384=iota", "buf:f32:256", "i32:16", "i32:16", "i32:24"},
		Outputs: []int{2}, Reference: refMatmul,
	},
	{
		Name: "spec_glsl", Lang: "glsl", SourceFile: "kernels/spec.comp", Entry: "main",
		Global: []int{224}, Local: []int{32},
		// Bindings (0,0) a, (0,1) b, (0,2) c, (1,0) d; push constants n, bias.
		Args: []string{"buf:u32:224=random:17", "buf:f32:224=random:18", "buf:u32:224", "buf:f32:224=random:19",
			"u32:200", "f32:0.25"},
		Outputs: []int{2, 3}, Reference: refSpec,
	},
	{
		Name: "vectors", Lang: "opencl", SourceFile: "kernels/vectors.cl", Entry: "vectors",
		Global: []int{64}, Local: []int{16},
		Args: []string{"buf:f32x16:64=random:20", "buf:i32x8:64=random:21", "buf:f32x3:64=random:22",
			"buf:f32x16:64", "buf:i32x8:64", "buf:f32x3:64", "buf:f32:64", "buf:u16x2:64"},
		Outputs: []int{3, 4, 5, 6, 7}, Reference: refVectors,
	},
	{
		Name: "math", Lang: "opencl", SourceFile: "kernels/math.cl", Entry: "mathfn",
		Global: []int{256}, Local: []int{64},
		Args:    []string{"buf:f32:256=random:23", "buf:f32:2048"},
		Outputs: []int{1},
		// OpenCL 1.2 §7.4 allows 3-4 ulp for sqrt, exp, log, sin and cos and
		// an implementation-defined error for native_*; 1e-6 is about 8 ulp
		// (PoCL is within 1.2e-7 of the Go reference).
		Tol: 1e-6, Reference: refMath,
	},
	{
		Name: "select", Lang: "opencl", SourceFile: "kernels/select.cl", Entry: "selectfn",
		Global: []int{256}, Local: []int{64},
		Args:    []string{"buf:f32:256=random:24", "buf:f32:256=random:25", "buf:f32:1536", "buf:i32:2048"},
		Outputs: []int{2, 3}, Reference: refSelect,
	},
	{
		Name: "fma8", Lang: "opencl", SourceFile: "kernels/fma8.cl", Entry: "fma8",
		Global: []int{1024}, Local: []int{64},
		Args:    []string{"buf:f32:1024", "u32:256", "f32:0.999"},
		Outputs: []int{0}, Reference: refFMA8,
	},
}
