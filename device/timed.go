package device

import (
	"errors"
	"time"

	"github.com/pocketgpu/pocketgpu/emu"
	"github.com/pocketgpu/pocketgpu/isa"
	"github.com/pocketgpu/pocketgpu/isa/families"
	"github.com/pocketgpu/pocketgpu/timing"
	"github.com/pocketgpu/pocketgpu/timing/mem"
)

// Memory is the device's memory-hierarchy model. Its caches stay warm from
// one dispatch to the next, as on hardware; ResetCaches empties them.
func (d *Device) Memory() *mem.Hierarchy {
	if d.hier == nil {
		d.hier = mem.New(d.GPU)
	}
	return d.hier
}

// ResetCaches empties every cache and zeroes the memory counters.
func (d *Device) ResetCaches() { d.Memory().Reset() }

// TimedResult is a dispatch run under the timing model.
type TimedResult struct {
	Result
	Timing *timing.Result
	ISA    *isa.Program
}

// Time runs a kernel under the timing model: the same results as Dispatch,
// plus cycles and counters. Memory counters cover this dispatch only.
func (d *Device) Time(k *Kernel, nd NDRange, args []Arg, opt Options) (*TimedResult, error) {
	plan, err := d.Prepare(k, nd, args, opt)
	if err != nil {
		return nil, err
	}
	defer plan.Close()
	ip, err := families.Lower(k.IR, d.GPU, plan.Dispatch.Width)
	if err != nil {
		return nil, err
	}
	h := d.Memory()
	h.ResetCounters()
	start := time.Now()
	eng, err := timing.New(timing.Config{GPU: d.GPU, Dispatch: plan.Dispatch, Program: ip, Occupancy: plan.Occupancy, Memory: h})
	if err != nil {
		return nil, err
	}
	tr, err := eng.Run()
	res := plan.result()
	res.Seconds = time.Since(start).Seconds()
	if errors.Is(err, emu.ErrStopped) && tr != nil {
		res.Partial = true
		return &TimedResult{Result: *res, Timing: tr, ISA: ip}, err
	}
	if err != nil {
		return nil, err
	}
	return &TimedResult{Result: *res, Timing: tr, ISA: ip}, nil
}

// CopyCycles is the time, in GPU cycles, of copying bytes between host
// memory and a device buffer (map/unmap, enqueue read/write).
func (d *Device) CopyCycles(bytes int64, toGPU bool) float64 {
	return d.Memory().CopyTime(bytes, toGPU)
}
