package emu

import (
	"fmt"
	"strings"
	"sync"

	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/spirv"
)

// Program is an ir.Program made ready to run: its extended instructions
// resolved to routines.
type Program struct {
	*ir.Program
	ext []extFn
	// independentGroups: its work-groups cannot observe each other's
	// order, so a functional run may run them in parallel (parallel.go).
	independentGroups bool

	// decoded holds the code decoded for each warp width a dispatch has
	// used (decodedFor), so that repeated launches decode it once.
	decodedMu sync.Mutex
	decoded   map[int]*decodedCode
}

// Load is the load chain every kernel and shader goes through: decode the
// SPIR-V module m, build one entry point ("" if it has one) into IR and
// prepare it for the executor. device's kernels and gfx's shaders both come
// from here, so a module that loads for one loads for the other.
func Load(m *spirv.Module, entry string, opt ir.Options) (*Program, error) {
	p, err := ir.Build(m, entry, opt)
	if err != nil {
		return nil, err
	}
	return Prepare(p)
}

// Prepare resolves p's extended instructions; it fails, naming them, when
// some are not implemented.
func Prepare(p *ir.Program) (*Program, error) {
	ep := &Program{Program: p, ext: make([]extFn, len(p.Ext)), independentGroups: independentGroups(p)}
	var missing []string
	for i := range p.Ext {
		c := &p.Ext[i]
		var mk extMaker
		switch c.Set {
		case ir.ExtOpenCL:
			mk = openclLib[spirv.OpenCLStd(c.Num)]
		case ir.ExtGLSL:
			mk = glslLib[spirv.GLSLStd450(c.Num)]
		case ir.ExtInternal:
			mk = internalLib[c.Num]
		}
		if mk == nil {
			missing = append(missing, c.Name)
			continue
		}
		fn, err := mk(c)
		if err != nil {
			return nil, fmt.Errorf("%s (%s): %w", c.Name, p.Sites[c.Site], err)
		}
		ep.ext[i] = fn
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("extended instructions not supported by pocketgpu: %s", strings.Join(dedup(missing), ", "))
	}
	return ep, nil
}

func dedup(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
