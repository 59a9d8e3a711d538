// Package kernel is the toolchain front door: it turns OpenCL C and GLSL
// sources into SPIR-V with the standard compilers (see DEVELOPERS.md), reads
// SPIR-V files, and parses the argument specs that the CLI and job files use
// to describe a kernel's arguments (buffers, scalars, local memory, images).
package kernel

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Language is the source language of a kernel file.
type Language int

const (
	// OpenCLC is OpenCL C (.cl), compiled by clang-14 + llvm-spirv-14.
	OpenCLC Language = iota + 1
	// GLSL is a GLSL shader (.comp/.glsl compute, .vert, .frag), compiled by
	// glslangValidator. The stage comes from the file name; see StageOf.
	GLSL
	// SPIRV is a SPIR-V binary (.spv), used as is.
	SPIRV
)

func (l Language) String() string {
	switch l {
	case OpenCLC:
		return "OpenCL C"
	case GLSL:
		return "GLSL"
	case SPIRV:
		return "SPIR-V"
	}
	return fmt.Sprintf("Language(%d)", int(l))
}

// extensions maps a lower-case file extension to its language and, for
// GLSL, the glslangValidator stage name.
var extensions = []struct {
	ext   string
	lang  Language
	stage string
}{
	{".cl", OpenCLC, ""},
	{".comp", GLSL, "comp"},
	{".glsl", GLSL, "comp"},
	{".vert", GLSL, "vert"},
	{".frag", GLSL, "frag"},
	{".spv", SPIRV, ""},
}

func knownExtensions() string {
	var s []string
	for _, e := range extensions {
		s = append(s, e.ext)
	}
	return strings.Join(s, ", ")
}

// LanguageOf returns the language of a kernel file from its extension
// (case-insensitive): .cl is OpenCL C; .comp and .glsl are GLSL compute
// shaders, .vert and .frag GLSL vertex and fragment shaders; .spv is SPIR-V.
func LanguageOf(path string) (Language, error) {
	ext := strings.ToLower(filepath.Ext(path))
	for _, e := range extensions {
		if e.ext == ext {
			return e.lang, nil
		}
	}
	if ext == "" {
		return 0, fmt.Errorf("%s: no file extension, so the kernel language is unknown (allowed: %s)", path, knownExtensions())
	}
	return 0, fmt.Errorf("%s: unknown kernel file extension %q (allowed: %s)", path, ext, knownExtensions())
}

// StageOf returns the glslangValidator stage ("comp", "vert" or "frag") for a
// GLSL file name. Names without a stage extension (.comp, .glsl, .vert,
// .frag) are compute shaders, since compute is what pocketgpu runs.
func StageOf(name string) string {
	ext := strings.ToLower(filepath.Ext(name))
	for _, e := range extensions {
		if e.ext == ext && e.lang == GLSL {
			return e.stage
		}
	}
	return "comp"
}
