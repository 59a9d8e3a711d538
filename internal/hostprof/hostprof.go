// Package hostprof profiles pocketgpu itself: with POCKETGPU_CPUPROFILE=FILE
// set, the command line (and the OpenCL ICD, inside the program it serves)
// writes a Go CPU profile of the simulator's host time to FILE, for
// `go tool pprof`. It is a developer's tool: speed work starts from a
// profile of the workload that is slow (docs/timing.md#simulation-speed).
package hostprof

import (
	"fmt"
	"os"
	"runtime/pprof"
	"sync"
)

// Env names the file the CPU profile goes to.
const Env = "POCKETGPU_CPUPROFILE"

var (
	mu   sync.Mutex
	file *os.File
)

// Start begins the CPU profile when POCKETGPU_CPUPROFILE names a file; it
// returns the function that stops it and writes the file (a no-op
// otherwise). A profile that cannot start is reported on stderr and the
// run goes on without it.
func Start() (stop func()) {
	path := os.Getenv(Env)
	if path == "" {
		return func() {}
	}
	mu.Lock()
	defer mu.Unlock()
	if file != nil {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "pocketgpu: %s: %v\n", Env, err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(os.Stderr, "pocketgpu: %s: %v\n", Env, err)
		f.Close()
		return func() {}
	}
	file = f
	return Stop
}

// Stop ends a profile Start began and closes its file; later calls do
// nothing.
func Stop() {
	mu.Lock()
	defer mu.Unlock()
	if file == nil {
		return
	}
	pprof.StopCPUProfile()
	file.Close()
	file = nil
}
