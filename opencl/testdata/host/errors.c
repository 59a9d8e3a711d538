// Error codes pocketgpu must return, and calls it does not implement yet:
// each prints "ok NAME" or "FAIL NAME: got G, want W". Nothing here may
// crash the program. (A made-up handle is not tried: the ICD loader reads
// the dispatch table through it before any platform sees the call.)
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <stdio.h>

static int failures;

static void expect(const char *name, cl_int got, cl_int want)
{
	if (got == want) {
		printf("ok %s\n", name);
	} else {
		printf("FAIL %s: got %d, want %d\n", name, got, want);
		failures++;
	}
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	cl_platform_id platform;
	cl_device_id device;
	cl_int err;
	expect("get platform", clGetPlatformIDs(1, &platform, NULL), CL_SUCCESS);
	expect("get device", clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL), CL_SUCCESS);
	expect("no CPU device", clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, NULL), CL_DEVICE_NOT_FOUND);
	expect("bad param", clGetDeviceInfo(device, 0xdead, 0, NULL, NULL), CL_INVALID_VALUE);
	char small[2];
	expect("short info buffer", clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof small, small, NULL), CL_INVALID_VALUE);
	cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
	expect("create context", err, CL_SUCCESS);
	expect("NULL context", clRetainContext(NULL), CL_INVALID_CONTEXT);
	cl_command_queue q = clCreateCommandQueue(ctx, device, 0, &err);
	expect("create queue", err, CL_SUCCESS);
	clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 16, NULL, &err);
	expect("two access flags", err, CL_INVALID_VALUE);
	clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, 16, NULL, &err);
	expect("copy from NULL", err, CL_INVALID_HOST_PTR);
	cl_mem buf = clCreateBuffer(ctx, 0, 64, NULL, &err);
	expect("create buffer", err, CL_SUCCESS);
	char data[128];
	expect("read past the end", clEnqueueReadBuffer(q, buf, CL_TRUE, 32, 64, data, 0, NULL, NULL), CL_INVALID_VALUE);
	const char *bad = "__kernel void k(__global float *a) { a[0] = nothing; }";
	cl_program p = clCreateProgramWithSource(ctx, 1, &bad, NULL, &err);
	expect("create program", err, CL_SUCCESS);
	expect("build error", clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
	cl_build_status st;
	clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL);
	expect("build status", st, CL_BUILD_ERROR);
	clCreateKernel(p, "k", &err);
	expect("kernel of a failed build", err, CL_INVALID_PROGRAM_EXECUTABLE);
	expect("bad build option", clBuildProgram(p, 0, NULL, "-O3", NULL, NULL), CL_INVALID_BUILD_OPTIONS);
	const char *good = "__kernel void k(__global float *a, int n) { a[get_global_id(0)] = n; }";
	cl_program g = clCreateProgramWithSource(ctx, 1, &good, NULL, &err);
	expect("build", clBuildProgram(g, 0, NULL, "-DX=1", NULL, NULL), CL_SUCCESS);
	cl_kernel k = clCreateKernel(g, "missing", &err);
	expect("unknown kernel", err, CL_INVALID_KERNEL_NAME);
	k = clCreateKernel(g, "k", &err);
	expect("create kernel", err, CL_SUCCESS);
	int n = 3;
	expect("arg index", clSetKernelArg(k, 2, sizeof n, &n), CL_INVALID_ARG_INDEX);
	expect("arg size", clSetKernelArg(k, 1, 2, &n), CL_INVALID_ARG_SIZE);
	expect("not a buffer", clSetKernelArg(k, 0, sizeof(cl_mem), &q), CL_INVALID_MEM_OBJECT);
	size_t global = 16, local = 5;
	expect("args missing", clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
	clSetKernelArg(k, 0, sizeof buf, &buf);
	clSetKernelArg(k, 1, sizeof n, &n);
	expect("work-group size", clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
	expect("work dimension", clEnqueueNDRangeKernel(q, k, 4, NULL, &global, NULL, 0, NULL, NULL), CL_INVALID_WORK_DIMENSION);
	expect("launch", clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
	cl_event ev;
	expect("marker-free read", clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 64, data, 0, NULL, &ev), CL_SUCCESS);
	cl_ulong t;
	expect("no profiling", clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t, &t, NULL), CL_PROFILING_INFO_NOT_AVAILABLE);
	// Not implemented yet: an error code, not a crash.
	// (Native kernels run host code, which no GPU does.)
	expect("unsupported native kernel", clEnqueueNativeKernel(q, NULL, NULL, 0, 0, NULL, NULL, 0, NULL, NULL), CL_INVALID_OPERATION);
	expect("release", clReleaseContext(ctx), CL_SUCCESS);
	expect("release twice", clReleaseContext(ctx), CL_INVALID_CONTEXT);
	return failures != 0;
}
