package kernel

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"

	"github.com/pocketgpu/pocketgpu/spirv"
)

// Line information (Options.Debug).
//
// OpenCL C is compiled with clang's -gline-tables-only: every LLVM
// instruction keeps its DILocation (file, line, column, and the call site
// it was inlined at), and llvm-spirv-14 writes each location as an OpLine
// before the instruction, with OpString naming the file. llvm-spirv-14 also
// writes the locations' scopes as OpenCL.DebugInfo.100 extended
// instructions (DebugCompilationUnit, DebugFunction, DebugScope ...), and
// those spirv-val refuses (a DebugFunction whose Declaration is
// DebugInfoNone; with full -g, a DebugTypePointer to a qualified type), so
// the pipeline removes them and keeps the OpLines: the simulator reads
// nothing else. GLSL is compiled with glslangValidator -g, which writes
// OpLine and the source text in OpSource.

// debugInfoSet is the extended instruction set llvm-spirv-14 writes.
const debugInfoSet = "OpenCL.DebugInfo.100"

// stripDebugInfo removes the OpenCL.DebugInfo.100 import and every
// extended instruction of that set from a module, leaving OpLine, OpString
// and OpSource. A module without the import comes back unchanged.
func stripDebugInfo(b []byte) ([]byte, error) {
	if !bytes.Contains(b, []byte(debugInfoSet)) {
		return b, nil
	}
	m, err := spirv.Decode(b)
	if err != nil {
		return nil, err
	}
	var set uint32
	for id, name := range m.ExtInstImports {
		if name == debugInfoSet {
			set = id
		}
	}
	if set == 0 {
		return b, nil
	}
	words := make([]uint32, len(b)/4)
	for i := range words {
		words[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	out := append([]uint32(nil), words[:5]...)
	for i := range m.Insts {
		in := &m.Insts[i]
		switch {
		case in.Op == spirv.OpExtInstImport && in.Result == set:
			continue
		case in.Op == spirv.OpExtInst && len(in.Operands) > 0 && in.Operands[0] == set:
			continue
		}
		n := int(words[in.Offset] >> 16)
		out = append(out, words[in.Offset:in.Offset+n]...)
	}
	res := make([]byte, 4*len(out))
	for i, w := range out {
		binary.LittleEndian.PutUint32(res[4*i:], w)
	}
	return res, nil
}

// llvmSPIRV runs llvm-spirv-14 on bc and leaves in spv a module without
// the debug-info instructions spirv-val refuses (see stripDebugInfo).
func (w *work) llvmSPIRV(bc, spv string) error {
	if err := w.run("llvm-spirv-14", bc, "-o", spv); err != nil {
		return err
	}
	raw, err := os.ReadFile(spv)
	if err != nil {
		return fmt.Errorf("compiling %s: reading llvm-spirv's output: %w", w.name, err)
	}
	clean, err := stripDebugInfo(raw)
	if err != nil {
		return fmt.Errorf("compiling %s: removing llvm-spirv's debug scopes: %w", w.name, err)
	}
	if len(clean) == len(raw) {
		return nil
	}
	if err := os.WriteFile(spv, clean, 0o600); err != nil {
		return fmt.Errorf("compiling %s: %w", w.name, err)
	}
	return nil
}
