// pocketgpu's clock shim, preloaded (LD_PRELOAD) into an OpenCL program
// run with `pocketgpu exec --virtual-clock`. Programs that time the GPU
// with the host clock (gettimeofday, clock_gettime, std::chrono around an
// enqueue and clFinish) would measure the simulator; with the shim their
// clocks read the real time plus pocketgpu_clock_offset_ns, which the
// pocketgpu ICD keeps up to date: it takes the host time simulations took
// out, and adds the simulated time the program waited for the device.
// CPU-time clocks are left alone.
//
//	gcc -O2 -shared -fPIC -o libpocketgpu-clock.so clockshim.c -ldl
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <sys/time.h>
#include <time.h>

// The offset in nanoseconds; the ICD finds it with dlsym and stores to it.
volatile int64_t pocketgpu_clock_offset_ns;

typedef int (*clock_gettime_fn)(clockid_t, struct timespec *);

static clock_gettime_fn real_clock_gettime(void) {
	static clock_gettime_fn fn;
	if (fn == NULL) {
		fn = (clock_gettime_fn)dlsym(RTLD_NEXT, "clock_gettime");
	}
	return fn;
}

// shifted says whether a clock measures elapsed wall time (and so
// includes time spent waiting for the device).
static int shifted(clockid_t id) {
	switch (id) {
	case CLOCK_REALTIME:
	case CLOCK_REALTIME_COARSE:
	case CLOCK_MONOTONIC:
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_MONOTONIC_COARSE:
	case CLOCK_BOOTTIME:
	case CLOCK_TAI:
		return 1;
	default:
		return 0;
	}
}

static void add_ns(struct timespec *ts, int64_t ns) {
	int64_t t = (int64_t)ts->tv_nsec + ns % 1000000000;
	ts->tv_sec += (time_t)(ns / 1000000000);
	while (t < 0) {
		t += 1000000000;
		ts->tv_sec--;
	}
	while (t >= 1000000000) {
		t -= 1000000000;
		ts->tv_sec++;
	}
	ts->tv_nsec = (long)t;
}

int clock_gettime(clockid_t id, struct timespec *ts) {
	clock_gettime_fn fn = real_clock_gettime();
	if (fn == NULL) {
		return -1;
	}
	int r = fn(id, ts);
	// The headers declare ts non-null; a program may still pass NULL.
	__asm__("" : "+r"(ts));
	if (r == 0 && ts != NULL && shifted(id)) {
		add_ns(ts, __atomic_load_n(&pocketgpu_clock_offset_ns, __ATOMIC_ACQUIRE));
	}
	return r;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz) {
	struct timespec ts;
	__asm__("" : "+r"(tv));
	if (tz != NULL) {
		struct timezone *z = tz;
		z->tz_minuteswest = 0;
		z->tz_dsttime = 0;
	}
	if (tv == NULL) {
		return 0;
	}
	if (clock_gettime(CLOCK_REALTIME, &ts) != 0) {
		return -1;
	}
	tv->tv_sec = ts.tv_sec;
	tv->tv_usec = ts.tv_nsec / 1000;
	return 0;
}

time_t time(time_t *out) {
	struct timespec ts;
	if (clock_gettime(CLOCK_REALTIME, &ts) != 0) {
		return (time_t)-1;
	}
	if (out != NULL) {
		*out = ts.tv_sec;
	}
	return ts.tv_sec;
}
