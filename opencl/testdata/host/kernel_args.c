// Kernels: argument info, kernel and work-group info, kernels in a
// program, clones, arguments by value (structs), __local arguments of any
// size, NULL buffers, NDRanges with offsets and no local size, tasks, and
// the argument and work-size errors.
#include "common.h"

typedef struct {
	cl_float a;
	cl_int b;
	cl_float c[3];
} pair_t;

static const char *src =
	"typedef struct { float a; int b; float c[3]; } pair_t;\n"
	"__kernel void fill(__global float *restrict out, __constant float *in, pair_t p, __local float *tmp, const int n)\n"
	"{ size_t i = get_global_id(0); size_t l = get_local_id(0); tmp[l] = in[i % n] * p.a + p.b + p.c[2];\n"
	"  barrier(CLK_LOCAL_MEM_FENCE); out[i - get_global_offset(0)] = tmp[get_local_size(0) - 1 - l] + (float)get_global_offset(0); }\n"
	"__kernel __attribute__((reqd_work_group_size(4, 1, 1))) void fixed(__global volatile int *out)\n"
	"{ out[get_global_id(0)] = (int)get_local_size(0); }\n"
	"__kernel void maybe(__global int *out, __global const int *opt)\n"
	"{ out[get_global_id(0)] = opt ? opt[0] : -1; }\n"
	"__kernel void task(__global int *out) { out[0] = (int)(get_global_size(0) * 100 + get_local_size(0)); }\n";

static void arginfo(cl_kernel k, cl_uint i)
{
	cl_kernel_arg_address_qualifier aq;
	cl_kernel_arg_access_qualifier acc;
	cl_kernel_arg_type_qualifier tq;
	char type[64], name[64];
	CHECK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL));
	CHECK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof acc, &acc, NULL));
	CHECK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, NULL));
	CHECK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, NULL));
	CHECK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_NAME, sizeof name, name, NULL));
	printf("arg %u: address %#x access %#x qualifiers %#lx type %s name %s\n", i, aq, acc, (unsigned long)tq, type, name);
}

