package probe

import (
	_ "embed"
	"fmt"

	"github.com/pocketgpu/pocketgpu/opencl"
)

// The simulated GPUs run the prebuilt SPIR-V, so that probing one needs no
// compiler; the ICD backend builds kernels/probe.cl from source.
//
//go:generate go run ../cmd/pocketgpu compile --light kernels/probe.cl -o kernels/probe.spv

//go:embed kernels/probe.spv
var probeSPIRV []byte

//go:embed kernels/probe.cl
var probeSource string

// Sim is a simulated GPU through pocketgpu's OpenCL platform, in process:
// the same platform `pocketgpu exec` gives programs, so the probe measures
// what an OpenCL program would.
type Sim struct {
	dev  *opencl.Device
	ctx  *opencl.Context
	q    *opencl.Queue
	prog *opencl.Program
	info Info
}

// OpenSim opens a simulated GPU (a preset, GPU number or YAML file, as
// --gpu takes it).
func OpenSim(gpu string) (*Sim, error) {
	p, err := opencl.NewPlatform([]string{gpu})
	if err != nil {
		return nil, err
	}
	s := &Sim{dev: p.Devices[0]}
	if s.ctx, err = p.NewContext(p.Devices); err != nil {
		return nil, err
	}
	if s.q, err = s.ctx.NewQueue(s.dev, opencl.QueueProfiling); err != nil {
		return nil, err
	}
	if s.prog, err = s.ctx.NewProgramIL(probeSPIRV); err != nil {
		return nil, fmt.Errorf("loading the probe's kernels: %w", err)
	}
	if err := s.prog.Build(p.Devices, ""); err != nil {
		return nil, fmt.Errorf("building the probe's kernels: %w", err)
	}
	s.info, err = infoFrom(func(param uint32) ([]byte, error) { return s.dev.DeviceInfo(param, 0) })
	if err != nil {
		return nil, err
	}
	s.info.Platform = opencl.PlatformName
	return s, nil
}

func (s *Sim) Info() Info { return s.info }

func (s *Sim) Kernel(name string) (Kernel, error) { return s.prog.NewKernel(name) }

func (s *Sim) KernelWorkGroup(k Kernel) (int, error) {
	wi, err := k.(*opencl.Kernel).WorkGroup(s.dev)
	if err != nil {
		return 0, err
	}
	return wi.Size, nil
}

func (s *Sim) Buffer(data []byte) (Buffer, error) {
	return s.ctx.NewBuffer(opencl.MemReadWrite|opencl.MemCopyHostPtr, len(data), data)
}

func (s *Sim) Read(b Buffer, n int) ([]byte, error) {
	out := make([]byte, n)
	ev, err := s.q.Read(b.(*opencl.Buffer), 0, out)
	if err != nil {
		return nil, err
	}
	if st := ev.Wait(); st != opencl.StatusComplete {
		return nil, ev.Err()
	}
	return out, nil
}

func (s *Sim) Image1D(b Buffer, texels int) (Buffer, error) {
	return s.ctx.NewImage(opencl.MemReadOnly, opencl.ImageFormat{Order: opencl.ChanRGBA, Type: opencl.UnsignedI32},
		opencl.ImageDesc{Type: opencl.MemObjectImage1DBuffer, Width: texels, Buffer: b.(*opencl.Buffer)}, nil)
}

func (s *Sim) Run(k Kernel, args []Arg, global, local int) (float64, error) {
	kk := k.(*opencl.Kernel)
	for i, a := range args {
		var err error
		switch {
		case a.Buf != nil:
			if img, ok := a.Buf.(*opencl.Image); ok {
				err = kk.SetImageArg(i, 8, img)
				break
			}
			err = kk.SetArg(i, 8, nil, a.Buf.(*opencl.Buffer))
		case a.Local > 0:
			err = kk.SetArg(i, a.Local, nil, nil)
		default:
			err = kk.SetArg(i, len(a.Value), a.Value, nil)
		}
		if err != nil {
			return 0, fmt.Errorf("kernel %s argument %d: %w", kk.Name, i, err)
		}
	}
	var loc []int
	if local > 0 {
		loc = []int{local}
	}
	ev, err := s.q.NDRange(kk, 1, []int{global}, loc, nil)
	if err != nil {
		return 0, fmt.Errorf("kernel %s over %d (local %d): %w", kk.Name, global, local, err)
	}
	if st := ev.Wait(); st != opencl.StatusComplete {
		return 0, fmt.Errorf("kernel %s over %d (local %d): %w", kk.Name, global, local, ev.Err())
	}
	return float64(ev.End - ev.Start), nil
}

func (s *Sim) Close() {}
