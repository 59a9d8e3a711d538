//go:build !cgo

package oclref

import (
	"fmt"

	"github.com/pocketgpu/pocketgpu/kernel"
)

var errNoCgo = fmt.Errorf("%w (this binary was built without cgo, which loading libOpenCL needs: build with CGO_ENABLED=1)", ErrUnavailable)

// Available reports whether kernels can run; without cgo they cannot.
func Available() error { return errNoCgo }

// Run needs cgo; without it, it returns an error wrapping ErrUnavailable.
func Run(src []byte, buildOpts string, entry string, global, local []int, args []kernel.Arg, initial [][]byte) (*Result, error) {
	if err := checkRun(entry, global, local, args, initial); err != nil {
		return nil, err
	}
	return nil, errNoCgo
}

// DeviceName is one platform's device as Devices lists it.
type DeviceName struct{ Platform, Device string }

// Devices needs cgo.
func Devices() ([]DeviceName, error) { return nil, errNoCgo }

// Device is an OpenCL device opened for many runs; without cgo none can be.
type Device struct{ Platform, Name string }

// Kernel is a built kernel of a Device.
type Kernel struct{ Name string }

// Buffer is a device buffer of a Device.
type Buffer struct{}

// KernelArg is one argument of Run.
type KernelArg struct {
	Buf   *Buffer
	Value []byte
	Local int
}

// OpenDevice needs cgo; without it, it returns an error wrapping
// ErrUnavailable.
func OpenDevice(platform, device string) (*Device, error) { return nil, errNoCgo }

func (d *Device) Info(param uint32) ([]byte, error) { return nil, errNoCgo }

func (d *Device) Build(src, opts string, names []string) (map[string]*Kernel, error) {
	return nil, errNoCgo
}

func (k *Kernel) WorkGroupSize() (int, error) { return 0, errNoCgo }

func (d *Device) NewBuffer(data []byte) (*Buffer, error) { return nil, errNoCgo }

func (d *Device) NewHostBuffer(data []byte) (*Buffer, error) { return nil, errNoCgo }

func (d *Device) NewImage1DBuffer(b *Buffer, texels int) (*Buffer, error) { return nil, errNoCgo }

func (d *Device) Read(b *Buffer, n int) ([]byte, error) { return nil, errNoCgo }

func (d *Device) Run(k *Kernel, args []KernelArg, global, local int) (uint64, error) {
	return 0, errNoCgo
}

func (d *Device) Close() {}
