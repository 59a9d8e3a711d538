//go:build cgo

package oclref

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <stddef.h>

// The few OpenCL 1.2 types and entry points used here, declared by hand (the
// types and layouts are the ones of the Khronos cl.h), so that the build needs
// no OpenCL headers. The library is opened with dlopen.
typedef int32_t cl_int;
typedef uint32_t cl_uint;
typedef uint64_t cl_ulong;
typedef uint64_t cl_bitfield;
typedef void *cl_platform_id, *cl_device_id, *cl_context, *cl_command_queue,
	*cl_mem, *cl_program, *cl_kernel, *cl_event;

typedef struct { cl_uint order; cl_uint type; } ocl_image_format;
typedef struct {
	cl_uint image_type;
	size_t width, height, depth, array_size, row_pitch, slice_pitch;
	cl_uint num_mip_levels, num_samples;
	cl_mem buffer;
} ocl_image_desc;

static struct {
	void *lib;
	cl_int (*GetPlatformIDs)(cl_uint, cl_platform_id *, cl_uint *);
	cl_int (*GetPlatformInfo)(cl_platform_id, cl_uint, size_t, void *, size_t *);
	cl_int (*GetDeviceIDs)(cl_platform_id, cl_bitfield, cl_uint, cl_device_id *, cl_uint *);
	cl_int (*GetDeviceInfo)(cl_device_id, cl_uint, size_t, void *, size_t *);
	cl_context (*CreateContext)(const intptr_t *, cl_uint, const cl_device_id *, void *, void *, cl_int *);
	cl_command_queue (*CreateCommandQueue)(cl_context, cl_device_id, cl_bitfield, cl_int *);
	cl_program (*CreateProgramWithSource)(cl_context, cl_uint, const char **, const size_t *, cl_int *);
	cl_int (*BuildProgram)(cl_program, cl_uint, const cl_device_id *, const char *, void *, void *);
	cl_int (*GetProgramBuildInfo)(cl_program, cl_device_id, cl_uint, size_t, void *, size_t *);
	cl_kernel (*CreateKernel)(cl_program, const char *, cl_int *);
	cl_int (*SetKernelArg)(cl_kernel, cl_uint, size_t, const void *);
	cl_mem (*CreateBuffer)(cl_context, cl_bitfield, size_t, void *, cl_int *);
	cl_mem (*CreateImage)(cl_context, cl_bitfield, const ocl_image_format *, const ocl_image_desc *, void *, cl_int *);
	cl_int (*EnqueueNDRangeKernel)(cl_command_queue, cl_kernel, cl_uint, const size_t *, const size_t *, const size_t *, cl_uint, const cl_event *, cl_event *);
	cl_int (*EnqueueReadBuffer)(cl_command_queue, cl_mem, cl_uint, size_t, size_t, void *, cl_uint, const cl_event *, cl_event *);
	cl_int (*EnqueueReadImage)(cl_command_queue, cl_mem, cl_uint, const size_t *, const size_t *, size_t, size_t, void *, cl_uint, const cl_event *, cl_event *);
	cl_int (*Finish)(cl_command_queue);
	cl_int (*WaitForEvents)(cl_uint, const cl_event *);
	cl_int (*GetEventProfilingInfo)(cl_event, cl_uint, size_t, void *, size_t *);
	cl_int (*ReleaseEvent)(cl_event);
	cl_int (*ReleaseMemObject)(cl_mem);
	cl_int (*ReleaseKernel)(cl_kernel);
	cl_int (*ReleaseProgram)(cl_program);
	cl_int (*GetKernelWorkGroupInfo)(cl_kernel, cl_device_id, cl_uint, size_t, void *, size_t *);
	cl_int (*ReleaseCommandQueue)(cl_command_queue);
	cl_int (*ReleaseContext)(cl_context);
} ocl;

