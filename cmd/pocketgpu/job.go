package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Job is one kernel run, from flags or a YAML job file (docs/run.md).
type Job struct {
	GPUs            stringList        `yaml:"gpu"`
	Kernel          string            `yaml:"kernel"`
	Entry           string            `yaml:"entry"`
	Defines         []string          `yaml:"defines"`
	Includes        []string          `yaml:"includes"`
	Global          []int             `yaml:"global"`
	Local           []int             `yaml:"local"`
	Offset          []int             `yaml:"offset"`
	Args            []string          `yaml:"args"`
	Dump            map[int]string    `yaml:"dump"`
	Print           []string          `yaml:"print"`
	Spec            map[uint32]string `yaml:"spec"`
	Functional      bool              `yaml:"functional"`
	MaxInstructions uint64            `yaml:"max_instructions"`
	WarpWidth       int               `yaml:"warp_width"`
	Detail          detailValue       `yaml:"detail"`
	Strict          bool              `yaml:"strict"`

	// dir resolves relative paths in a job file.
	dir string
	// quiet drops kernels' printf output (JSON output stays parseable).
	quiet bool
	// csv is where --csv writes the counters ("" none).
	csv string
	// hotspots asks for the per-line profile (run --hotspots); roofline
	// names the chart run --roofline writes ("" none).
	hotspots bool
	roofline string
	// html is the directory run --html writes its page to ("" none);
	// command the command line, which the page shows.
	html, command string
	// spv, when set, is the module to run (Kernel then only names it):
	// demo runs a kernel the binary carries.
	spv []byte
	// trace is --trace and --trace-interval (run only).
	trace *traceFlags
}

// profiled says whether the run charges its cost to instructions: for
// --hotspots, and for the report's hotspots.
func (j *Job) profiled() bool { return j.hotspots || j.html != "" }

// stringList accepts one string or a list.
type stringList []string

func (s *stringList) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		*s = []string{n.Value}
		return nil
	}
	var l []string
	if err := n.Decode(&l); err != nil {
		return err
	}
	*s = l
	return nil
}

// loadJob reads a job file strictly: an unknown key, a value of the wrong
// type or out of range is an error naming the file, the line and the key,
// with the nearest key when one is close.
func loadJob(path string) (*Job, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, badInputf("job file: %v", err)
	}
	j, err := decodeJob(data, path)
	if err != nil {
		return nil, badInput(err)
	}
	j.dir = filepath.Dir(path)
	if j.Kernel == "" {
		return nil, badInputf("%s: no kernel (kernel: FILE.cl, .comp or .spv)", path)
	}
	if !filepath.IsAbs(j.Kernel) {
		j.Kernel = filepath.Join(j.dir, j.Kernel)
	}
	for i, inc := range j.Includes {
		if !filepath.IsAbs(inc) {
			j.Includes[i] = filepath.Join(j.dir, inc)
		}
	}
	for k, f := range j.Dump {
		if !filepath.IsAbs(f) {
			j.Dump[k] = filepath.Join(j.dir, f)
		}
	}
	for _, g := range j.GPUs {
		if strings.HasSuffix(g, ".yaml") || strings.HasSuffix(g, ".yml") {
			for i := range j.GPUs {
				if j.GPUs[i] == g && !filepath.IsAbs(g) {
					j.GPUs[i] = filepath.Join(j.dir, g)
				}
			}
		}
	}
	return j, nil
}

// parseSize reads X[,Y[,Z]].
func parseSize(what, s string) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) > 3 {
		return nil, badInputf("--%s %q: at most three dimensions X,Y,Z", what, s)
	}
	out := make([]int, len(parts))
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n <= 0 {
			return nil, badInputf("--%s %q: dimension %d must be a positive integer", what, s, i)
		}
		out[i] = n
	}
	return out, nil
}

// parsePrint reads N[:COUNT].
func parsePrint(s string) (arg, count int, err error) {
	a, c, has := strings.Cut(s, ":")
	arg, err = strconv.Atoi(a)
	if err != nil || arg < 0 {
		return 0, 0, badInputf("--print %q: want ARG[:COUNT], ARG an argument index", s)
	}
	count = 16
	if has {
		if count, err = strconv.Atoi(c); err != nil || count <= 0 {
			return 0, 0, badInputf("--print %q: COUNT must be a positive integer", s)
		}
	}
	return arg, count, nil
}

// parseDump reads N=FILE.
func parseDump(s string) (int, string, error) {
	a, f, ok := strings.Cut(s, "=")
	n, err := strconv.Atoi(a)
	if !ok || err != nil || n < 0 || f == "" {
		return 0, "", badInputf("--dump %q: want ARG=FILE, ARG an argument index", s)
	}
	return n, f, nil
}

func parseSpecFlag(s string) (uint32, string, error) {
	a, v, ok := strings.Cut(s, "=")
	n, err := strconv.ParseUint(a, 10, 32)
	if !ok || err != nil || v == "" {
		return 0, "", badInputf("--spec %q: want ID=VALUE, ID a SpecId", s)
	}
	return uint32(n), v, nil
}

func dims3(v []int) [3]int {
	var out [3]int
	copy(out[:], v)
	return out
}

func sizeString(v [3]int, dims int) string {
	parts := make([]string, max(dims, 1))
	for i := range parts {
		parts[i] = strconv.Itoa(v[i])
	}
	return strings.Join(parts, ",")
}

var _ = fmt.Sprint
