package main

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/internal/doccmd"
	"github.com/pocketgpu/pocketgpu/kernel"
)

var updateDocs = flag.Bool("update-doc-excerpts", false, "rewrite the output excerpts and file blocks of README.md and docs/*.md from a fresh run")

// docCommand is what the documents tell a reader to type.
const docCommand = "go run ./cmd/pocketgpu"

// Commands the documents may show that this test does not run: the test
// command itself and the tools of the developers' workflow.
var docOtherCommands = []string{"go test", "go generate", "go install", "go build", "clang-14", "opt-14", "llvm-spirv-14", "spirv-val", "glslangValidator", "clinfo"}

// Every command in the README and docs runs as written on a fresh clone,
// from the repository's root, and every excerpt of its output matches a
// run today. The commands run in order in a scratch copy of the root, so
// what one writes (a compiled kernel, frames) is there for the next and
// nothing lands in the repository.
func TestDocCommands(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{"README.md", "DEVELOPERS.md"}
	more, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	for _, p := range more {
		rel, _ := filepath.Rel(root, p)
		paths = append(paths, rel)
	}
	scratch := scratchRoot(t, root)
	t.Chdir(scratch)
	runs := map[string]docRun{}
	for _, path := range paths {
		text, err := os.ReadFile(filepath.Join(root, path))
		if err != nil {
			t.Fatal(err)
		}
		d, err := doccmd.Parse(path, string(text))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range d.Commands() {
			where := fmt.Sprintf("%s:%d", path, c.Line)
			if bare, ok := strings.CutPrefix(c.Text, "pocketgpu "); ok {
				t.Errorf("%s: %q does not run on a fresh clone; write %s %s", where, c.Text, docCommand, bare)
				continue
			}
			if strings.HasPrefix(c.Text, "gcc ") {
				// A host program a later exec line runs.
				runDocGCC(t, where, c.Text)
				continue
			}
			if !strings.HasPrefix(c.Text, docCommand+" ") {
				tool := envPrefix.ReplaceAllString(c.Text, "") + " "
				if !slices.ContainsFunc(docOtherCommands, func(p string) bool { return strings.HasPrefix(tool, p+" ") }) {
					t.Errorf("%s: %q is neither %s nor a known tool", where, c.Text, docCommand)
				}
				continue
			}
			r, ok := runDocCommand(t, runs, where, c.Text)
			if ok && r.code != exitOK {
				t.Errorf("%s: %s: exit %d\n%s", where, c.Text, r.code, r.stderr)
			}
		}
		changed := false
		for _, b := range d.Blocks {
			if b.Marker == nil {
				if b.Lang == "" && slices.ContainsFunc(b.Lines, looksLikeCommand) {
					t.Errorf("%s:%d: a block of commands without a language: mark it sh (run by this test) or text (a synopsis)", path, b.Line)
				}
				continue
			}
			where := fmt.Sprintf("%s:%d", path, b.Line)
			switch b.Marker.Kind {
			case "file":
				data, err := os.ReadFile(filepath.Join(root, b.Marker.Path))
				if err != nil {
					t.Errorf("%s: %v", where, err)
					continue
				}
				want := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
				if slices.Equal(b.Lines, want) {
					continue
				}
				if *updateDocs {
					d.Replace(b, want)
					changed = true
					continue
				}
				t.Errorf("%s: the block differs from %s (rerun with -update-doc-excerpts)", where, b.Marker.Path)
			case "excerpt":
				r, ok := runDocCommand(t, runs, where, b.Marker.Command)
				if !ok {
					continue
				}
				if r.code != b.Marker.Exit {
					t.Errorf("%s: %s: exit %d, the excerpt expects %d\n%s", where, b.Marker.Command, r.code, b.Marker.Exit, r.stderr)
					continue
				}
				out := r.stdout + r.stderr
				if missing, ok := doccmd.Match(b.Lines, out); !ok {
					if *updateDocs {
						fresh, err := doccmd.Refresh(b.Lines, out)
						if err != nil {
							t.Errorf("%s: %v in the output of %s:\n%s", where, err, b.Marker.Command, out)
							continue
						}
						d.Replace(b, fresh)
						changed = true
						continue
					}
					t.Errorf("%s: excerpt line %q is not in today's output of %s (rerun with -update-doc-excerpts):\n%s", where, missing, b.Marker.Command, out)
				}
			}
		}
		if changed {
			if err := os.WriteFile(filepath.Join(root, path), []byte(d.Text()), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("rewrote %s", path)
		}
	}
}

// envPrefix is the VAR=value assignments in front of a command.
var envPrefix = regexp.MustCompile(`^([A-Z_][A-Z0-9_]*=\S*\s+)+`)

func looksLikeCommand(l string) bool {
	l = strings.TrimSpace(l)
	return strings.HasPrefix(l, "pocketgpu ") || strings.HasPrefix(l, "go run ")
}

type docRun struct {
	code           int
	stdout, stderr string
}

// runDocCommand runs a documented command once (later mentions reuse the
// run); ok is false when it was skipped.
func runDocCommand(t *testing.T, runs map[string]docRun, where, text string) (docRun, bool) {
	t.Helper()
	if r, ok := runs[text]; ok {
		return r, true
	}
	words, err := doccmd.Split(strings.TrimPrefix(text, docCommand))
	if err != nil {
		t.Errorf("%s: %v", where, err)
		return docRun{}, false
	}
	if why := docSkip(words); why != "" {
		t.Logf("%s: skipped %q: %s", where, text, why)
		return docRun{}, false
	}
	var out, errOut bytes.Buffer
	code := execute(words, &out, &errOut)
	if strings.Contains(errOut.String(), "goroutine ") || strings.Contains(errOut.String(), "panic:") {
		t.Errorf("%s: %s: stack trace on stderr:\n%s", where, text, errOut.String())
	}
	r := docRun{code, out.String(), errOut.String()}
	runs[text] = r
	return r, true
}

// docSkip says why a command cannot run here: it needs the compilers, or
// takes long and the run is -short.
func docSkip(words []string) string {
	if testing.Short() && len(words) > 0 && (words[0] == "demo" || words[0] == "validate") {
		return "takes 7 s or more (-short)"
	}
	if len(words) > 0 && (words[0] == "icd" || words[0] == "exec") {
		if _, err := exec.LookPath("gcc"); err != nil {
			return "the icd command needs gcc"
		}
		if _, err := os.Stat("/usr/include/CL/cl_icd.h"); err != nil {
			return "the icd command needs the OpenCL headers (opencl-c-headers)"
		}
	}
	if len(words) > 0 && words[0] == "exec" {
		for _, w := range words {
			if w == "/usr/bin/python3" && exec.Command(w, "-c", "import pyopencl").Run() != nil {
				return "no pyopencl (python3-pyopencl)"
			}
			if strings.HasPrefix(w, "./") {
				if _, err := os.Stat(w); err != nil {
					return w + " was not built (no gcc or OpenCL loader)"
				}
			}
		}
		if _, err := exec.LookPath("clinfo"); err != nil && slices.Contains(words, "clinfo") {
			return "no clinfo"
		}
	}
	needsCompiler := len(words) > 0 && (words[0] == "compile" || words[0] == "exec")
	for _, w := range words {
		if strings.HasSuffix(w, ".cl") || strings.HasSuffix(w, ".comp") || yamlNamesKernel(w) {
			needsCompiler = true
		}
	}
	if needsCompiler {
		for _, tool := range []string{"clang-14", "opt-14", "llvm-spirv-14", "spirv-val", "glslangValidator"} {
			if _, err := kernel.FindTool(tool); err != nil {
				return err.Error()
			}
		}
	}
	return ""
}

// yamlNamesKernel says whether w is a job or compute file whose kernels
// are OpenCL C or GLSL source, so running it needs the compilers.
func yamlNamesKernel(w string) bool {
	if !strings.HasSuffix(w, ".yaml") && !strings.HasSuffix(w, ".yml") {
		return false
	}
	data, err := os.ReadFile(w)
	if err != nil {
		return false
	}
	return namesKernel.Match(data)
}

var namesKernel = regexp.MustCompile(`\.(cl|comp)\b`)

// scratchRoot makes a directory that looks like the repository's root:
// examples/ copied (job files write next to themselves), everything else
// linked.
func scratchRoot(t *testing.T, root string) string {
	t.Helper()
	dir := t.TempDir()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		name := e.Name()
		if name == ".git" || name == "examples" {
			continue
		}
		if err := os.Symlink(filepath.Join(root, name), filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	src := filepath.Join(root, "examples")
	err = filepath.WalkDir(src, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		dst := filepath.Join(dir, "examples", rel)
		if e.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// Every file a command's --help example names exists in a fresh clone
// (relative to the repository's root), outputs aside.
func TestHelpExamplesUseRealFiles(t *testing.T) {
	root, stop := newRootCmd()
	defer stop()
	for _, c := range root.Commands() {
		words, err := doccmd.Split(strings.NewReplacer("\\\n", " ", "\n", " ").Replace(c.Example))
		if err != nil {
			t.Fatal(err)
		}
		for i, w := range words {
			ext := filepath.Ext(w)
			if !slices.Contains([]string{".cl", ".comp", ".spv", ".yaml", ".glb", ".gltf"}, ext) {
				continue
			}
			if i > 0 && (words[i-1] == "-o" || words[i-1] == "--output" || words[i-1] == "--out") {
				continue
			}
			if _, err := os.Stat(filepath.Join("..", "..", w)); err != nil {
				t.Errorf("%s --help: example names %s, which a fresh clone lacks", c.Name(), w)
			}
		}
	}
}

// runDocGCC builds a documented host program, if gcc and the OpenCL
// loader are here (the exec line that runs it skips otherwise).
func runDocGCC(t *testing.T, where, text string) {
	t.Helper()
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Logf("%s: skipped %q: no gcc", where, text)
		return
	}
	words, err := doccmd.Split(text)
	if err != nil {
		t.Errorf("%s: %v", where, err)
		return
	}
	if out, err := exec.Command(words[0], words[1:]...).CombinedOutput(); err != nil {
		t.Logf("%s: %q failed (OpenCL loader missing?): %v\n%s", where, text, err, out)
	}
}