#define OCL_SYM(name) \
	if (!(*(void **)&ocl.name = dlsym(ocl.lib, "cl" #name))) return "cl" #name;

// ocl_load opens the library and finds every entry point. It returns NULL, or
// what is missing.
static const char *ocl_load(void) {
	ocl.lib = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!ocl.lib) ocl.lib = dlopen("libOpenCL.so", RTLD_NOW | RTLD_LOCAL);
	if (!ocl.lib) return "libOpenCL.so.1";
	OCL_SYM(GetPlatformIDs) OCL_SYM(GetPlatformInfo) OCL_SYM(GetDeviceIDs) OCL_SYM(GetDeviceInfo)
	OCL_SYM(CreateContext) OCL_SYM(CreateCommandQueue) OCL_SYM(CreateProgramWithSource)
	OCL_SYM(BuildProgram) OCL_SYM(GetProgramBuildInfo) OCL_SYM(CreateKernel) OCL_SYM(SetKernelArg)
	OCL_SYM(CreateBuffer) OCL_SYM(CreateImage) OCL_SYM(EnqueueNDRangeKernel) OCL_SYM(EnqueueReadBuffer)
	OCL_SYM(EnqueueReadImage) OCL_SYM(Finish) OCL_SYM(WaitForEvents) OCL_SYM(GetEventProfilingInfo)
	OCL_SYM(ReleaseEvent) OCL_SYM(ReleaseMemObject) OCL_SYM(ReleaseKernel) OCL_SYM(ReleaseProgram)
	OCL_SYM(GetKernelWorkGroupInfo) OCL_SYM(ReleaseCommandQueue) OCL_SYM(ReleaseContext)
	return NULL;
}

static cl_int ocl_platforms(cl_uint n, cl_platform_id *p, cl_uint *got) { return ocl.GetPlatformIDs(n, p, got); }
static cl_int ocl_platform_info(cl_platform_id p, cl_uint what, size_t n, void *v, size_t *got) { return ocl.GetPlatformInfo(p, what, n, v, got); }
static cl_int ocl_devices(cl_platform_id p, cl_uint n, cl_device_id *d, cl_uint *got) { return ocl.GetDeviceIDs(p, 0xFFFFFFFF, n, d, got); }
static cl_int ocl_device_info(cl_device_id d, cl_uint what, size_t n, void *v, size_t *got) { return ocl.GetDeviceInfo(d, what, n, v, got); }
static cl_context ocl_context(cl_device_id d, cl_int *err) { return ocl.CreateContext(NULL, 1, &d, NULL, NULL, err); }
static cl_command_queue ocl_queue(cl_context c, cl_device_id d, cl_int *err) {
	return ocl.CreateCommandQueue(c, d, 1 << 1, err); // CL_QUEUE_PROFILING_ENABLE
}
static cl_program ocl_program(cl_context c, const char *src, size_t len, cl_int *err) {
	return ocl.CreateProgramWithSource(c, 1, &src, &len, err);
}
static cl_int ocl_build(cl_program p, cl_device_id d, const char *opts) { return ocl.BuildProgram(p, 1, &d, opts, NULL, NULL); }
static cl_int ocl_build_log(cl_program p, cl_device_id d, size_t n, void *v, size_t *got) {
	return ocl.GetProgramBuildInfo(p, d, 0x1183, n, v, got); // CL_PROGRAM_BUILD_LOG
}
static cl_kernel ocl_kernel(cl_program p, const char *name, cl_int *err) { return ocl.CreateKernel(p, name, err); }
static cl_int ocl_arg_bytes(cl_kernel k, cl_uint i, size_t n, const void *v) { return ocl.SetKernelArg(k, i, n, v); }
static cl_int ocl_arg_mem(cl_kernel k, cl_uint i, cl_mem m) { return ocl.SetKernelArg(k, i, sizeof m, &m); }
static cl_mem ocl_buffer(cl_context c, size_t n, void *data, cl_int *err) {
	return ocl.CreateBuffer(c, (1 << 0) | (1 << 5), n, data, err); // READ_WRITE | COPY_HOST_PTR
}
static cl_mem ocl_host_buffer(cl_context c, size_t n, void *host, cl_int *err) {
	return ocl.CreateBuffer(c, (1 << 0) | (1 << 3), n, host, err); // READ_WRITE | USE_HOST_PTR
}
static cl_mem ocl_image(cl_context c, cl_uint kind, cl_uint chan, size_t w, size_t h, cl_mem buf, void *data, cl_int *err) {
	ocl_image_format f = { 0x10B5, chan }; // CL_RGBA
	ocl_image_desc d = { 0 };
	d.image_type = kind;
	d.width = w;
	d.height = h;
	d.buffer = buf;
	cl_bitfield flags = 1 << 0; // CL_MEM_READ_WRITE
	if (data) flags |= 1 << 5;  // CL_MEM_COPY_HOST_PTR
	return ocl.CreateImage(c, flags, &f, &d, data, err);
}
static cl_int ocl_run(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *global, const size_t *local, cl_ulong *ns) {
	cl_event ev = NULL;
	cl_int err = ocl.EnqueueNDRangeKernel(q, k, dims, NULL, global, local, 0, NULL, &ev);
	if (err) return err;
	err = ocl.WaitForEvents(1, &ev);
	if (!err) err = ocl.Finish(q);
	*ns = 0;
	if (!err) {
		cl_ulong start = 0, end = 0;
		if (!ocl.GetEventProfilingInfo(ev, 0x1282, sizeof start, &start, NULL) &&
		    !ocl.GetEventProfilingInfo(ev, 0x1283, sizeof end, &end, NULL) && end >= start)
			*ns = end - start;
	}
	ocl.ReleaseEvent(ev);
	return err;
}
static cl_int ocl_read_buffer(cl_command_queue q, cl_mem m, size_t n, void *out) {
	return ocl.EnqueueReadBuffer(q, m, 1, 0, n, out, 0, NULL, NULL);
}
static cl_int ocl_read_image(cl_command_queue q, cl_mem m, size_t w, size_t h, void *out) {
	size_t origin[3] = { 0, 0, 0 }, region[3] = { w, h, 1 };
	return ocl.EnqueueReadImage(q, m, 1, origin, region, 0, 0, out, 0, NULL, NULL);
}
static void ocl_release_mem(cl_mem m) { if (m) ocl.ReleaseMemObject(m); }
static void ocl_release_kernel(cl_kernel k) { if (k) ocl.ReleaseKernel(k); }
static void ocl_release_program(cl_program p) { if (p) ocl.ReleaseProgram(p); }
static cl_int ocl_kernel_wg(cl_kernel k, cl_device_id d, size_t *n) {
	return ocl.GetKernelWorkGroupInfo(k, d, 0x11B0, sizeof *n, n, NULL); // CL_KERNEL_WORK_GROUP_SIZE
}
static void ocl_release_queue(cl_command_queue q) { if (q) ocl.ReleaseCommandQueue(q); }
static void ocl_release_context(cl_context c) { if (c) ocl.ReleaseContext(c); }
*/
import "C"

import (
	"fmt"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/pocketgpu/pocketgpu/kernel"
)

// The library is loaded once; the runtime is set up once and shared; mu
// serialises runs (PoCL already spreads one kernel over every core).
var (
	loadOnce  sync.Once
	loadErr   error
	setupOnce sync.Once
	setupErr  error
	mu        sync.Mutex
	rt        struct {
		device  C.cl_device_id
		context C.cl_context
		queue   C.cl_command_queue
		name    string
	}
)

// Available reports whether kernels can run: nil, or an error wrapping
// ErrUnavailable that says what is missing.
func Available() error {
	setupOnce.Do(func() { setupErr = setup() })
	return setupErr
}

const (
	clPlatformName   = 0x0902
	clPlatformVendor = 0x0903
	clDeviceName     = 0x102B
)

// load opens the OpenCL library once.
func load() error {
	loadOnce.Do(func() {
		if missing := C.ocl_load(); missing != nil {
			loadErr = fmt.Errorf("%w (cannot load %s)", ErrUnavailable, C.GoString(missing))
		}
	})
	return loadErr
}

func setup() error {
	if err := load(); err != nil {
		return err
	}
	platforms, err := platformIDs()
	if err != nil {
		return err
	}
	// Prefer PoCL, the reference the tests are written against.
	chosen, chosenName := -1, ""
	for i, p := range platforms {
		name := platformString(p, clPlatformName)
		if chosen < 0 || isPoCL(name) && !isPoCL(chosenName) {
			var nd C.cl_uint
			if C.ocl_devices(p, 0, nil, &nd) == 0 && nd > 0 {
				chosen, chosenName = i, name
			}
		}
	}
	if chosen < 0 {
		return fmt.Errorf("%w (no OpenCL platform has a device)", ErrUnavailable)
	}
	var dev C.cl_device_id
	if err := C.ocl_devices(platforms[chosen], 1, &dev, nil); err != 0 {
		return fmt.Errorf("%w (%v)", ErrUnavailable, clError("clGetDeviceIDs", int(err)))
	}
	var cerr C.cl_int
	ctx := C.ocl_context(dev, &cerr)
	if cerr != 0 {
		return fmt.Errorf("%w (%v)", ErrUnavailable, clError("clCreateContext", int(cerr)))
	}
	q := C.ocl_queue(ctx, dev, &cerr)
	if cerr != 0 {
		return fmt.Errorf("%w (%v)", ErrUnavailable, clError("clCreateCommandQueue", int(cerr)))
	}
	rt.device, rt.context, rt.queue = dev, ctx, q
	rt.name = chosenName + " / " + deviceString(dev, clDeviceName)
	return nil
}

func isPoCL(name string) bool {
	return strings.Contains(name, "Portable Computing Language") || strings.Contains(strings.ToLower(name), "pocl")
}

func platformString(p C.cl_platform_id, what C.cl_uint) string {
	var buf [256]byte
	var n C.size_t
	if C.ocl_platform_info(p, what, C.size_t(len(buf)), unsafe.Pointer(&buf[0]), &n) != 0 {
		return ""
	}
	return cString(buf[:min(int(n), len(buf))])
}

func deviceString(d C.cl_device_id, what C.cl_uint) string {
	var buf [256]byte
	var n C.size_t
	if C.ocl_device_info(d, what, C.size_t(len(buf)), unsafe.Pointer(&buf[0]), &n) != 0 {
		return ""
	}
	return cString(buf[:min(int(n), len(buf))])
}

func cString(b []byte) string {
	if i := strings.IndexByte(string(b), 0); i >= 0 {
		b = b[:i]
	}
	return strings.TrimSpace(string(b))
}

// Image channel data types (cl.h), by channel type.
var channelTypes = map[kernel.Base]C.cl_uint{
	kernel.I8: 0x10D7, kernel.I16: 0x10D8, kernel.I32: 0x10D9,
	kernel.U8: 0x10DA, kernel.U16: 0x10DB, kernel.U32: 0x10DC,
	kernel.F16: 0x10DD, kernel.F32: 0x10DE,
}

const (
	clMemObjectImage2D       = 0x10F1
	clMemObjectImage1DBuffer = 0x10F6
)

// Run builds src with buildOpts, runs its kernel entry over the global size
// (and the local size, or the runtime's choice when local is nil) with args
// holding initial (one entry per argument: the bytes from Materialize; nil
// for local memory, and for a scalar nil means args[i].Scalar), and returns
// the final contents.
func Run(src []byte, buildOpts string, entry string, global, local []int, args []kernel.Arg, initial [][]byte) (*Result, error) {
	if err := Available(); err != nil {
		return nil, err
	}
	if err := checkRun(entry, global, local, args, initial); err != nil {
		return nil, err
	}
	mu.Lock()
	defer mu.Unlock()

	var cerr C.cl_int
	csrc := C.CString(string(src))
	defer C.free(unsafe.Pointer(csrc))
	prog := C.ocl_program(rt.context, csrc, C.size_t(len(src)), &cerr)
	if cerr != 0 {
		return nil, clError("clCreateProgramWithSource", int(cerr))
	}
	defer C.ocl_release_program(prog)
	copts := C.CString(buildOpts)
	defer C.free(unsafe.Pointer(copts))
	if err := C.ocl_build(prog, rt.device, copts); err != 0 {
		if err == -11 { // CL_BUILD_PROGRAM_FAILURE
			return nil, &BuildError{Log: buildLog(prog)}
		}
		return nil, clError("clBuildProgram", int(err))
	}
	cname := C.CString(entry)
	defer C.free(unsafe.Pointer(cname))
	k := C.ocl_kernel(prog, cname, &cerr)
	if cerr != 0 {
		if cerr == -46 { // CL_INVALID_KERNEL_NAME
			return nil, fmt.Errorf("kernel %q not found in the program", entry)
		}
		return nil, clError("clCreateKernel", int(cerr))
	}
	defer C.ocl_release_kernel(k)

	// mems[i] is what argument i reads back from; owned collects every
	// memory object to release.
	mems := make([]C.cl_mem, len(args))
	var owned []C.cl_mem
	defer func() {
		for _, m := range owned {
			C.ocl_release_mem(m)
		}
	}()
	for i := range args {
		a := &args[i]
		ci := C.cl_uint(i)
		where := fmt.Sprintf("argument %d (%s)", i, a.Spec)
		switch a.Kind {
		case kernel.ScalarArg:
			v := initial[i]
			if v == nil {
				v = a.Scalar
			}
			if err := C.ocl_arg_bytes(k, ci, C.size_t(len(v)), unsafe.Pointer(&v[0])); err != 0 {
				return nil, fmt.Errorf("%s: %w", where, clError("clSetKernelArg", int(err)))
			}
			continue
		case kernel.LocalArg:
			if err := C.ocl_arg_bytes(k, ci, C.size_t(a.LocalBytes), nil); err != 0 {
				return nil, fmt.Errorf("%s: %w", where, clError("clSetKernelArg", int(err)))
			}
			continue
		case kernel.BufferArg:
			m := C.ocl_buffer(rt.context, C.size_t(len(initial[i])), unsafe.Pointer(&initial[i][0]), &cerr)
			if cerr != 0 {
				return nil, fmt.Errorf("%s: %w", where, clError("clCreateBuffer", int(cerr)))
			}
			owned = append(owned, m)
			mems[i] = m
		case kernel.Image1DBufferArg, kernel.Image2DArg:
			chans, ok := channelTypes[a.Elem.Base]
			if !ok {
				return nil, fmt.Errorf("%s: no OpenCL channel type for %v", where, a.Elem.Base)
			}
			var m C.cl_mem
			if a.Kind == kernel.Image1DBufferArg {
				buf := C.ocl_buffer(rt.context, C.size_t(len(initial[i])), unsafe.Pointer(&initial[i][0]), &cerr)
				if cerr != 0 {
					return nil, fmt.Errorf("%s: %w", where, clError("clCreateBuffer", int(cerr)))
				}
				owned = append(owned, buf)
				m = C.ocl_image(rt.context, clMemObjectImage1DBuffer, chans, C.size_t(a.ImageW), 0, buf, nil, &cerr)
			} else {
				m = C.ocl_image(rt.context, clMemObjectImage2D, chans, C.size_t(a.ImageW), C.size_t(a.ImageH), nil, unsafe.Pointer(&initial[i][0]), &cerr)
			}
			if cerr != 0 {
				return nil, fmt.Errorf("%s: %w", where, clError("clCreateImage", int(cerr)))
			}
			owned = append(owned, m)
			mems[i] = m
		}
		if err := C.ocl_arg_mem(k, ci, mems[i]); err != 0 {
			return nil, fmt.Errorf("%s: %w", where, clError("clSetKernelArg", int(err)))
		}
	}

	var gsz, lsz [3]C.size_t
	for d := range global {
		gsz[d] = C.size_t(global[d])
		if local != nil {
			lsz[d] = C.size_t(local[d])
		}
	}
	var lp *C.size_t
	if local != nil {
		lp = &lsz[0]
	}
	var ns C.cl_ulong
	start := time.Now()
	if err := C.ocl_run(rt.queue, k, C.cl_uint(len(global)), &gsz[0], lp, &ns); err != 0 {
		return nil, fmt.Errorf("running kernel %s over %v (local %v): %w", entry, global, local, clError("clEnqueueNDRangeKernel", int(err)))
	}
	res := &Result{Args: make([][]byte, len(args)), Seconds: float64(ns) * 1e-9, Device: rt.name}
	if ns == 0 {
		res.Seconds = time.Since(start).Seconds()
	}

	for i := range args {
		a := &args[i]
		if mems[i] == nil {
			continue
		}
		out := make([]byte, a.ByteSize())
		var err C.cl_int
		if a.Kind == kernel.Image2DArg {
			err = C.ocl_read_image(rt.queue, mems[i], C.size_t(a.ImageW), C.size_t(a.ImageH), unsafe.Pointer(&out[0]))
		} else if a.Kind == kernel.Image1DBufferArg {
			err = C.ocl_read_image(rt.queue, mems[i], C.size_t(a.ImageW), 1, unsafe.Pointer(&out[0]))
		} else {
			err = C.ocl_read_buffer(rt.queue, mems[i], C.size_t(len(out)), unsafe.Pointer(&out[0]))
		}
		if err != 0 {
			return nil, fmt.Errorf("argument %d (%s): reading back: %w", i, a.Spec, clError("clEnqueueRead", int(err)))
		}
		res.Args[i] = out
	}
	return res, nil
}

func buildLog(prog C.cl_program) string {
	var n C.size_t
	if C.ocl_build_log(prog, rt.device, 0, nil, &n) != 0 || n == 0 {
		return "(no build log)"
	}
	buf := make([]byte, n)
	if C.ocl_build_log(prog, rt.device, n, unsafe.Pointer(&buf[0]), nil) != 0 {
		return "(no build log)"
	}
	return cString(buf)
}

// DeviceName is one platform's device as Devices lists it.
type DeviceName struct{ Platform, Device string }

// Devices lists every device of every platform the ICD loader knows.
func Devices() ([]DeviceName, error) {
	if err := load(); err != nil {
		return nil, err
	}
	var out []DeviceName
	err := eachDevice(func(p C.cl_platform_id, d C.cl_device_id, pname, dname string) bool {
		out = append(out, DeviceName{pname, dname})
		return false
	})
	return out, err
}

// platformIDs lists the installed OpenCL platforms.
func platformIDs() ([]C.cl_platform_id, error) {
	var n C.cl_uint
	if err := C.ocl_platforms(0, nil, &n); err != 0 || n == 0 {
		return nil, fmt.Errorf("%w (no OpenCL platform is installed)", ErrUnavailable)
	}
	platforms := make([]C.cl_platform_id, n)
	if err := C.ocl_platforms(n, &platforms[0], nil); err != 0 {
		return nil, fmt.Errorf("%w (%v)", ErrUnavailable, clError("clGetPlatformIDs", int(err)))
	}
	return platforms, nil
}

// eachDevice calls fn for each device until it returns true.
func eachDevice(fn func(C.cl_platform_id, C.cl_device_id, string, string) bool) error {
	platforms, err := platformIDs()
	if err != nil {
		return err
	}
	for _, p := range platforms {
		var nd C.cl_uint
		if C.ocl_devices(p, 0, nil, &nd) != 0 || nd == 0 {
			continue
		}
		devs := make([]C.cl_device_id, nd)
		if C.ocl_devices(p, nd, &devs[0], nil) != 0 {
			continue
		}
		pname := platformString(p, clPlatformName)
		for _, d := range devs {
			if fn(p, d, pname, deviceString(d, clDeviceName)) {
				return nil
			}
		}
	}
	return nil
}

// Device is one OpenCL device opened for many runs: a context and a
// profiling queue of its own, programs built once, buffers kept between
// runs (what `pocketgpu probe --opencl` drives).
type Device struct {
	Platform, Name string
	dev            C.cl_device_id
	ctx            C.cl_context
	q              C.cl_command_queue
	owned          []C.cl_mem
	frees          []func()
	progs          []C.cl_program
	kernels        []C.cl_kernel
}

// OpenDevice opens the first device whose platform and device names
// contain platform and device (case-insensitive; empty matches any).
func OpenDevice(platform, device string) (*Device, error) {
	if err := load(); err != nil {
		return nil, err
	}
	var found *Device
	var seen []string
	err := eachDevice(func(p C.cl_platform_id, d C.cl_device_id, pname, dname string) bool {
		seen = append(seen, fmt.Sprintf("%q on %q", dname, pname))
		// The platform matches by name or vendor: PoCL is "Portable
		// Computing Language" by "The pocl project".
		plat := strings.ToLower(pname + " " + platformString(p, clPlatformVendor))
		if strings.Contains(plat, strings.ToLower(platform)) && strings.Contains(strings.ToLower(dname), strings.ToLower(device)) {
			found = &Device{Platform: pname, Name: dname, dev: d}
			return true
		}
		return false
	})
	if err != nil {
		return nil, err
	}
	if found == nil {
		return nil, fmt.Errorf("%w platform %q and device %q; the ICD loader has %s", ErrNoMatch, platform, device, strings.Join(seen, ", "))
	}
	var cerr C.cl_int
	found.ctx = C.ocl_context(found.dev, &cerr)
	if cerr != 0 {
		return nil, clError("clCreateContext", int(cerr))
	}
	found.q = C.ocl_queue(found.ctx, found.dev, &cerr)
	if cerr != 0 {
		C.ocl_release_context(found.ctx)
		return nil, clError("clCreateCommandQueue", int(cerr))
	}
	return found, nil
}

// Info is clGetDeviceInfo's answer for param.
func (d *Device) Info(param uint32) ([]byte, error) {
	var n C.size_t
	if err := C.ocl_device_info(d.dev, C.cl_uint(param), 0, nil, &n); err != 0 {
		return nil, clError("clGetDeviceInfo", int(err))
	}
	if n == 0 {
		return nil, nil
	}
	buf := make([]byte, n)
	if err := C.ocl_device_info(d.dev, C.cl_uint(param), n, unsafe.Pointer(&buf[0]), nil); err != 0 {
		return nil, clError("clGetDeviceInfo", int(err))
	}
	return buf, nil
}

// Kernel is a built kernel of a Device.
type Kernel struct {
	Name string
	k    C.cl_kernel
	d    *Device
}

// Build builds OpenCL C source and returns its kernels by name.
func (d *Device) Build(src, opts string, names []string) (map[string]*Kernel, error) {
	mu.Lock()
	defer mu.Unlock()
	var cerr C.cl_int
	csrc := C.CString(src)
	defer C.free(unsafe.Pointer(csrc))
	prog := C.ocl_program(d.ctx, csrc, C.size_t(len(src)), &cerr)
	if cerr != 0 {
		return nil, clError("clCreateProgramWithSource", int(cerr))
	}
	d.progs = append(d.progs, prog)
	copts := C.CString(opts)
	defer C.free(unsafe.Pointer(copts))
	if err := C.ocl_build(prog, d.dev, copts); err != 0 {
		if err == -11 {
			var n C.size_t
			log := "(no build log)"
			if C.ocl_build_log(prog, d.dev, 0, nil, &n) == 0 && n > 0 {
				buf := make([]byte, n)
				if C.ocl_build_log(prog, d.dev, n, unsafe.Pointer(&buf[0]), nil) == 0 {
					log = cString(buf)
				}
			}
			return nil, &BuildError{Log: log}
		}
		return nil, clError("clBuildProgram", int(err))
	}
	out := map[string]*Kernel{}
	for _, name := range names {
		cname := C.CString(name)
		k := C.ocl_kernel(prog, cname, &cerr)
		C.free(unsafe.Pointer(cname))
		if cerr != 0 {
			return nil, fmt.Errorf("kernel %s: %w", name, clError("clCreateKernel", int(cerr)))
		}
		d.kernels = append(d.kernels, k)
		out[name] = &Kernel{Name: name, k: k, d: d}
	}
	return out, nil
}

// WorkGroupSize is CL_KERNEL_WORK_GROUP_SIZE on the kernel's device.
func (k *Kernel) WorkGroupSize() (int, error) {
	var n C.size_t
	if err := C.ocl_kernel_wg(k.k, k.d.dev, &n); err != 0 {
		return 0, clError("clGetKernelWorkGroupInfo", int(err))
	}
	return int(n), nil
}

// Buffer is a device buffer of a Device.
type Buffer struct{ m C.cl_mem }

// NewBuffer makes a read-write buffer holding data.
func (d *Device) NewBuffer(data []byte) (*Buffer, error) {
	if len(data) == 0 {
		return nil, fmt.Errorf("an empty buffer")
	}
	var cerr C.cl_int
	m := C.ocl_buffer(d.ctx, C.size_t(len(data)), unsafe.Pointer(&data[0]), &cerr)
	if cerr != 0 {
		return nil, clError("clCreateBuffer", int(cerr))
	}
	d.owned = append(d.owned, m)
	return &Buffer{m}, nil
}

// NewHostBuffer makes a read-write buffer on host memory of its own
// (CL_MEM_USE_HOST_PTR) holding data, aligned to and advised into huge
// pages where the system has them: a CPU device (PoCL) then works on
// physically contiguous memory.
func (d *Device) NewHostBuffer(data []byte) (*Buffer, error) {
	if len(data) == 0 {
		return nil, fmt.Errorf("an empty buffer")
	}
	mem, free, err := hostMemory(len(data))
	if err != nil {
		return nil, fmt.Errorf("host memory for a %d-byte buffer: %w", len(data), err)
	}
	copy(mem, data)
	var cerr C.cl_int
	m := C.ocl_host_buffer(d.ctx, C.size_t(len(data)), unsafe.Pointer(&mem[0]), &cerr)
	if cerr != 0 {
		free()
		return nil, clError("clCreateBuffer", int(cerr))
	}
	d.owned = append(d.owned, m)
	d.frees = append(d.frees, free)
	return &Buffer{m}, nil
}

// NewImage1DBuffer views b as an image1d_buffer of texels RGBA texels of
// 32-bit unsigned channels (read with read_imageui); the image is passed
// to Run as a Buf.
func (d *Device) NewImage1DBuffer(b *Buffer, texels int) (*Buffer, error) {
	if b == nil || texels <= 0 {
		return nil, fmt.Errorf("an image of %d texels over no buffer", texels)
	}
	var cerr C.cl_int
	m := C.ocl_image(d.ctx, clMemObjectImage1DBuffer, channelTypes[kernel.U32], C.size_t(texels), 0, b.m, nil, &cerr)
	if cerr != 0 {
		return nil, clError("clCreateImage", int(cerr))
	}
	d.owned = append(d.owned, m)
	return &Buffer{m}, nil
}

// Read returns the first n bytes of b, after the runs queued before it.
func (d *Device) Read(b *Buffer, n int) ([]byte, error) {
	mu.Lock()
	defer mu.Unlock()
	out := make([]byte, n)
	if n == 0 {
		return out, nil
	}
	if err := C.ocl_read_buffer(d.q, b.m, C.size_t(n), unsafe.Pointer(&out[0])); err != 0 {
		return nil, clError("clEnqueueReadBuffer", int(err))
	}
	return out, nil
}

// KernelArg is one argument of Run: a buffer, value bytes, or Local bytes
// of __local memory.
type KernelArg struct {
	Buf   *Buffer
	Value []byte
	Local int
}

// Run sets k's arguments, runs it over a 1-D NDRange (local 0: the
// runtime's choice) and returns its time from the profiling events, in ns.
func (d *Device) Run(k *Kernel, args []KernelArg, global, local int) (uint64, error) {
	mu.Lock()
	defer mu.Unlock()
	for i, a := range args {
		var err C.cl_int
		switch {
		case a.Buf != nil:
			err = C.ocl_arg_mem(k.k, C.cl_uint(i), a.Buf.m)
		case a.Local > 0:
			err = C.ocl_arg_bytes(k.k, C.cl_uint(i), C.size_t(a.Local), nil)
		case len(a.Value) > 0:
			err = C.ocl_arg_bytes(k.k, C.cl_uint(i), C.size_t(len(a.Value)), unsafe.Pointer(&a.Value[0]))
		default:
			return 0, fmt.Errorf("kernel %s argument %d: no value", k.Name, i)
		}
		if err != 0 {
			return 0, fmt.Errorf("kernel %s argument %d: %w", k.Name, i, clError("clSetKernelArg", int(err)))
		}
	}
	gsz := [3]C.size_t{C.size_t(global)}
	lsz := [3]C.size_t{C.size_t(local)}
	var lp *C.size_t
	if local > 0 {
		lp = &lsz[0]
	}
	var ns C.cl_ulong
	if err := C.ocl_run(d.q, k.k, 1, &gsz[0], lp, &ns); err != 0 {
		return 0, fmt.Errorf("running kernel %s over %d (local %d): %w", k.Name, global, local, clError("clEnqueueNDRangeKernel", int(err)))
	}
	if ns == 0 {
		return 0, fmt.Errorf("kernel %s: the device gave no profiling times", k.Name)
	}
	return uint64(ns), nil
}

// Close releases everything the Device made.
func (d *Device) Close() {
	for _, m := range d.owned {
		C.ocl_release_mem(m)
	}
	for _, k := range d.kernels {
		C.ocl_release_kernel(k)
	}
	for _, p := range d.progs {
		C.ocl_release_program(p)
	}
	C.ocl_release_queue(d.q)
	C.ocl_release_context(d.ctx)
	for _, free := range d.frees {
		free()
	}
	*d = Device{}
}
