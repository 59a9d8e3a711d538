package opencl

import (
	"github.com/pocketgpu/pocketgpu/device"
)

// IsImageArg and IsSamplerArg report whether argument i takes an image
// or a sampler (so the C side resolves the handle the value points to).
func (k *Kernel) IsImageArg(i int) bool {
	return i >= 0 && i < len(k.Params) && k.Params[i].Kind == device.ParamImage
}

func (k *Kernel) IsSamplerArg(i int) bool {
	return i >= 0 && i < len(k.Params) && k.Params[i].Kind == device.ParamSampler
}

// SetImageArg sets image argument i; size is the size the program gave,
// sizeof(cl_mem).
func (k *Kernel) SetImageArg(i, size int, img *Image) error {
	if !k.IsImageArg(i) {
		return errorf(InvalidArgIndex, "kernel %s: argument %d is not an image", k.Name, i)
	}
	if size != 8 {
		return errorf(InvalidArgSize, "argument %d is an image: its size is sizeof(cl_mem), 8, not %d", i, size)
	}
	if img == nil {
		return errorf(InvalidMemObject, "argument %d needs an image", i)
	}
	if img.Ctx != k.Program.Ctx {
		return errorf(InvalidMemObject, "argument %d: the image belongs to another context", i)
	}
	if t := k.Params[i].Image; t != nil && !img.fits(t) {
		return errorf(InvalidArgValue, "argument %d: the image's type %#x is not the kernel's", i, img.Desc.Type)
	}
	k.setArg(i, kernelArg{img: img})
	return nil
}

// fits reports whether the image is of the kernel parameter's type.
func (img *Image) fits(t *device.ImageParam) bool {
	dim, arrayed := img.Desc.dim()
	return dim == t.Dim && arrayed == t.Arrayed
}

// SetSamplerArg sets sampler argument i.
func (k *Kernel) SetSamplerArg(i, size int, s *Sampler) error {
	if !k.IsSamplerArg(i) {
		return errorf(InvalidArgIndex, "kernel %s: argument %d is not a sampler", k.Name, i)
	}
	if size != 8 {
		return errorf(InvalidArgSize, "argument %d is a sampler: its size is sizeof(cl_sampler), 8, not %d", i, size)
	}
	if s == nil {
		return errorf(InvalidSampler, "argument %d needs a sampler", i)
	}
	if s.Ctx != k.Program.Ctx {
		return errorf(InvalidSampler, "argument %d: the sampler belongs to another context", i)
	}
	k.setArg(i, kernelArg{smp: s})
	return nil
}

func (k *Kernel) setArg(i int, a kernelArg) {
	k.mu.Lock()
	k.args[i], k.argsSet[i] = a, true
	k.mu.Unlock()
}
