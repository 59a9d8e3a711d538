// Contexts and queues: properties given back, bad properties refused,
// errors reported to the context's pfn_notify, queue queries, out-of-order
// queues, and the 1.2 device queries every driver answers.
#include "common.h"

static int notes;
static void CL_CALLBACK on_error(const char *msg, const void *info, size_t cb, void *user)
{
	(void)info;
	(void)cb;
	if (msg && msg[0])
		notes++;
	(void)user;
}

int main(void)
{
	setup(NULL, 0);
	cl_int err;
	cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
	cl_context ctx = clCreateContext(props, 1, &device, on_error, NULL, &err);
	CHECK(err);
	cl_context_properties got[8];
	size_t n;
	CHECK(clGetContextInfo(ctx, CL_CONTEXT_PROPERTIES, sizeof got, got, &n));
	printf("properties: %zu bytes, same %d\n", n, n == sizeof props && got[0] == props[0] && got[1] == props[1] && got[2] == 0);
	cl_context plain = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
	CHECK(err);
	CHECK(clGetContextInfo(plain, CL_CONTEXT_PROPERTIES, 0, NULL, &n));
	printf("no properties: %zu bytes\n", n);
	cl_uint nd, rc;
	CHECK(clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, sizeof nd, &nd, NULL));
	CHECK(clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof rc, &rc, NULL));
	printf("devices %u, references %u\n", nd, rc);

	cl_context_properties badkey[] = {0x7777, 1, 0};
	clCreateContext(badkey, 1, &device, NULL, NULL, &err);
	EXPECT("unknown context property", err, CL_INVALID_PROPERTY);
	cl_context_properties twice[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
	clCreateContext(twice, 1, &device, NULL, NULL, &err);
	EXPECT("property given twice", err, CL_INVALID_PROPERTY);
	clCreateContext(NULL, 0, &device, NULL, NULL, &err);
	EXPECT("no devices", err, CL_INVALID_VALUE);
	clCreateContext(NULL, 1, &device, NULL, &err, &err);
	EXPECT("user data without a callback", err, CL_INVALID_VALUE);

	// Queues.
	cl_command_queue q = clCreateCommandQueue(ctx, device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE, &err);
	CHECK(err);
	cl_command_queue_properties qp;
	CHECK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof qp, &qp, NULL));
	cl_context qc;
	cl_device_id qd;
	CHECK(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof qc, &qc, NULL));
	CHECK(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof qd, &qd, NULL));
	CHECK(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof rc, &rc, NULL));
	printf("queue: properties %#lx, context %d, device %d, references %u\n", (unsigned long)qp, qc == ctx, qd == device, rc);
	clCreateCommandQueue(ctx, device, 1 << 20, &err);
	EXPECT("bad queue property", err, CL_INVALID_VALUE);
	EXPECT("queue info", clGetCommandQueueInfo(q, 0x7777, sizeof qp, &qp, NULL), CL_INVALID_VALUE);

	// An out-of-order queue still gives each command its result.
	const char *src = "__kernel void inc(__global int *p) { p[get_global_id(0)] += 1; }\n";
	cl_program p = build(ctx, src, NULL);
	cl_kernel k = clCreateKernel(p, "inc", &err);
	CHECK(err);
	int v[4] = {0, 10, 20, 30};
	cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof v, v, &err);
	CHECK(err);
	CHECK(clSetKernelArg(k, 0, sizeof b, &b));
	size_t g = 4;
	cl_event prev = NULL;
	for (int i = 0; i < 3; i++) {
		cl_event e;
		CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, prev ? 1 : 0, prev ? &prev : NULL, &e));
		prev = e;
	}
	CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof v, v, 1, &prev, NULL));
	printf("out of order: %d %d %d %d\n", v[0], v[1], v[2], v[3]);

	// Errors go to pfn_notify.
	notes = 0;
	EXPECT("bad argument index", clSetKernelArg(k, 3, sizeof b, &b), CL_INVALID_ARG_INDEX);
	clCreateKernel(p, "missing", &err);
	EXPECT("missing kernel", err, CL_INVALID_KERNEL_NAME);
	// Drivers differ in which errors they report this way (PoCL: few), so
	// this goes to stderr, which only the pocketgpu run checks.
	fprintf(stderr, "pfn_notify called: %d\n", notes > 0);

	// Device queries every OpenCL 1.2 driver answers.
	cl_device_info params[] = {CL_DEVICE_TYPE, CL_DEVICE_VENDOR_ID, CL_DEVICE_MAX_COMPUTE_UNITS, CL_DEVICE_MAX_WORK_ITEM_SIZES,
		CL_DEVICE_MAX_WORK_GROUP_SIZE, CL_DEVICE_ADDRESS_BITS, CL_DEVICE_MAX_MEM_ALLOC_SIZE, CL_DEVICE_IMAGE_SUPPORT,
		CL_DEVICE_HOST_UNIFIED_MEMORY, CL_DEVICE_PRINTF_BUFFER_SIZE, CL_DEVICE_PREFERRED_INTEROP_USER_SYNC,
		CL_DEVICE_PARENT_DEVICE, CL_DEVICE_PARTITION_MAX_SUB_DEVICES, CL_DEVICE_PARTITION_PROPERTIES,
		CL_DEVICE_PARTITION_AFFINITY_DOMAIN, CL_DEVICE_PARTITION_TYPE, CL_DEVICE_REFERENCE_COUNT, CL_DEVICE_BUILT_IN_KERNELS,
		CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, CL_DEVICE_OPENCL_C_VERSION, CL_DEVICE_LINKER_AVAILABLE,
		CL_DEVICE_QUEUE_PROPERTIES, CL_DEVICE_EXECUTION_CAPABILITIES, CL_DEVICE_SINGLE_FP_CONFIG};
	int answered = 0;
	for (unsigned i = 0; i < sizeof params / sizeof *params; i++) {
		size_t sz;
		if (clGetDeviceInfo(device, params[i], 0, NULL, &sz) == CL_SUCCESS && sz > 0)
			answered++;
		else
			printf("unanswered %#x\n", params[i]);
	}
	printf("device queries answered: %d of %u\n", answered, (unsigned)(sizeof params / sizeof *params));
	cl_device_id parent = (cl_device_id)1;
	CHECK(clGetDeviceInfo(device, CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent, NULL));
	printf("root device: %d\n", parent == NULL);
	size_t small;
	EXPECT("device info too small", clGetDeviceInfo(device, CL_DEVICE_NAME, 1, &small, NULL), CL_INVALID_VALUE);
	EXPECT("unknown device info", clGetDeviceInfo(device, 0x7777, sizeof small, &small, NULL), CL_INVALID_VALUE);

	CHECK(clReleaseContext(plain));
	return 0;
}
