package opencl

import (
	"bytes"
	"strings"

	"github.com/pocketgpu/pocketgpu/kernel"
)

// Compile is clCompileProgram: the program's source, with headers
// (#include names and their text), becomes a compiled object per device.
func (p *Program) Compile(devs []*Device, options string, headers []kernel.Header) error {
	devs, err := p.devices(devs)
	if err != nil {
		return err
	}
	if p.Source == "" {
		return errorf(InvalidOperation, "only a program made from source can be compiled")
	}
	if p.kernels.Load() > 0 {
		return errorf(InvalidOperation, "the program has kernels; release them before compiling it again")
	}
	opt, err := parseOptions(options, compileOptions)
	if err != nil {
		p.setLog(devs, options, err.Error())
		return err
	}
	opt.Headers = headers
	p.mu.Lock()
	defer p.mu.Unlock()
	failed := false
	for _, d := range devs {
		var log bytes.Buffer
		o := deviceOptions(opt, d, &log)
		b := &build{Options: options, Status: BuildSuccess, Type: BinaryObject, Meta: o.Meta}
		b.Object, err = kernel.CompileObject([]byte(p.Source), "program.cl", o)
		if err != nil {
			log.WriteString(err.Error())
			b.Status, b.Type, b.Object, failed = BuildError, BinaryNone, nil, true
		}
		b.Log = log.String()
		p.builds[d] = b
	}
	if failed {
		return errorf(CompileProgramFailure, "the program failed to compile; see its build log")
	}
	return nil
}

// Link is clLinkProgram: compiled objects and libraries become a new
// program, a library with -create-library or else an executable. A link
// that fails still returns the program, whose build log says why.
func (c *Context) Link(devs []*Device, options string, inputs []*Program) (*Program, error) {
	if len(inputs) == 0 {
		return nil, errorf(InvalidValue, "no programs to link")
	}
	if devs == nil {
		devs = c.Devices
	}
	for _, d := range devs {
		if !hasDevice(c.Devices, d) {
			return nil, errorf(InvalidDevice, "the device is not in the context")
		}
	}
	if _, err := parseOptions(options, linkOptions); err != nil {
		return nil, err
	}
	library := false
	for _, w := range strings.Fields(options) {
		library = library || w == "-create-library"
	}
	objs := map[*Device][][]byte{}
	for _, in := range inputs {
		if in.Ctx != c {
			return nil, errorf(InvalidContext, "a program to link belongs to another context")
		}
		for _, d := range devs {
			in.mu.Lock()
			b := in.builds[d]
			in.mu.Unlock()
			if b == nil || b.Object == nil {
				return nil, errorf(InvalidOperation, "a program to link has no compiled object or library for the device")
			}
			objs[d] = append(objs[d], b.Object)
		}
	}
	p := c.newProgram()
	p.Devices = devs
	failed := false
	for _, d := range devs {
		var log bytes.Buffer
		o := deviceOptions(kernel.Options{}, d, &log)
		b := &build{Options: options, Status: BuildSuccess, Meta: o.Meta}
		out, err := kernel.LinkObjects(objs[d], library, o)
		if err == nil && library {
			b.Type, b.Object = BinaryLibrary, out
		} else if err == nil {
			b.Type, b.SPIRV = BinaryExecutable, out
			b.Kernels, err = entryPoints(out)
		}
		if err != nil {
			log.WriteString(err.Error())
			b.Status, b.Type, b.Object, b.SPIRV, failed = BuildError, BinaryNone, nil, nil, true
		}
		b.Log = log.String()
		p.builds[d] = b
	}
	if failed {
		return p, errorf(LinkProgramFailure, "the programs failed to link; see the build log")
	}
	return p, nil
}
