// Memory commands honour their event wait lists: a write, a copy, a fill
// and a read queued behind a user event do nothing until it completes, then
// run in order; a failed user event fails a read that waits for it.
#include "common.h"

static void show(const char *what, const int *v) { printf("%s: %d %d %d %d\n", what, v[0], v[1], v[2], v[3]); }

int main(void)
{
	cl_command_queue q;
	cl_context ctx = setup(&q, 0);
	cl_int err;
	int init[4] = {1, 2, 3, 4}, src[4] = {10, 20, 30, 40}, out[4] = {0, 0, 0, 0};
	cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof init, init, &err);
	CHECK(err);
	cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof init, init, &err);
	CHECK(err);
	cl_event gate = clCreateUserEvent(ctx, &err);
	CHECK(err);
	cl_event wrote, copied, read;
	CHECK(clEnqueueWriteBuffer(q, a, CL_FALSE, 0, sizeof src, src, 1, &gate, &wrote));
	CHECK(clEnqueueCopyBuffer(q, a, b, 0, 0, 2 * sizeof(int), 1, &wrote, &copied));
	int seven = 7;
	CHECK(clEnqueueFillBuffer(q, b, &seven, sizeof seven, 3 * sizeof(int), sizeof(int), 1, &copied, NULL));
	CHECK(clEnqueueReadBuffer(q, b, CL_FALSE, 0, sizeof out, out, 0, NULL, &read));
	cl_int st;
	CHECK(clGetEventInfo(read, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
	printf("read before the gate opens is complete: %s\n", st == CL_COMPLETE ? "yes" : "no");
	show("host buffer before the gate opens", out);
	src[0] = 11; // a non-blocking write reads its source when it runs
	CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
	CHECK(clWaitForEvents(1, &read));
	show("b after the gate opens", out);

	cl_event bad = clCreateUserEvent(ctx, &err);
	CHECK(err);
	cl_event failed;
	int keep[4] = {-1, -1, -1, -1};
	CHECK(clEnqueueReadBuffer(q, a, CL_FALSE, 0, sizeof keep, keep, 1, &bad, &failed));
	CHECK(clSetUserEventStatus(bad, -1));
	EXPECT("a read behind a failed event fails", clWaitForEvents(1, &failed), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
	show("its destination is untouched", keep);
	clReleaseEvent(gate);
	clReleaseEvent(bad);
	clReleaseEvent(wrote);
	clReleaseEvent(copied);
	clReleaseEvent(read);
	clReleaseEvent(failed);
	clReleaseMemObject(a);
	clReleaseMemObject(b);
	clReleaseCommandQueue(q);
	clReleaseContext(ctx);
	return 0;
}
