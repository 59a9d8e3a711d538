// Two queues on two devices, everything released, then _exit: no atexit
// hook runs, so the trace is the one written when the last context went
// (TestExecTraceReleaseExit).
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
	cl_platform_id p;
	cl_device_id d[2];
	cl_uint n = 0;
	cl_int err;
	if (clGetPlatformIDs(1, &p, NULL) != CL_SUCCESS || clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 2, d, &n) != CL_SUCCESS || n != 2) {
		fprintf(stderr, "want a platform with two devices\n");
		return 1;
	}
	cl_context ctx = clCreateContext(NULL, 2, d, NULL, NULL, &err);
	cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);
	static char host[4096];
	for (int i = 0; i < 2; i++) {
		cl_command_queue q = clCreateCommandQueue(ctx, d[i], 0, &err);
		for (int j = 0; j <= i; j++)
			clEnqueueWriteBuffer(q, b, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL);
		clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL);
		clReleaseCommandQueue(q);
	}
	clReleaseMemObject(b);
	clReleaseContext(ctx);
	printf("done\n");
	fflush(stdout);
	_exit(0);
}