int main(void)
{
	cl_command_queue q;
	cl_context ctx = setup(&q, 0);
	cl_int err;
	cl_program p = build(ctx, src, "-cl-kernel-arg-info");

	cl_uint n;
	CHECK(clCreateKernelsInProgram(p, 0, NULL, &n));
	cl_kernel ks[8];
	EXPECT("too few kernel slots", clCreateKernelsInProgram(p, 1, ks, NULL), CL_INVALID_VALUE);
	CHECK(clCreateKernelsInProgram(p, n, ks, NULL));
	int names = 0;
	for (cl_uint i = 0; i < n; i++) {
		char name[32];
		CHECK(clGetKernelInfo(ks[i], CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL));
		names += !strcmp(name, "fill") + !strcmp(name, "fixed") + !strcmp(name, "maybe") + !strcmp(name, "task");
		clReleaseKernel(ks[i]);
	}
	printf("kernels in program: %u, names found %d\n", n, names);

	cl_kernel k = clCreateKernel(p, "fill", &err);
	CHECK(err);
	cl_uint nargs;
	CHECK(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL));
	printf("fill takes %u arguments\n", nargs);
	for (cl_uint i = 0; i < nargs; i++)
		arginfo(k, i);
	cl_kernel_arg_address_qualifier aq;
	EXPECT("arg info index", clGetKernelArgInfo(k, 9, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL), CL_INVALID_ARG_INDEX);

	cl_kernel fixed = clCreateKernel(p, "fixed", &err);
	CHECK(err);
	arginfo(fixed, 0);
	size_t cwg[3];
	CHECK(clGetKernelWorkGroupInfo(fixed, device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof cwg, cwg, NULL));
	printf("compile work-group size %zu %zu %zu\n", cwg[0], cwg[1], cwg[2]);
	CHECK(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof cwg, cwg, NULL));
	printf("no compile work-group size %zu %zu %zu\n", cwg[0], cwg[1], cwg[2]);
	char attrs[128];
	CHECK(clGetKernelInfo(fixed, CL_KERNEL_ATTRIBUTES, sizeof attrs, attrs, NULL));
	printf("attributes name reqd_work_group_size: %d\n", strstr(attrs, "reqd_work_group_size") != NULL);
	size_t wg, mult, dmax;
	cl_ulong lmem, pmem;
	CHECK(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof dmax, &dmax, NULL));
	CHECK(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
	CHECK(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof mult, &mult, NULL));
	CHECK(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof pmem, &pmem, NULL));
	printf("work-group size within the device's: %d, multiple positive: %d\n", wg >= 1 && wg <= dmax, mult >= 1);
	size_t gws[3];
	EXPECT("global work size of a GPU kernel", clGetKernelWorkGroupInfo(k, device, CL_KERNEL_GLOBAL_WORK_SIZE, sizeof gws, gws, NULL), CL_INVALID_VALUE);

	// Arguments, and their errors.
	enum { N = 16 };
	float in[4] = {1, 2, 3, 4};
	cl_mem bin = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
	CHECK(err);
	cl_mem bout = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(float), NULL, &err);
	CHECK(err);
	pair_t pr = {2.0f, 10, {0.0f, 0.0f, 0.5f}};
	cl_int cnt = 4;
	EXPECT("arg index", clSetKernelArg(k, 5, sizeof cnt, &cnt), CL_INVALID_ARG_INDEX);
	EXPECT("buffer arg size", clSetKernelArg(k, 0, 4, &bout), CL_INVALID_ARG_SIZE);
	EXPECT("value arg size", clSetKernelArg(k, 4, 2, &cnt), CL_INVALID_ARG_SIZE);
	EXPECT("value arg NULL", clSetKernelArg(k, 4, sizeof cnt, NULL), CL_INVALID_ARG_VALUE);
	EXPECT("local arg with a value", clSetKernelArg(k, 3, 16, &cnt), CL_INVALID_ARG_VALUE);
	EXPECT("local arg of size 0", clSetKernelArg(k, 3, 0, NULL), CL_INVALID_ARG_SIZE);
	size_t g = N, l = 8, off = 3;
	EXPECT("args not set", clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
	CHECK(clSetKernelArg(k, 0, sizeof bout, &bout));
	CHECK(clSetKernelArg(k, 1, sizeof bin, &bin));
	CHECK(clSetKernelArg(k, 2, sizeof pr, &pr));
	CHECK(clSetKernelArg(k, 4, sizeof cnt, &cnt));
	for (size_t local = 1; local <= 16; local *= 2) {
		CHECK(clSetKernelArg(k, 3, local * sizeof(float), NULL));
		CHECK(clEnqueueNDRangeKernel(q, k, 1, &off, &g, &local, 0, NULL, NULL));
		float out[N];
		CHECK(clEnqueueReadBuffer(q, bout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
		printf("local %zu:", local);
		for (int i = 0; i < N; i++)
			printf(" %g", out[i]);
		printf("\n");
	}
	cl_kernel clone = clCloneKernel(k, &err);
	CHECK(err);
	CHECK(clSetKernelArg(k, 4, sizeof cnt, &(cl_int){1}));
	l = 4;
	CHECK(clSetKernelArg(clone, 3, l * sizeof(float), NULL));
	CHECK(clEnqueueNDRangeKernel(q, clone, 1, NULL, &g, &l, 0, NULL, NULL));
	float out[N];
	CHECK(clEnqueueReadBuffer(q, bout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
	printf("clone keeps the arguments: %g %g %g %g\n", out[0], out[1], out[2], out[3]);
	CHECK(clGetKernelWorkGroupInfo(clone, device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lmem, &lmem, NULL));
	printf("local memory counts the __local argument: %d\n", lmem >= 16);

	// Work sizes.
	l = 5;
	EXPECT("local not dividing global", clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
	size_t big = dmax * 2, gbig = dmax * 2;
	EXPECT("local over the maximum", clEnqueueNDRangeKernel(q, k, 1, NULL, &gbig, &big, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
	EXPECT("work dimension 0", clEnqueueNDRangeKernel(q, k, 0, NULL, &g, NULL, 0, NULL, NULL), CL_INVALID_WORK_DIMENSION);
	CHECK(clSetKernelArg(fixed, 0, sizeof bout, &bout));
	l = 8;
	EXPECT("local against reqd_work_group_size", clEnqueueNDRangeKernel(q, fixed, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
	l = 4;
	CHECK(clEnqueueNDRangeKernel(q, fixed, 1, NULL, &g, &l, 0, NULL, NULL));
	cl_int iout[N];
	CHECK(clEnqueueReadBuffer(q, bout, CL_TRUE, 0, sizeof iout, iout, 0, NULL, NULL));
	printf("fixed: %d %d\n", iout[0], iout[N - 1]);

	// A NULL buffer argument is a null pointer in the kernel.
	cl_kernel maybe = clCreateKernel(p, "maybe", &err);
	CHECK(err);
	CHECK(clSetKernelArg(maybe, 0, sizeof bout, &bout));
	CHECK(clSetKernelArg(maybe, 1, sizeof(cl_mem), NULL));
	g = 4;
	CHECK(clEnqueueNDRangeKernel(q, maybe, 1, NULL, &g, NULL, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(q, bout, CL_TRUE, 0, 4 * sizeof(cl_int), iout, 0, NULL, NULL));
	printf("NULL buffer: %d %d\n", iout[0], iout[3]);
	cl_mem none = NULL;
	CHECK(clSetKernelArg(maybe, 1, sizeof none, &none));
	cl_int seven = 7;
	cl_mem bs = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof seven, &seven, &err);
	CHECK(clSetKernelArg(maybe, 1, sizeof bs, &bs));
	CHECK(clEnqueueNDRangeKernel(q, maybe, 1, NULL, &g, NULL, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(q, bout, CL_TRUE, 0, 4 * sizeof(cl_int), iout, 0, NULL, NULL));
	printf("a buffer: %d %d\n", iout[0], iout[3]);

	// A task is one work-item in one work-group.
	cl_kernel task = clCreateKernel(p, "task", &err);
	CHECK(err);
	CHECK(clSetKernelArg(task, 0, sizeof bout, &bout));
	CHECK(clEnqueueTask(q, task, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(q, bout, CL_TRUE, 0, sizeof(cl_int), iout, 0, NULL, NULL));
	printf("task: %d\n", iout[0]);
	clCreateKernel(p, "nope", &err);
	EXPECT("unknown kernel", err, CL_INVALID_KERNEL_NAME);
	CHECK(clReleaseKernel(task));
	return 0;
}
