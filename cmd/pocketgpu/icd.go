package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
)

func init() { subcommands = append(subcommands, newICDCmd) }

// modulePath is the module whose source the ICD is built from.
const modulePath = "github.com/pocketgpu/pocketgpu"

func newICDCmd() *cobra.Command {
	out := "icd"
	cmd := &cobra.Command{
		Use:   "icd",
		Short: "Build pocketgpu's OpenCL ICD, so OpenCL programs see the simulated GPUs",
		Long: `icd builds the OpenCL ICD library (a cgo c-shared build of ./opencl/icd: it
needs gcc and the OpenCL headers, Debian packages gcc and opencl-c-headers) and
its vendor file into DIR. Point the ICD loader (ocl-icd) at DIR and name the
GPUs, and every OpenCL program sees one "pocketgpu" platform with a device per
GPU:

  OCL_ICD_VENDORS=DIR POCKETGPU_GPUS=mali-g52,adreno-640 clinfo

POCKETGPU_GPUS takes what --gpu takes (presets, GPU numbers, YAML files),
comma separated; the default is mali-g52. Today the platform answers the
platform and device queries; other calls return CL_INVALID_OPERATION with a
message on stderr. Run icd from a clone of pocketgpu: the library is built
from its source.`,
		Example: `  pocketgpu icd --out icd`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return buildICD(cmd, out)
		},
	}
	cmd.Flags().StringVar(&out, "out", out, "the directory to write libpocketgpu-icd.so and pocketgpu.icd to")
	nameArgs(cmd, "out", "DIR")
	return cmd
}

func buildICD(cmd *cobra.Command, out string) error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	if err := checkOutputDir("--out", out); err != nil {
		return err
	}
	dir, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	lib := filepath.Join(dir, "libpocketgpu-icd.so")
	build := exec.CommandContext(cmd.Context(), "go", "build", "-buildmode=c-shared", "-o", lib, "./opencl/icd")
	build.Dir = root
	build.Env = append(os.Environ(), "CGO_ENABLED=1")
	if msg, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("building the ICD (it needs gcc and the OpenCL headers: apt-get install gcc opencl-c-headers): %v\n%s", err, msg)
	}
	// The library's C header is of no use to OpenCL programs.
	_ = os.Remove(strings.TrimSuffix(lib, ".so") + ".h")
	vendor := filepath.Join(dir, "pocketgpu.icd")
	if err := os.WriteFile(vendor, []byte(lib+"\n"), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", vendor, err)
	}
	w := cmd.OutOrStdout()
	fmt.Fprintf(w, "wrote %s and %s\n", lib, vendor)
	fmt.Fprintf(w, "run an OpenCL program on simulated GPUs with:\n  OCL_ICD_VENDORS=%s POCKETGPU_GPUS=mali-g52,adreno-640 PROGRAM\n", dir)
	return nil
}

// moduleRoot finds the pocketgpu source tree the working directory is in.
func moduleRoot() (string, error) {
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("the icd command needs the go tool on PATH: %v", err)
	}
	path := strings.TrimSpace(string(gomod))
	data, err := os.ReadFile(path)
	if path == "" || path == os.DevNull || err != nil || !bytes.Contains(data, []byte("module "+modulePath+"\n")) {
		return "", badInputf("run icd from a clone of pocketgpu: the ICD is built from its source")
	}
	return filepath.Dir(path), nil
}
