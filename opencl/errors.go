package opencl

import "fmt"

// Status is an OpenCL error code (cl_int), as the API returns it.
type Status int32

// The error codes the platform returns (values from the OpenCL
// specification, cl.h).
const (
	Success                     Status = 0
	BuildProgramFailure         Status = -11
	OutOfResources              Status = -5
	OutOfHostMemory             Status = -6
	ProfilingInfoNotAvailable   Status = -7
	InvalidValue                Status = -30
	InvalidDeviceType           Status = -31
	InvalidPlatform             Status = -32
	InvalidDevice               Status = -33
	InvalidContext              Status = -34
	InvalidQueueProperties      Status = -35
	InvalidCommandQueue         Status = -36
	InvalidHostPtr              Status = -37
	InvalidMemObject            Status = -38
	InvalidBuildOptions         Status = -43
	InvalidProgram              Status = -44
	InvalidProgramExecutable    Status = -45
	InvalidKernelName           Status = -46
	InvalidKernel               Status = -48
	InvalidArgIndex             Status = -49
	InvalidArgValue             Status = -50
	InvalidArgSize              Status = -51
	InvalidKernelArgs           Status = -52
	InvalidWorkDimension        Status = -53
	InvalidWorkGroupSize        Status = -54
	InvalidGlobalOffset         Status = -56
	InvalidEventWaitList        Status = -57
	InvalidEvent                Status = -58
	InvalidOperation            Status = -59
	InvalidBufferSize           Status = -61
	InvalidGlobalWorkSize       Status = -63
	InvalidProperties           Status = -64
	ExecStatusErrorForEvents    Status = -14
	MemObjectAllocationFailure  Status = -4
	InvalidMipLevel             Status = -62
	KernelArgInfoNotAvailable   Status = -19
	MisalignedSubBufferOffset   Status = -13
	CompileProgramFailure       Status = -15
	LinkProgramFailure          Status = -17
	InvalidLinkerOptions        Status = -67
	InvalidCompilerOptions      Status = -66
	InvalidDevicePartitionCount Status = -68
)

// Error is a failed call: its status and what went wrong, for the
// context's pfn_notify and stderr.
type Error struct {
	Status Status
	Msg    string
}

func (e *Error) Error() string { return fmt.Sprintf("%s (%d)", e.Msg, e.Status) }

func errorf(s Status, format string, args ...any) *Error {
	return &Error{Status: s, Msg: fmt.Sprintf(format, args...)}
}

// More error codes (cl.h).
const (
	InvalidBinary       Status = -42
	InvalidWorkItemSize Status = -55
)
