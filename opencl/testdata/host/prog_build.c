// Programs: build options, build failures and their logs, the build
// callback, program queries, binaries and clCreateProgramWithBinary.
#include "common.h"

static int notified;
static void CL_CALLBACK on_build(cl_program p, void *user)
{
	cl_build_status st;
	clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL);
	notified++;
	printf("notify %s status %d\n", (char *)user, st);
}

static const char *src =
	"#include \"scale.h\"\n"
	"__kernel void scale(__global float *a) { a[get_global_id(0)] *= SCALE * FACTOR; }\n"
	"__kernel void add(__global float *a, float b) { a[get_global_id(0)] += b; }\n";

// run applies kernel "scale" of p to 1..4 and prints the result.
static void run(cl_context ctx, cl_command_queue q, cl_program p, const char *what)
{
	cl_int err;
	float v[4] = {1, 2, 3, 4};
	cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof v, v, &err);
	CHECK(err);
	cl_kernel k = clCreateKernel(p, "scale", &err);
	CHECK(err);
	CHECK(clSetKernelArg(k, 0, sizeof b, &b));
	size_t g = 4;
	CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof v, v, 0, NULL, NULL));
	printf("%s: %g %g %g %g\n", what, v[0], v[1], v[2], v[3]);
	clReleaseKernel(k);
	clReleaseMemObject(b);
}

static int cmp(const void *a, const void *b) { return strcmp(*(char **)a, *(char **)b); }

int main(void)
{
	cl_command_queue q;
	cl_context ctx = setup(&q, 0);
	cl_int err;

	// Options: -D, -I, the math options and the language versions.
	const char *opts[] = {
		"-D FACTOR=2 -I testdata/host/inc",
		"-DFACTOR=2 -Itestdata/host/inc -cl-std=CL1.2 -cl-mad-enable -cl-fast-relaxed-math",
		"-DFACTOR=2 -Itestdata/host/inc -cl-finite-math-only -cl-denorms-are-zero -cl-no-signed-zeros -w",
		"-DFACTOR=2 -Itestdata/host/inc -cl-opt-disable -cl-kernel-arg-info -Werror",
		"-DFACTOR=2 -Itestdata/host/inc -cl-std=CL1.1 -cl-unsafe-math-optimizations -cl-single-precision-constant",
	};
	for (unsigned i = 0; i < sizeof opts / sizeof *opts; i++) {
		cl_program p = build(ctx, src, opts[i]);
		run(ctx, q, p, "scaled");
		clReleaseProgram(p);
	}

	// The callback runs once, after the build.
	cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
	CHECK(err);
	CHECK(clBuildProgram(p, 1, &device, "-DFACTOR=1 -Itestdata/host/inc", on_build, "good"));
	printf("notified %d\n", notified);

	// Queries of the executable.
	size_t nk;
	CHECK(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL));
	char names[256];
	CHECK(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL));
	char *list[8];
	int n = 0;
	for (char *t = strtok(names, ";"); t && n < 8; t = strtok(NULL, ";"))
		list[n++] = t;
	qsort(list, n, sizeof *list, cmp);
	printf("kernels %zu:", nk);
	for (int i = 0; i < n; i++)
		printf(" %s", list[i]);
	printf("\n");
	size_t len;
	CHECK(clGetProgramInfo(p, CL_PROGRAM_SOURCE, 0, NULL, &len));
	printf("source length matches: %d\n", len == strlen(src) + 1);
	cl_uint ndev;
	CHECK(clGetProgramInfo(p, CL_PROGRAM_NUM_DEVICES, sizeof ndev, &ndev, NULL));
	cl_context pc;
	CHECK(clGetProgramInfo(p, CL_PROGRAM_CONTEXT, sizeof pc, &pc, NULL));
	printf("devices %u, context matches %d\n", ndev, pc == ctx);
	cl_program_binary_type bt;
	CHECK(clGetProgramBuildInfo(p, device, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL));
	printf("binary type executable: %d\n", bt == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);

	// Binaries: taken out and given back, as program caches do.
	size_t size;
	CHECK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
	unsigned char *bin = malloc(size);
	CHECK(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL));
	cl_int bst = 1;
	const unsigned char *cbin = bin;
	cl_program pb = clCreateProgramWithBinary(ctx, 1, &device, &size, &cbin, &bst, &err);
	EXPECT("binary accepted", err, CL_SUCCESS);
	EXPECT("binary status", bst, CL_SUCCESS);
	CHECK(clBuildProgram(pb, 1, &device, NULL, NULL, NULL));
	run(ctx, q, pb, "from binary");
	clReleaseProgram(pb);
	free(bin);

	unsigned char junk[64];
	memset(junk, 0x5a, sizeof junk);
	const unsigned char *cj = junk;
	size_t jl = sizeof junk;
	bst = 1;
	pb = clCreateProgramWithBinary(ctx, 1, &device, &jl, &cj, &bst, &err);
	EXPECT("garbage binary", err, CL_INVALID_BINARY);
	EXPECT("garbage binary status", bst, CL_INVALID_BINARY);
	printf("garbage program NULL: %d\n", pb == NULL);

	// A program with kernels cannot be rebuilt.
	cl_kernel k = clCreateKernel(p, "add", &err);
	CHECK(err);
	EXPECT("rebuild with kernels", clBuildProgram(p, 1, &device, "-DFACTOR=1 -Itestdata/host/inc", NULL, NULL), CL_INVALID_OPERATION);
	clReleaseKernel(k);
	EXPECT("rebuild without kernels", clBuildProgram(p, 1, &device, "-DFACTOR=1 -Itestdata/host/inc", NULL, NULL), CL_SUCCESS);
	clReleaseProgram(p);

	// Failures: a bad option, a syntax error (status, log, callback).
	p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
	EXPECT("unknown option", clBuildProgram(p, 1, &device, "-DFACTOR=1 -fno-such-option", NULL, NULL), CL_INVALID_BUILD_OPTIONS);
	clReleaseProgram(p);
	const char *bad = "__kernel void k(__global float *a) { a[0] = undeclared_thing; }\n";
	p = clCreateProgramWithSource(ctx, 1, &bad, NULL, &err);
	notified = 0;
	EXPECT("syntax error", clBuildProgram(p, 1, &device, NULL, on_build, "bad"), CL_BUILD_PROGRAM_FAILURE);
	printf("notified %d\n", notified);
	cl_build_status st;
	CHECK(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL));
	EXPECT("status error", st, CL_BUILD_ERROR);
	char log[8192] = "";
	CHECK(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
	printf("log names the identifier: %d\n", strstr(log, "undeclared_thing") != NULL);
	clCreateKernel(p, "k", &err);
	EXPECT("kernel of a failed build", err, CL_INVALID_PROGRAM_EXECUTABLE);
	EXPECT("kernel names of a failed build", clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL), CL_INVALID_PROGRAM_EXECUTABLE);
	clReleaseProgram(p);

	// Other calls.
	clCreateProgramWithBuiltInKernels(ctx, 1, &device, "no_such_kernel", &err);
	EXPECT("built-in kernels", err, CL_INVALID_VALUE);
	EXPECT("unload compiler", clUnloadPlatformCompiler(platform), CL_SUCCESS);
	clCreateProgramWithSource(ctx, 0, NULL, NULL, &err);
	EXPECT("no source", err, CL_INVALID_VALUE);
	return 0;
}
