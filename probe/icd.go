package probe

import (
	"fmt"
	"strings"

	"github.com/pocketgpu/pocketgpu/internal/oclref"
)

// ICD is any OpenCL device behind the ICD loader (libOpenCL.so.1, opened
// with dlopen: PoCL on the CPU, a real GPU's driver), with the probe's
// kernels built from OpenCL C source by the device's own compiler.
type ICD struct {
	d       *oclref.Device
	kernels map[string]*oclref.Kernel
	info    Info
}

// OpenICD opens the first device whose platform name or vendor contains
// platform and whose name contains device (case-insensitive; empty matches
// any). Without cgo
// or an OpenCL library it returns an error that names the Debian packages.
func OpenICD(platform, device string) (*ICD, error) {
	d, err := oclref.OpenDevice(platform, device)
	if err != nil {
		return nil, err
	}
	c := &ICD{d: d}
	if c.info, err = infoFrom(d.Info); err != nil {
		d.Close()
		return nil, fmt.Errorf("%s: %w", d.Name, err)
	}
	c.info.Platform = d.Platform
	var names []string
	for _, n := range kernelNames() {
		if !strings.HasPrefix(n, "fp16") || c.info.FP16 {
			names = append(names, n)
		}
	}
	// -cl-std=CL1.2 as the simulated GPUs' SPIR-V is built; no fast-math,
	// so that floating-point chains stay chains.
	if c.kernels, err = d.Build(probeSource, "-cl-std=CL1.2", names); err != nil {
		d.Close()
		return nil, fmt.Errorf("building the probe's kernels on %s: %w", d.Name, err)
	}
	return c, nil
}

// kernelNames are every entry point of probe.cl.
func kernelNames() []string {
	names := []string{"chase", "chase_image", "diverge", "stream", "local_read"}
	for _, r := range regSweep {
		names = append(names, occupyName(r))
	}
	for _, rk := range rateKernels {
		names = append(names, rk.name)
	}
	return names
}

func (c *ICD) Info() Info { return c.info }

func (c *ICD) Kernel(name string) (Kernel, error) {
	k, ok := c.kernels[name]
	if !ok {
		return nil, fmt.Errorf("no kernel %s was built for %s", name, c.info.Name)
	}
	return k, nil
}

func (c *ICD) KernelWorkGroup(k Kernel) (int, error) { return k.(*oclref.Kernel).WorkGroupSize() }

func (c *ICD) Buffer(data []byte) (Buffer, error) { return c.d.NewHostBuffer(data) }

func (c *ICD) Read(b Buffer, n int) ([]byte, error) { return c.d.Read(b.(*oclref.Buffer), n) }

func (c *ICD) Image1D(b Buffer, texels int) (Buffer, error) {
	return c.d.NewImage1DBuffer(b.(*oclref.Buffer), texels)
}

func (c *ICD) Run(k Kernel, args []Arg, global, local int) (float64, error) {
	ka := make([]oclref.KernelArg, len(args))
	for i, a := range args {
		ka[i] = oclref.KernelArg{Value: a.Value, Local: a.Local}
		if a.Buf != nil {
			ka[i].Buf = a.Buf.(*oclref.Buffer)
		}
	}
	ns, err := c.d.Run(k.(*oclref.Kernel), ka, global, local)
	return float64(ns), err
}

func (c *ICD) Close() { c.d.Close() }
