package opencl

import (
	"bytes"
	"encoding/binary"
	"encoding/json"

	"github.com/pocketgpu/pocketgpu/kernel"
)

// A pocketgpu program binary (CL_PROGRAM_BINARIES, and what
// clCreateProgramWithBinary takes back, as pyopencl and CLBlast cache
// programs): the magic, the format version, the binary type, a JSON
// header naming the GPU and the build options and carrying the kernels'
// metadata, then the SPIR-V (an executable) or LLVM bitcode (a compiled
// object or library). Little-endian, like SPIR-V on every host we run on.
const (
	binaryMagic   = "PGCLBIN\n"
	binaryVersion = 1
)

type binaryHeader struct {
	GPU     string                        `json:"gpu"`    // arch.GPU.ID
	Device  string                        `json:"device"` // CL_DEVICE_NAME, for people reading it
	Options string                        `json:"options"`
	Meta    map[string]*kernel.KernelMeta `json:"meta,omitempty"`
}

// Binaries are the program's binaries, one per device of the program, nil
// where the device has no successful build.
func (p *Program) Binaries() [][]byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([][]byte, len(p.Devices))
	for i, d := range p.Devices {
		b := p.builds[d]
		if b == nil || b.Type == BinaryNone || (b.SPIRV == nil && b.Object == nil) {
			continue
		}
		hdr, _ := json.Marshal(binaryHeader{GPU: d.GPU.ID, Device: d.Name(), Options: b.Options, Meta: b.Meta})
		payload := b.SPIRV
		if b.Type != BinaryExecutable {
			payload = b.Object
		}
		var buf bytes.Buffer
		buf.WriteString(binaryMagic)
		for _, v := range []uint32{binaryVersion, b.Type, uint32(len(hdr))} {
			binary.Write(&buf, binary.LittleEndian, v)
		}
		buf.Write(hdr)
		buf.Write(payload)
		out[i] = buf.Bytes()
	}
	return out
}

// parseBinary reads a binary made for d.
func parseBinary(d *Device, bin []byte) (*build, bool) {
	const fixed = len(binaryMagic) + 12
	if len(bin) < fixed || string(bin[:len(binaryMagic)]) != binaryMagic {
		return nil, false
	}
	le := binary.LittleEndian
	version, typ, n := le.Uint32(bin[8:]), le.Uint32(bin[12:]), le.Uint32(bin[16:])
	if version != binaryVersion || uint64(n) > uint64(len(bin)-fixed) {
		return nil, false
	}
	var h binaryHeader
	if json.Unmarshal(bin[fixed:fixed+int(n)], &h) != nil || h.GPU != d.GPU.ID {
		return nil, false
	}
	payload := append([]byte(nil), bin[fixed+int(n):]...)
	b := &build{Status: BuildNone, Options: h.Options, Type: typ, Meta: h.Meta}
	switch typ {
	case BinaryExecutable:
		spv, err := kernel.CheckSPIRV(payload)
		if err != nil {
			return nil, false
		}
		if b.Kernels, err = entryPoints(spv); err != nil {
			return nil, false
		}
		b.SPIRV = spv
	case BinaryObject, BinaryLibrary:
		// LLVM bitcode starts with "BC" 0xC0DE.
		if !bytes.HasPrefix(payload, []byte{'B', 'C', 0xC0, 0xDE}) {
			return nil, false
		}
		b.Object = payload
	default:
		return nil, false
	}
	return b, true
}

// NewProgramBinary is clCreateProgramWithBinary: one binary per device.
// status is each binary's CL_SUCCESS or CL_INVALID_BINARY; any invalid one
// fails the call. An executable binary still needs clBuildProgram, as the
// specification has it, which then has nothing to compile.
func (c *Context) NewProgramBinary(devs []*Device, bins [][]byte) (*Program, []Status, error) {
	if len(devs) == 0 || len(bins) != len(devs) {
		return nil, nil, errorf(InvalidValue, "one binary per device, and at least one device")
	}
	p := c.newProgram()
	p.Devices = devs
	status := make([]Status, len(devs))
	bad := false
	for i, d := range devs {
		if !hasDevice(c.Devices, d) {
			return nil, nil, errorf(InvalidDevice, "the device is not in the context")
		}
		if len(bins[i]) == 0 {
			return nil, nil, errorf(InvalidValue, "binary %d is empty", i)
		}
		b, ok := parseBinary(d, bins[i])
		if !ok {
			status[i], bad = InvalidBinary, true
			continue
		}
		p.builds[d] = b
	}
	if bad {
		return nil, status, errorf(InvalidBinary, "not a pocketgpu program binary for the device (a binary from CL_PROGRAM_BINARIES of the same GPU)")
	}
	return p, status, nil
}
