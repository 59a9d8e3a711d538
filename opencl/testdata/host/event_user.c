// Events: user events hold back the commands that wait for them (and, in
// order, those after them), callbacks see each state once, a failed user
// event fails its dependents, markers and barriers, and event queries.
#include "common.h"

static char trace[256];
static void note(const char *s)
{
	strncat(trace, s, sizeof trace - strlen(trace) - 1);
}

static void CL_CALLBACK on_event(cl_event e, cl_int status, void *user)
{
	(void)e;
	char buf[64];
	snprintf(buf, sizeof buf, "%s:%d ", (char *)user, status);
	note(buf);
}

static cl_int status_of(cl_event e)
{
	cl_int s;
	CHECK(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL));
	return s;
}

int main(void)
{
	cl_command_queue q;
	cl_context ctx = setup(&q, CL_QUEUE_PROFILING_ENABLE);
	cl_int err;
	cl_event ue = clCreateUserEvent(ctx, &err);
	CHECK(err);
	printf("user event starts submitted: %d\n", status_of(ue) == CL_SUBMITTED);
	cl_command_type ct;
	CHECK(clGetEventInfo(ue, CL_EVENT_COMMAND_TYPE, sizeof ct, &ct, NULL));
	cl_command_queue eq = (cl_command_queue)1;
	CHECK(clGetEventInfo(ue, CL_EVENT_COMMAND_QUEUE, sizeof eq, &eq, NULL));
	cl_context ec;
	CHECK(clGetEventInfo(ue, CL_EVENT_CONTEXT, sizeof ec, &ec, NULL));
	printf("user event: type user %d, queue NULL %d, context %d\n", ct == CL_COMMAND_USER, eq == NULL, ec == ctx);
	cl_ulong t;
	EXPECT("user event profiling", clGetEventProfilingInfo(ue, CL_PROFILING_COMMAND_START, sizeof t, &t, NULL), CL_PROFILING_INFO_NOT_AVAILABLE);

	int v = 1;
	cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof v, &v, &err);
	CHECK(err);
	const char *src = "__kernel void set(__global int *p, int v) { p[0] = v; }\n";
	cl_program prog = build(ctx, src, NULL);
	cl_kernel k = clCreateKernel(prog, "set", &err);
	CHECK(err);
	int w = 42, r = 0;
	CHECK(clSetKernelArg(k, 0, sizeof b, &b));
	CHECK(clSetKernelArg(k, 1, sizeof w, &w));
	cl_event ew, er, em;
	size_t one = 1;
	CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 1, &ue, &ew));
	CHECK(clSetEventCallback(ew, CL_COMPLETE, on_event, "write-complete"));
	CHECK(clEnqueueReadBuffer(q, b, CL_FALSE, 0, sizeof r, &r, 0, NULL, &er));
	CHECK(clSetEventCallback(er, CL_COMPLETE, on_event, "read-complete"));
	CHECK(clEnqueueMarkerWithWaitList(q, 0, NULL, &em));
	CHECK(clFlush(q));
	printf("before: write waits %d, read waits %d, read %d\n", status_of(ew) > CL_COMPLETE, status_of(er) > CL_COMPLETE, r);
	EXPECT("user status must be complete or an error", clSetUserEventStatus(ue, CL_SUBMITTED), CL_INVALID_VALUE);
	note("set ");
	CHECK(clSetUserEventStatus(ue, CL_COMPLETE));
	CHECK(clWaitForEvents(1, &em));
	printf("after: write %d, read %d, marker %d, read %d\n", status_of(ew), status_of(er), status_of(em), r);
	printf("trace: %s\n", trace);
	EXPECT("user status set twice", clSetUserEventStatus(ue, CL_COMPLETE), CL_INVALID_OPERATION);
	cl_ulong qd, sb, st, en;
	CHECK(clGetEventProfilingInfo(ew, CL_PROFILING_COMMAND_QUEUED, sizeof qd, &qd, NULL));
	CHECK(clGetEventProfilingInfo(ew, CL_PROFILING_COMMAND_SUBMIT, sizeof sb, &sb, NULL));
	CHECK(clGetEventProfilingInfo(ew, CL_PROFILING_COMMAND_START, sizeof st, &st, NULL));
	CHECK(clGetEventProfilingInfo(ew, CL_PROFILING_COMMAND_END, sizeof en, &en, NULL));
	printf("profiling in order: %d\n", qd <= sb && sb <= st && st <= en);

	// A callback registered after the state has passed is called at once.
	trace[0] = 0;
	CHECK(clSetEventCallback(ew, CL_SUBMITTED, on_event, "late-submitted"));
	CHECK(clSetEventCallback(ew, CL_RUNNING, on_event, "late-running"));
	printf("late callbacks: %s\n", trace);
	EXPECT("callback type", clSetEventCallback(ew, 7, on_event, NULL), CL_INVALID_VALUE);
	EXPECT("callback NULL", clSetEventCallback(ew, CL_COMPLETE, NULL, NULL), CL_INVALID_VALUE);

	// Legacy markers and barriers.
	cl_event lm;
	CHECK(clEnqueueMarker(q, &lm));
	CHECK(clEnqueueBarrier(q));
	CHECK(clFinish(q));
	CHECK(clGetEventInfo(lm, CL_EVENT_COMMAND_TYPE, sizeof ct, &ct, NULL));
	printf("legacy marker: type marker %d, complete %d\n", ct == CL_COMMAND_MARKER, status_of(lm) == CL_COMPLETE);
	cl_uint rc;
	CHECK(clRetainEvent(lm));
	CHECK(clGetEventInfo(lm, CL_EVENT_REFERENCE_COUNT, sizeof rc, &rc, NULL));
	printf("reference count %u\n", rc);
	CHECK(clReleaseEvent(lm));
	CHECK(clReleaseEvent(lm));
	EXPECT("wait list with a NULL list", clEnqueueMarkerWithWaitList(q, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
	// A user event set to an error fails the commands waiting for it, and
	// theirs.
	trace[0] = 0;
	cl_event bad = clCreateUserEvent(ctx, &err);
	CHECK(err);
	cl_event m1, m2;
	CHECK(clEnqueueMarkerWithWaitList(q, 1, &bad, &m1));
	CHECK(clSetEventCallback(m1, CL_COMPLETE, on_event, "m1"));
	CHECK(clEnqueueBarrierWithWaitList(q, 1, &m1, &m2));
	CHECK(clSetUserEventStatus(bad, -99));
	EXPECT("wait for a failed event", clWaitForEvents(1, &m2), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
	printf("failed: m1 %d, m2 %d, user %d\n", status_of(m1) < 0, status_of(m2) < 0, status_of(bad));

	EXPECT("wait for nothing", clWaitForEvents(0, NULL), CL_INVALID_VALUE);
	return 0;
}
