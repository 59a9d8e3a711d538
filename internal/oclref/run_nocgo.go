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
