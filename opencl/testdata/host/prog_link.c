// Separate compilation: clCompileProgram with an embedded header,
// clLinkProgram into a library and an executable, binary types, and the
// compile and link failures with their logs.
#include "common.h"

static int linked;
static void CL_CALLBACK on_link(cl_program p, void *user)
{
	(void)p;
	(void)user;
	linked++;
}

static cl_program_binary_type btype(cl_program p)
{
	cl_program_binary_type t;
	CHECK(clGetProgramBuildInfo(p, device, CL_PROGRAM_BINARY_TYPE, sizeof t, &t, NULL));
	return t;
}

int main(void)
{
	cl_command_queue q;
	cl_context ctx = setup(&q, 0);
	cl_int err;
	const char *hdr = "float twice(float x);\n#define OFFSET 1.0f\n";
	const char *lib = "float twice(float x) { return 2.0f * x; }\n";
	const char *main_src = "#include \"util/twice.h\"\n"
			       "__kernel void k(__global float *a) { size_t i = get_global_id(0); a[i] = twice(a[i]) + OFFSET; }\n";
	cl_program h = clCreateProgramWithSource(ctx, 1, &hdr, NULL, &err);
	CHECK(err);
	cl_program pl = clCreateProgramWithSource(ctx, 1, &lib, NULL, &err);
	CHECK(err);
	cl_program pm = clCreateProgramWithSource(ctx, 1, &main_src, NULL, &err);
	CHECK(err);
	const char *hname = "util/twice.h";
	CHECK(clCompileProgram(pl, 1, &device, "", 0, NULL, NULL, NULL, NULL));
	CHECK(clCompileProgram(pm, 1, &device, "-cl-mad-enable", 1, &h, &hname, NULL, NULL));
	printf("compiled object: %d %d\n", btype(pl) == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT, btype(pm) == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
	cl_kernel k;

	cl_program library = clLinkProgram(ctx, 1, &device, "-create-library", 1, &pl, NULL, NULL, &err);
	EXPECT("link a library", err, CL_SUCCESS);
	printf("library: %d\n", btype(library) == CL_PROGRAM_BINARY_TYPE_LIBRARY);
	cl_program in[2] = {pm, library};
	cl_program exe = clLinkProgram(ctx, 1, &device, NULL, 2, in, on_link, NULL, &err);
	EXPECT("link an executable", err, CL_SUCCESS);
	printf("link callback %d, executable: %d\n", linked, btype(exe) == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);

	float v[4] = {1, 2, 3, 4};
	cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof v, v, &err);
	CHECK(err);
	k = clCreateKernel(exe, "k", &err);
	CHECK(err);
	CHECK(clSetKernelArg(k, 0, sizeof b, &b));
	size_t g = 4;
	CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof v, v, 0, NULL, NULL));
	printf("linked: %g %g %g %g\n", v[0], v[1], v[2], v[3]);

	// Failures.
	const char *broken = "__kernel void k(__global float *a) { a[0] = nope; }\n";
	cl_program pb = clCreateProgramWithSource(ctx, 1, &broken, NULL, &err);
	EXPECT("compile error", clCompileProgram(pb, 1, &device, NULL, 0, NULL, NULL, NULL, NULL), CL_COMPILE_PROGRAM_FAILURE);
	char log[8192] = "";
	CHECK(clGetProgramBuildInfo(pb, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
	printf("compile log names it: %d\n", strstr(log, "nope") != NULL);
	EXPECT("bad compile option", clCompileProgram(pl, 1, &device, "-cl-no-such-thing", 0, NULL, NULL, NULL, NULL), CL_INVALID_COMPILER_OPTIONS);
	clLinkProgram(ctx, 1, &device, "-no-such-link-option", 1, &pl, NULL, NULL, &err);
	EXPECT("bad link option", err, CL_INVALID_LINKER_OPTIONS);
	cl_program src_only = clCreateProgramWithSource(ctx, 1, &lib, NULL, &err);
	clLinkProgram(ctx, 1, &device, NULL, 1, &src_only, NULL, NULL, &err);
	EXPECT("link an uncompiled program", err, CL_INVALID_OPERATION);
	return 0;
}
