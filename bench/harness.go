package bench

import (
	"fmt"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/device"
	"github.com/pocketgpu/pocketgpu/kernel"
)

// ctx is one test's run on one GPU: a device, the kernels loaded so far and
// the options.
type ctx struct {
	g       *arch.GPU
	o       Options
	dev     *device.Device
	kernels map[string]*device.Kernel
}

func newCtx(g *arch.GPU, o Options) *ctx {
	return &ctx{g: g, o: o, dev: device.Open(g), kernels: map[string]*device.Kernel{}}
}

func (c *ctx) close() {}

func (c *ctx) tick() {
	if c.o.Tick != nil {
		c.o.Tick()
	}
}

// kernel loads an entry point of a prebuilt module (kernels/<file>.spv).
func (c *ctx) kernel(file, entry string) (*device.Kernel, error) {
	key := file + "#" + entry
	if k, ok := c.kernels[key]; ok {
		return k, nil
	}
	spv, err := SPIRV(file)
	if err != nil {
		return nil, err
	}
	k, err := c.dev.Load(spv, entry, device.LoadOptions{})
	if err != nil {
		return nil, fmt.Errorf("kernel %s in %s: %w", entry, file, err)
	}
	c.kernels[key] = k
	return k, nil
}

// launch is a kernel bound to its arguments, ready to be timed (several
// times, with some value arguments changed between runs).
type launch struct {
	c      *ctx
	k      *device.Kernel
	specs  []kernel.Arg
	bound  *device.Bound
	nd     device.NDRange
	freed  bool
	warpW  int
	global int
}

// bind prepares k with argument specs (the `pocketgpu run --arg` language)
// over a 1-D NDRange. A work-group over the kernel's
// CL_KERNEL_WORK_GROUP_SIZE on this GPU (its registers leave too few warp
// slots) is halved until it fits, as an OpenCL host that asks the driver
// does: the grid stays the same.
func (c *ctx) bind(k *device.Kernel, global, local int, specs ...string) (*launch, error) {
	if most, _ := k.MaxWorkgroupSize(c.g, 0); most > 0 {
		for local > most && local%2 == 0 {
			local /= 2
		}
	}
	l := &launch{c: c, k: k, nd: device.NDRange{Dims: 1, Global: [3]int{global, 1, 1}, Local: [3]int{local, 1, 1}}, global: global}
	data := make([][]byte, len(specs))
	for i, s := range specs {
		a, err := kernel.ParseArg(s)
		if err != nil {
			return nil, err
		}
		if data[i], err = a.Materialize(""); err != nil {
			return nil, err
		}
		l.specs = append(l.specs, a)
	}
	b, err := c.dev.BindSpecs(k, l.specs, data)
	if err != nil {
		return nil, err
	}
	l.bound = b
	return l, nil
}

// set replaces value argument i (a spec such as "u32:64") before the next run.
func (l *launch) set(i int, spec string) error {
	a, err := kernel.ParseArg(spec)
	if err != nil {
		return err
	}
	if a.Kind != kernel.ScalarArg {
		return fmt.Errorf("set: %q is not a value", spec)
	}
	l.bound.Args[i] = device.ValueArg(a.Scalar)
	return nil
}

// time runs the launch under the timing model on the device's warm caches.
func (l *launch) time() (*device.TimedResult, error) {
	r, err := l.c.dev.Time(l.k, l.nd, l.bound.Args, device.Options{Context: l.c.o.Context, Trace: l.c.o.Trace, Detail: l.c.o.Detail})
	if err != nil {
		return nil, err
	}
	l.warpW = r.WarpWidth
	return r, nil
}

// cycles runs the launch and returns its cycles.
func (l *launch) cycles() (float64, error) {
	r, err := l.time()
	if err != nil {
		return 0, err
	}
	return r.Timing.Cycles, nil
}

// diff times the launch with value argument i set to n and then to 2n, and
// returns the extra cycles of the second run: the cost of n more units of
// work, without the launch, the ramp-up and the final store. A first run at
// n warms the caches (instruction cache included) and is not counted.
func (l *launch) diff(i int, typ string, n int) (float64, error) {
	if err := l.set(i, fmt.Sprintf("%s:%d", typ, n)); err != nil {
		return 0, err
	}
	if _, err := l.cycles(); err != nil {
		return 0, err
	}
	a, err := l.cycles()
	if err != nil {
		return 0, err
	}
	if err := l.set(i, fmt.Sprintf("%s:%d", typ, 2*n)); err != nil {
		return 0, err
	}
	b, err := l.cycles()
	if err != nil {
		return 0, err
	}
	if b <= a {
		return 0, fmt.Errorf("%s: %d units took %.0f cycles, %d took %.0f: the measurement does not grow with the work", l.k.Name, n, a, 2*n, b)
	}
	return b - a, nil
}

// free releases the launch's buffers and images.
func (l *launch) free() {
	if l.freed {
		return
	}
	l.freed = true
	for _, b := range l.bound.Buffers {
		l.c.dev.Free(b)
	}
}

// buffer is argument i's memory.
func (l *launch) buffer(i int) *device.Buffer { return l.bound.Buffers[i] }
