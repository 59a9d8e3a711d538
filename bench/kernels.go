package bench

import (
	"embed"
	"fmt"
	"path"
	"strconv"
	"strings"
)

// The prebuilt SPIR-V is made by `pocketgpu compile --light` (clang-14,
// opt-14, llvm-spirv-14, spirv-val; see DEVELOPERS.md) and committed, so that
// a plain `go build` needs nothing but Go. The light pipeline, not the
// driver's -O2, because the validation figures were calibrated on it. TestKernelsFresh recompiles every module
// and fails when a committed one is stale.
//
//go:generate sh -c "for f in latency bandwidth rates chains atomics divergence occupancy lbm lbm3d fx3d wgsize asynccopy cstore archprobe; do go run ../cmd/pocketgpu compile --light kernels/$DOLLAR{f}.cl -o kernels/$DOLLAR{f}.spv || exit 1; done"
//go:generate sh -c "for n in 128 256 384 512 576 640 768 1024 1152 1280 1344 1408 1536 1792 2048; do go run ../cmd/pocketgpu compile --light kernels/iloop.cl -D ADDS=$DOLLAR{n} -o kernels/iloop_$DOLLAR{n}.spv || exit 1; done"

//go:embed kernels/*.cl kernels/*.spv
var kernelFS embed.FS

// ILoopSizes are the loop bodies (FP adds per iteration) of the
// instruction-cache sweep; each is kernels/iloop.cl built with -D ADDS=N.
// Steps of 128 adds, and of 64 just past each of seed 000's dips (§Shader
// Frontend: "512 or fewer", "exceeds 1280"), so that a dip placed 128 adds
// late (640 rather than 512) shows, which steps of 256 could not see.
var ILoopSizes = []int{128, 256, 384, 512, 576, 640, 768, 1024, 1152, 1280, 1344, 1408, 1536, 1792, 2048}

// Module is one prebuilt kernel module of the suite.
type Module struct {
	// Name is the module's file name without .spv ("latency", "iloop_512").
	Name string
	// Source is the OpenCL C file it is built from ("kernels/iloop.cl").
	Source string
	// Defines are the -D options it is built with.
	Defines []string
}

// Modules lists every prebuilt module with how it is built (the go:generate
// lines above make the same list).
func Modules() []Module {
	var out []Module
	for _, f := range []string{"latency", "bandwidth", "rates", "chains", "atomics", "divergence", "occupancy", "lbm", "lbm3d", "fx3d", "wgsize", "asynccopy", "cstore", "archprobe"} {
		out = append(out, Module{Name: f, Source: "kernels/" + f + ".cl"})
	}
	for _, n := range ILoopSizes {
		out = append(out, Module{Name: "iloop_" + strconv.Itoa(n), Source: "kernels/iloop.cl", Defines: []string{"ADDS=" + strconv.Itoa(n)}})
	}
	return out
}

// SPIRV returns a prebuilt module by name.
func SPIRV(name string) ([]byte, error) {
	b, err := kernelFS.ReadFile(path.Join("kernels", name+".spv"))
	if err != nil {
		return nil, fmt.Errorf("bench kernel module %s is missing (run go generate ./bench): %w", name, err)
	}
	return b, nil
}

// Source returns a kernel source file of the suite ("latency.cl").
func Source(file string) ([]byte, error) {
	return kernelFS.ReadFile(path.Join("kernels", strings.TrimPrefix(file, "kernels/")))
}
