// A program with an off-by-one bug in its kernel: the last work-item of
// each work-group writes one int past the work-group's local memory. On a
// GPU it runs to the end; it prints what the other work-items read.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

static const char *src =
	"__kernel void shift(__global int *out) {\n"
	"  __local int tile[64];\n"
	"  int l = get_local_id(0);\n"
	"  tile[l + 1] = l;\n"
	"  barrier(CLK_LOCAL_MEM_FENCE);\n"
	"  out[get_global_id(0)] = tile[l];\n"
	"}\n";

int main(void)
{
	cl_platform_id p;
	cl_device_id d;
	cl_int err;
	clGetPlatformIDs(1, &p, NULL);
	clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL);
	cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
	cl_command_queue q = clCreateCommandQueue(ctx, d, 0, &err);
	cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
	if (clBuildProgram(prog, 1, &d, "-g", NULL, NULL) != CL_SUCCESS) {
		printf("build failed\n");
		return 1;
	}
	cl_kernel k = clCreateKernel(prog, "shift", &err);
	cl_mem out = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, 256 * sizeof(int), NULL, &err);
	clSetKernelArg(k, 0, sizeof out, &out);
	size_t global = 256, local = 64;
	err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);
	cl_int fin = clFinish(q);
	if (err != CL_SUCCESS || fin != CL_SUCCESS) {
		printf("the kernel failed: %d %d\n", err, fin);
		return 3;
	}
	int host[256];
	clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL);
	printf("out[1] = %d, out[63] = %d, out[65] = %d\n", host[1], host[63], host[65]);
	return 0;
}
