// Package opencl is pocketgpu as an OpenCL platform, in Go: the platform
// and its devices (one per simulated GPU) and the answers to the info
// queries, derived from each GPU's description the way that GPU's own
// driver would report them. The C side that OpenCL host programs load (an
// ICD, opencl/icd) only marshals calls to this package, so everything here
// is tested with plain `go test`.
package opencl

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/timing/trace"
)

// Platform is the one pocketgpu platform: the GPUs a run simulates.
type Platform struct {
	Devices []*Device
	// Recorder, if set, gets a record of every finished command, one at a
	// time (exec --report).
	Recorder func(CommandRecord)
	// Clock, if set, is the host program's virtual clock (exec
	// --virtual-clock).
	Clock *VirtualClock
	// Printf, if set, gets the kernels' printf output, each kernel's in one
	// write when it ends, as a driver flushes its printf buffer at kernel
	// completion (the ICD writes it to the C library's stdout, so that it
	// keeps its place among the program's own prints). Nil discards it.
	Printf io.Writer
	// Warn, if set, gets what went wrong in a kernel without stopping it
	// (local memory out of bounds, with the source line).
	Warn     func(msg string)
	trace    *platformTrace // EnableTrace (trace.go)
	seq      atomic.Uint64
	recordMu sync.Mutex
}

// Platform identity. Name and vendor are pocketgpu's; the suffix is what
// the ICD loader (ocl-icd, the Khronos loader) uses to tell platforms'
// extension functions apart.
const (
	PlatformName    = "pocketgpu"
	PlatformVendor  = "pocketgpu"
	PlatformVersion = "OpenCL 1.2 pocketgpu"
	PlatformProfile = "FULL_PROFILE"
	ICDSuffix       = "POCKETGPU"
	// PlatformExtensions are what the platform itself offers.
	PlatformExtensions = "cl_khr_icd"
)

// NewPlatform makes a platform of the named GPUs (presets, GPU numbers or
// YAML files, as --gpu takes them).
func NewPlatform(gpus []string) (*Platform, error) {
	if len(gpus) == 0 {
		return nil, fmt.Errorf("no GPU: name one or more (mali-g52, adreno-640, a YAML file)")
	}
	p := &Platform{}
	for _, name := range gpus {
		g, err := arch.Lookup(strings.TrimSpace(name))
		if err != nil {
			return nil, err
		}
		p.Devices = append(p.Devices, &Device{GPU: g, driver: driverOf(g)})
	}
	return p, nil
}

// Device is one simulated GPU as an OpenCL device.
type Device struct {
	GPU    *arch.GPU
	driver driverProfile
	// clock is the device's timer, which every context of the device
	// reads and moves: the GPU runs one command at a time whichever
	// context sent it.
	clock deviceClock
	// trace is the device's part of the platform's trace and queues the
	// number of its queues so far; both guarded by clock.mu.
	trace  *trace.Trace
	queues int
}

// driverProfile is what a vendor's driver says about itself: the strings,
// and how it counts compute units.
type driverProfile struct {
	vendor   string
	vendorID uint32
	// name is the CL_DEVICE_NAME format; %s is the GPU's marketing name
	// without the vendor.
	name string
	// version is CL_DEVICE_VERSION after "OpenCL 1.2 ".
	version string
	// clusterUnits: CL_DEVICE_MAX_COMPUTE_UNITS counts clusters (Adreno
	// SPs), not cores (uSPTPs).
	clusterUnits bool
	// namePrefix starts every device name ("PowerVR Rogue "); trademark
	// is a product word the driver spells with (TM) ("Adreno").
	namePrefix, trademark string
}

// The vendor drivers' self-descriptions. The vendor IDs are the vendors'
// PCI-SIG IDs (Arm 0x13B5, Qualcomm 0x5143, Imagination 0x1010), which
// their drivers report as CL_DEVICE_VENDOR_ID. assumed: the vendor strings
// ("ARM", "QUALCOMM", "Imagination Technologies") and Qualcomm's
// "Adreno(TM)" spelling as those drivers give them; the device name is the
// GPU description's own. pocketgpu reports OpenCL 1.2, the version it
// implements. Adreno drivers count SPs, not uSPTPs, as compute units
// (cores_per_cluster uSPTPs make one SP: seed 004 §What's a Shader
// Processor?).
// The profiles are keyed by the description's vendor: a driver describes
// every GPU of its vendor alike.
var driverProfiles = map[string]driverProfile{
	"arm":         {vendor: "ARM", vendorID: 0x13B5, name: "%s", version: "pocketgpu Mali"},
	"qualcomm":    {vendor: "QUALCOMM", vendorID: 0x5143, name: "QUALCOMM %s", version: "pocketgpu Adreno(TM)", clusterUnits: true, trademark: "Adreno"},
	"imagination": {vendor: "Imagination Technologies", vendorID: 0x1010, name: "%s", version: "pocketgpu PowerVR Rogue", namePrefix: "PowerVR Rogue "},
}

func driverOf(g *arch.GPU) driverProfile {
	if p, ok := driverProfiles[g.Vendor]; ok {
		return p
	}
	return driverProfile{vendor: "pocketgpu", name: "%s", version: "pocketgpu"}
}

// Name is CL_DEVICE_NAME: the GPU's name as its description gives it,
// without the vendor in front or the SoC in brackets, which drivers leave
// out.
func (d *Device) Name() string {
	name := d.GPU.Name
	if i := strings.Index(name, " ("); i > 0 {
		name = name[:i]
	}
	for _, v := range []string{"Arm ", "ARM ", "Qualcomm ", "Imagination ", "PowerVR Rogue "} {
		name = strings.TrimPrefix(name, v)
	}
	if p := d.driver.namePrefix; p != "" && !strings.HasPrefix(name, strings.Fields(p)[0]) {
		name = p + name
	}
	if name == "" {
		name = d.GPU.ID
	}
	if tm := d.driver.trademark; tm != "" && !strings.Contains(name, "(TM)") {
		name = strings.Replace(name, tm, tm+"(TM)", 1)
	}
	return fmt.Sprintf(d.driver.name, name)
}

// ComputeUnits is CL_DEVICE_MAX_COMPUTE_UNITS as the vendor's driver counts.
func (d *Device) ComputeUnits() int {
	g := d.GPU
	if d.driver.clusterUnits && g.CoresPerCluster > 0 {
		return max(1, g.Cores/g.CoresPerCluster)
	}
	return g.Cores
}

// Extensions is CL_DEVICE_EXTENSIONS: the extensions pocketgpu's executor
// runs (more, such as cl_khr_il_program, as the platform implements them), with cl_khr_fp64 only where the GPU has double precision and
// cl_khr_fp16 where it has half arithmetic.
func (d *Device) Extensions() string {
	ext := []string{"cl_khr_global_int32_base_atomics", "cl_khr_global_int32_extended_atomics",
		"cl_khr_local_int32_base_atomics", "cl_khr_local_int32_extended_atomics", "cl_khr_byte_addressable_store"}
	if d.GPU.HasFP64() {
		ext = append(ext, "cl_khr_fp64")
	}
	if op, ok := d.GPU.Op("fp16_mad"); ok && !op.Unsupported {
		ext = append(ext, "cl_khr_fp16")
	}
	return strings.Join(ext, " ")
}
