package kernel

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pocketgpu/pocketgpu/spirv"
)

// Separate compilation, as clCompileProgram and clLinkProgram do it: an
// object is the front end's LLVM bitcode, unoptimized, so linking then
// optimizes the whole program the way the driver pipeline optimizes one
// source (inlining across objects included).

// CompileObject compiles OpenCL C to an object for LinkObjects. opt.Meta,
// if set, gets the kernels' metadata.
func CompileObject(src []byte, name string, opt Options) ([]byte, error) {
	if err := checkOptions(opt); err != nil {
		return nil, err
	}
	w, done, err := newWork(name)
	if err != nil {
		return nil, err
	}
	defer done()
	w.warnings = opt.Warnings
	in := filepath.Join(w.tmp, sourceBase(name))
	if err := os.WriteFile(in, src, 0o600); err != nil {
		return nil, fmt.Errorf("compiling %s: %w", name, err)
	}
	w.srcTmp = in
	includes := opt.IncludeDirs
	if len(opt.Headers) > 0 {
		dir, err := w.writeHeaders(opt.Headers)
		if err != nil {
			return nil, err
		}
		includes = append([]string{dir}, includes...)
	}
	bc := filepath.Join(w.tmp, "obj.bc")
	args := clangArgs(in, includes, opt, "-c", "-emit-llvm", "-O2", "-fno-jump-tables", "-Xclang", "-disable-llvm-passes")
	if err := w.run("clang-14", append(args, "-o", bc)...); err != nil {
		return nil, err
	}
	if err := w.meta(bc, opt); err != nil {
		return nil, err
	}
	return os.ReadFile(bc)
}

// LinkObjects links objects (CompileObject's, or libraries LinkObjects
// made) into a library (LLVM bitcode again) or, optimized as the driver
// pipeline does, into SPIR-V. opt.Meta, if set, gets the kernels' metadata.
func LinkObjects(objs [][]byte, library bool, opt Options) ([]byte, error) {
	if len(objs) == 0 {
		return nil, errors.New("nothing to link")
	}
	w, done, err := newWork("program")
	if err != nil {
		return nil, err
	}
	defer done()
	w.warnings = opt.Warnings
	args := []string{"-o", filepath.Join(w.tmp, "linked.bc")}
	for i, o := range objs {
		p := filepath.Join(w.tmp, fmt.Sprintf("in%d.bc", i))
		if err := os.WriteFile(p, o, 0o600); err != nil {
			return nil, fmt.Errorf("linking: %w", err)
		}
		args = append(args, p)
	}
	linked := args[1]
	if err := w.run("llvm-link-14", args...); err != nil {
		return nil, err
	}
	if err := w.meta(linked, opt); err != nil {
		return nil, err
	}
	if library {
		return os.ReadFile(linked)
	}
	o2 := filepath.Join(w.tmp, "o2.bc")
	spv := filepath.Join(w.tmp, "k.spv")
	optArgs := []string{"-passes=default<O2>", "-vectorize-loops=false", "-vectorize-slp=false"}
	if err := w.run("opt-14", append(optArgs, linked, "-o", o2)...); err != nil {
		return nil, err
	}
	err = w.llvmSPIRV(o2, spv)
	var ce *CompileError
	if errors.As(err, &ce) && needsRepair(ce.Output) {
		err = w.linkRepair(linked, optArgs, spv)
	}
	if err != nil {
		return nil, err
	}
	raw, err := w.readSPIRV(spv)
	if err != nil {
		return nil, err
	}
	ordered, err := orderBlocks(raw)
	if err != nil {
		return nil, fmt.Errorf("linking: ordering the blocks of llvm-spirv's output: %w", err)
	}
	if err := os.WriteFile(spv, ordered, 0o600); err != nil {
		return nil, err
	}
	if err := w.run("spirv-val", spv); err != nil {
		return nil, err
	}
	if err := unresolved(ordered); err != nil {
		return nil, err
	}
	return ordered, nil
}

// unresolved refuses an executable that still imports a function: one
// the objects declare and none defines.
func unresolved(spv []byte) error {
	m, err := spirv.Decode(spv)
	if err != nil {
		return err
	}
	var names []string
	for _, in := range m.Insts {
		if in.Op != spirv.OpFunction {
			continue
		}
		if d, ok := m.Decorated(in.Result, spirv.DecorationLinkageAttributes); ok && len(d.Args) == 1 && d.Args[0] == uint32(spirv.LinkageTypeImport) {
			names = append(names, d.Str)
		}
	}
	if len(names) > 0 {
		return &CompileError{Tool: "link", Output: "undefined function(s): " + strings.Join(names, ", ")}
	}
	return nil
}

// linkRepair is the repair route of openCL for a linked module.
func (w *work) linkRepair(linked string, optArgs []string, spv string) error {
	w.warnings = nil
	ll := filepath.Join(w.tmp, "linked.ll")
	if err := w.run("llvm-dis-14", linked, "-o", ll); err != nil {
		return err
	}
	return w.repairIR(ll, optArgs, spv)
}

func newWork(name string) (*work, func(), error) {
	tmp, err := os.MkdirTemp("", "pocketgpu-kernel-")
	if err != nil {
		return nil, nil, fmt.Errorf("compiling %s: %w", name, err)
	}
	return &work{tmp: tmp, name: name}, func() { os.RemoveAll(tmp) }, nil
}

func sourceBase(name string) string {
	base := filepath.Base(name)
	if base == "." || base == string(filepath.Separator) || base == "" {
		base = "kernel.cl"
	}
	return base
}

// writeHeaders puts in-memory headers under a directory of the work's, by
// their include names, and returns the directory.
func (w *work) writeHeaders(hs []Header) (string, error) {
	dir := filepath.Join(w.tmp, "headers")
	for _, h := range hs {
		clean := filepath.Clean(h.Name)
		if h.Name == "" || filepath.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") {
			return "", fmt.Errorf("header name %q: a relative path within the program", h.Name)
		}
		p := filepath.Join(dir, clean)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			return "", err
		}
		if err := os.WriteFile(p, h.Source, 0o600); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// meta fills opt.Meta from a bitcode file, if it is wanted.
func (w *work) meta(bc string, opt Options) error {
	if opt.Meta == nil {
		return nil
	}
	m, err := w.readMeta(bc)
	if err != nil {
		return err
	}
	for k, v := range m {
		opt.Meta[k] = v
	}
	return nil
}
