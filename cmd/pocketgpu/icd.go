package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
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
comma separated; the default is mali-g52. pocketgpu exec does all this for
you; its help lists the other variables. Calls pocketgpu does not implement
return CL_INVALID_OPERATION with a message on stderr. Run icd from a clone of
pocketgpu: the library is built from its source. DIR also gets
libpocketgpu-clock.so, the clock shim of exec --virtual-clock.`,
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

// The files an ICD directory holds.
const (
	icdLibrary       = "libpocketgpu-icd.so"
	icdVendorFile    = "pocketgpu.icd"
	clockShimLibrary = "libpocketgpu-clock.so"
)

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
	if err := buildICDInto(cmd.Context(), root, dir); err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	fmt.Fprintf(w, "wrote %s, %s and %s\n", filepath.Join(dir, icdLibrary), filepath.Join(dir, icdVendorFile), filepath.Join(dir, clockShimLibrary))
	fmt.Fprintf(w, "run an OpenCL program on simulated GPUs with:\n  OCL_ICD_VENDORS=%s POCKETGPU_GPUS=mali-g52,adreno-640 PROGRAM\n", dir)
	return nil
}

// buildICDInto builds the ICD library, its vendor file and the clock shim
// from the source tree at root into dir.
func buildICDInto(ctx context.Context, root, dir string) error {
	lib := filepath.Join(dir, icdLibrary)
	build := exec.CommandContext(ctx, "go", "build", "-buildmode=c-shared", "-o", lib, "./opencl/icd")
	build.Dir = root
	build.Env = append(os.Environ(), "CGO_ENABLED=1")
	if msg, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("building the ICD (it needs gcc and the OpenCL headers: apt-get install gcc opencl-c-headers): %v\n%s", err, msg)
	}
	// The library's C header is of no use to OpenCL programs.
	_ = os.Remove(strings.TrimSuffix(lib, ".so") + ".h")
	shim := exec.CommandContext(ctx, "gcc", "-O2", "-shared", "-fPIC", "-o", filepath.Join(dir, clockShimLibrary),
		filepath.Join(root, "opencl", "clockshim", "clockshim.c"), "-ldl")
	if msg, err := shim.CombinedOutput(); err != nil {
		return fmt.Errorf("building the clock shim (it needs gcc): %v\n%s", err, msg)
	}
	vendor := filepath.Join(dir, icdVendorFile)
	if err := os.WriteFile(vendor, []byte(lib+"\n"), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", vendor, err)
	}
	return nil
}

// cachedICD returns a directory holding an ICD built from the current
// source of the clone exec runs in, building it on first use: the
// directory is named by a hash of the source, so an edit gets a new build.
func cachedICD(cmd *cobra.Command) (string, error) {
	root, err := moduleRoot()
	if err != nil {
		return "", badInputf("exec builds the OpenCL ICD from pocketgpu's source: run it from a clone, or give --icd DIR built by pocketgpu icd --out DIR")
	}
	sum, err := sourceHash(root)
	if err != nil {
		return "", err
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "pocketgpu", "icd-"+sum)
	if _, err := os.Stat(filepath.Join(dir, icdVendorFile)); err == nil {
		return dir, nil
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "pocketgpu: building the OpenCL ICD into %s (once per source change; about a minute)\n", dir)
	// Built beside, then renamed: two execs at once, or one killed midway,
	// never leave a half-built directory in place.
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "building-")
	if err != nil {
		if err = os.MkdirAll(filepath.Dir(dir), 0o755); err == nil {
			tmp, err = os.MkdirTemp(filepath.Dir(dir), "building-")
		}
		if err != nil {
			return "", fmt.Errorf("the ICD cache: %w", err)
		}
	}
	if err := buildICDInto(cmd.Context(), root, tmp); err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	// The vendor file names the library by its final path.
	if err := os.WriteFile(filepath.Join(tmp, icdVendorFile), []byte(filepath.Join(dir, icdLibrary)+"\n"), 0o644); err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		if _, statErr := os.Stat(filepath.Join(dir, icdVendorFile)); statErr == nil {
			return dir, nil // another exec built it first
		}
		return "", fmt.Errorf("the ICD cache: %w", err)
	}
	return dir, nil
}

// sourceHash hashes the source files the ICD is built from: every Go, C
// and header file of the module outside tests, testdata, docs and examples.
// Symbolic links to directories are followed (WalkDir does not): a tree
// of links to a checkout, as the doc test makes, would otherwise hash
// only go.mod and reuse a stale build.
func sourceHash(root string) (string, error) {
	h := sha256.New()
	if err := hashTree(h, root, "", 0); err != nil {
		return "", fmt.Errorf("reading the source to build the ICD from: %w", err)
	}
	fmt.Fprintf(h, "%s\n", runtime.Version())
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// hashTree adds the sources under dir to h, named by their paths under
// the module (prefix).
func hashTree(h io.Writer, dir, prefix string, depth int) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.Join(prefix, rel)
		isDir := d.IsDir()
		if path != dir && d.Type()&fs.ModeSymlink != 0 {
			st, err := os.Stat(path)
			if err != nil {
				return nil // a dangling link holds no source
			}
			if st.IsDir() {
				if skipSourceDir(name) || depth >= 8 {
					return nil // (a link to an ancestor would loop)
				}
				return hashTree(h, path+string(filepath.Separator), rel, depth+1)
			}
		}
		if isDir {
			if path != dir && skipSourceDir(name) {
				return filepath.SkipDir
			}
			return nil
		}
		ext := filepath.Ext(name)
		if (ext != ".go" && ext != ".c" && ext != ".h" && ext != ".yaml" && name != "go.mod" && name != "go.sum") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %d\n", filepath.ToSlash(rel), len(data))
		h.Write(data)
		return nil
	})
}

func skipSourceDir(name string) bool {
	return strings.HasPrefix(name, ".") || name == "testdata" || name == "docs" || name == "examples"
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
