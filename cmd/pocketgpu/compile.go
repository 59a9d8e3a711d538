package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/pocketgpu/pocketgpu/kernel"
)

func init() { subcommands = append(subcommands, newCompileCmd) }

func newCompileCmd() *cobra.Command {
	var (
		defines  []string
		includes []string
		out      string
		validate bool
		light    bool
		noFP64   bool
		debug    bool

		clangFlags []string
	)
	cmd := &cobra.Command{
		Use:   "compile FILE -o OUT.spv",
		Short: "Compile an OpenCL C or GLSL kernel to SPIR-V",
		Long: `compile turns a kernel source into the SPIR-V that pocketgpu runs, with the
standard compilers (see DEVELOPERS.md):

  .cl                  OpenCL C, optimized as a vendor driver does: clang-14 -O2
                       (no CPU vectorizers) -> llvm-spirv-14 -> blocks put in
                       dominance order -> spirv-val; --light: clang-14 without
                       LLVM passes -> opt-14 (a few cleanups, no inlining or
                       unrolling) -> llvm-spirv-14 -> spirv-val
  .comp .glsl          GLSL compute shader: glslangValidator (Vulkan 1.1)
  .vert .frag          GLSL vertex / fragment shader: glslangValidator
  .spv                 SPIR-V: checked (and validated) and copied

-g keeps each instruction's source line (OpLine), which run --hotspots reads.

A missing compiler is reported with the Debian package that provides it.
Exit status: 0 done, 2 the source or the command line is wrong (the compiler's
diagnostics are printed), 1 a compiler is missing or crashed.`,
		Example: `  pocketgpu compile examples/saxpy.cl -o saxpy.spv
  pocketgpu compile examples/matmul.cl -D TILE=16 -I include -o matmul.spv
  pocketgpu compile examples/scale.comp -o scale.spv
  pocketgpu compile examples/saxpy.cl --no-fp64 --clang-flag=-cl-fast-relaxed-math -o saxpy.spv`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCompile(cmd, args[0], out, kernel.Options{Defines: defines, IncludeDirs: includes, Validate: validate,
				Light: light, NoFP64: noFP64, Debug: debug, ClangFlags: clangFlags, Warnings: cmd.ErrOrStderr()})
		},
	}
	f := cmd.Flags()
	f.StringArrayVarP(&defines, "define", "D", nil, "a preprocessor definition (repeatable)")
	f.StringArrayVarP(&includes, "include", "I", nil, "add DIR to the #include search path (repeatable)")
	f.StringVarP(&out, "output", "o", "", "write the SPIR-V module to FILE")
	f.BoolVar(&validate, "validate", true, "run spirv-val on GLSL output and .spv input (OpenCL C output is always validated)")
	f.BoolVar(&light, "light", false, "OpenCL C: the light pipeline (no inlining, unrolling or LICM) instead of the driver's -O2")
	f.BoolVar(&noFP64, "no-fp64", false, "OpenCL C: compile for a GPU without cl_khr_fp64 (double literals become float)")
	f.BoolVarP(&debug, "debug", "g", false, "keep source lines (OpLine) for run --hotspots: clang -gline-tables-only, glslangValidator -g")
	f.StringArrayVar(&clangFlags, "clang-flag", nil, "OpenCL C: pass FLAG to clang-14 (repeatable; --clang-flag=-cl-mad-enable)")
	_ = cmd.MarkFlagRequired("output")
	nameArgs(cmd, "define", "NAME[=VALUE]", "include", "DIR", "output", "FILE", "clang-flag", "FLAG")
	return cmd
}

func runCompile(cmd *cobra.Command, in, out string, opt kernel.Options) error {
	if same, _ := samePath(in, out); same {
		return badInputf("output %s is the input file; choose another name with -o", out)
	}
	if err := checkOutputFile("-o "+out, out); err != nil {
		return err
	}
	spv, err := kernel.Compile(in, opt)
	if err != nil {
		var missing *kernel.ToolMissingError
		var crash *kernel.ToolCrashError
		if errors.As(err, &missing) || errors.As(err, &crash) {
			return err // the host's toolchain, not the user's input: exit 1
		}
		var ce *kernel.CompileError
		if errors.As(err, &ce) {
			return badInputf("compiling %s: %v", in, err)
		}
		return badInput(err)
	}
	if err := os.WriteFile(out, spv, 0o644); err != nil {
		return badInputf("writing the SPIR-V: %v", err)
	}
	fmt.Fprintf(cmd.OutOrStdout(), "%s -> %s (%d bytes of SPIR-V)\n", in, out, len(spv))
	return nil
}

// samePath reports whether a and b name the same existing file.
func samePath(a, b string) (bool, error) {
	sa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	sb, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	if os.SameFile(sa, sb) {
		return true, nil
	}
	return filepath.Clean(a) == filepath.Clean(b), nil
}
