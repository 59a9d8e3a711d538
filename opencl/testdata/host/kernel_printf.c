// Kernel printf (OpenCL 1.2 §6.12.13): what a kernel prints reaches the
// program's stdout when the kernel completes, in its place among the
// program's own lines. One work-item prints the format cases (the order of
// several printf calls across work-items is the implementation's); then
// each of four work-items prints one line, in work-item order.
#include "common.h"

static const char *src =
	"__kernel void formats(int i, float f, uint u) {\n"
	"  printf(\"int %d, padded [%5d] [%-5d], unsigned %u, hex %x %X, octal %o\\n\", i, i, i, u, u, u, u);\n"
	"  printf(\"float %f %.2f %e %g, char %c, string %s, percent %%\\n\", f, f, f, f, 'q', \"literal\");\n"
	"  printf(\"long %ld, short %hd, vector %v4hld, float vector %v2hlf\\n\", (long)i * 100000000L, (short)i, (int4)(1, -2, 3, i), (float2)(f, -f));\n"
	"}\n"
	"__kernel void ids(void) {\n"
	"  printf(\"work-item %d of %d\\n\", (int)get_global_id(0), (int)get_global_size(0));\n"
	"}\n";

int main(void)
{
	cl_command_queue q;
	cl_context ctx = setup(&q, 0);
	cl_program p = build(ctx, src, NULL);
	cl_int err;
	cl_kernel formats = clCreateKernel(p, "formats", &err);
	CHECK(err);
	cl_kernel ids = clCreateKernel(p, "ids", &err);
	CHECK(err);
	cl_int i = -42;
	cl_float f = 3.25f;
	cl_uint u = 3054;
	CHECK(clSetKernelArg(formats, 0, sizeof i, &i));
	CHECK(clSetKernelArg(formats, 1, sizeof f, &f));
	CHECK(clSetKernelArg(formats, 2, sizeof u, &u));
	printf("before the kernels\n");
	size_t one = 1, four = 4;
	CHECK(clEnqueueNDRangeKernel(q, formats, 1, NULL, &one, &one, 0, NULL, NULL));
	CHECK(clFinish(q));
	printf("between them\n");
	CHECK(clEnqueueNDRangeKernel(q, ids, 1, NULL, &four, &four, 0, NULL, NULL));
	CHECK(clFinish(q));
	printf("after them\n");
	clReleaseKernel(formats);
	clReleaseKernel(ids);
	clReleaseProgram(p);
	clReleaseCommandQueue(q);
	clReleaseContext(ctx);
	return 0;
}
