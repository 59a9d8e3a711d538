package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/pocketgpu/pocketgpu/internal/suggest"
)

// jobKeyWants says, per job-file key, what its value looks like; an error
// about a value quotes it.
var jobKeyWants = map[string]string{
	"gpu":              "a GPU or a list of GPUs, like mali-g52 or [mali-g52, adreno-640]",
	"kernel":           "a file name (.cl, .comp or .spv)",
	"entry":            "an entry-point name",
	"defines":          "a list of NAME[=VALUE], like [N=64]",
	"includes":         "a list of directories",
	"global":           "up to three positive integers, like [1024] or [64, 64]",
	"local":            "up to three positive integers, like [64] or [8, 8]",
	"offset":           "up to three integers of at least 0, like [0, 16]",
	"args":             "a list of kernel arguments, like [buf:f32:1024=random, u32:1024]",
	"dump":             "a mapping from argument index to file, like {2: out.bin}",
	"print":            "a list of N[:COUNT], like [\"2:8\"]",
	"spec":             "a mapping from SpecId to value, like {0: 64}",
	"functional":       "true or false",
	"max_instructions": "a whole number of at least 1",
	"warp_width":       "a positive integer",
	"detail":           "auto or full",
	"strict":           "true or false",
}

// jobError is a job-file error at a line.
type jobError struct {
	file string
	line int
	key  string
	msg  string
}

func (e *jobError) Error() string {
	where := e.file
	if e.line > 0 {
		where = fmt.Sprintf("%s:%d", e.file, e.line)
	}
	if e.key == "" {
		return where + ": " + e.msg
	}
	return where + ": " + e.key + ": " + e.msg
}

// jobFields maps each yaml key of Job to its field index.
func jobFields() (map[string]int, []string) {
	t := reflect.TypeOf(Job{})
	idx := map[string]int{}
	var keys []string
	for i := 0; i < t.NumField(); i++ {
		tag := t.Field(i).Tag.Get("yaml")
		if tag == "" || tag == "-" {
			continue
		}
		idx[tag] = i
		keys = append(keys, tag)
	}
	return idx, keys
}

// decodeJob reads a job file's YAML key by key, so that every error can
// name its line and key in the user's terms instead of yaml's Go types.
func decodeJob(data []byte, file string) (*Job, error) {
	idx, keys := jobFields()
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &jobError{file: file, msg: "empty; a job needs at least kernel:, global: and gpu: (see docs/run.md)"}
		}
		msg, line := strings.TrimPrefix(err.Error(), "yaml: "), 0
		if n, err := fmt.Sscanf(msg, "line %d:", &line); n == 1 && err == nil {
			msg = strings.TrimSpace(msg[strings.IndexByte(msg, ':')+1:])
		}
		return nil, &jobError{file: file, line: line, msg: "not valid YAML: " + msg}
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		return nil, &jobError{file: file, line: root.Line, msg: "want a mapping of keys (" + strings.Join(keys, ", ") + ")"}
	}
	j := &Job{}
	v := reflect.ValueOf(j).Elem()
	seen := map[string]int{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, val := root.Content[i], root.Content[i+1]
		key := k.Value
		fi, ok := idx[key]
		if !ok {
			return nil, &jobError{file: file, line: k.Line, key: key,
				msg: "unknown key" + suggest.DidYouMean(key, keys) + "; the keys are: " + strings.Join(keys, ", ")}
		}
		if prev, dup := seen[key]; dup {
			return nil, &jobError{file: file, line: k.Line, key: key, msg: fmt.Sprintf("given twice (first on line %d)", prev)}
		}
		seen[key] = k.Line
		if err := decodeJobValue(val, key, v.Field(fi).Addr().Interface()); err != nil {
			return nil, &jobError{file: file, line: val.Line, key: key, msg: err.Error()}
		}
	}
	if err := checkJob(j, seen, file); err != nil {
		return nil, err
	}
	return j, nil
}

// decodeJobValue decodes one value; sizes may also be written as the flag's
// "64,64".
func decodeJobValue(val *yaml.Node, key string, dst any) error {
	if sizes, ok := dst.(*[]int); ok && val.Kind == yaml.ScalarNode && strings.Contains(val.Value, ",") {
		out, err := parseSize(key, val.Value)
		if err != nil {
			return fmt.Errorf("want %s, got %q", jobKeyWants[key], val.Value)
		}
		*sizes = out
		return nil
	}
	if sizes, ok := dst.(*[]int); ok && val.Kind == yaml.ScalarNode {
		var n int
		if err := val.Decode(&n); err != nil {
			return fmt.Errorf("want %s, got %q", jobKeyWants[key], val.Value)
		}
		*sizes = []int{n}
		return nil
	}
	if err := val.Decode(dst); err != nil {
		got := val.Value
		switch val.Kind {
		case yaml.MappingNode:
			got = "a mapping"
		case yaml.SequenceNode:
			got = "a list"
		default:
			got = fmt.Sprintf("%q", got)
		}
		return fmt.Errorf("want %s, got %s", jobKeyWants[key], got)
	}
	return nil
}

// checkJob checks ranges the types do not.
func checkJob(j *Job, seen map[string]int, file string) error {
	at := func(key, format string, args ...any) error {
		return &jobError{file: file, line: seen[key], key: key, msg: fmt.Sprintf(format, args...)}
	}
	for _, s := range []struct {
		key string
		v   []int
		min int
	}{{"global", j.Global, 1}, {"local", j.Local, 1}, {"offset", j.Offset, 0}} {
		if _, given := seen[s.key]; !given {
			continue
		}
		if len(s.v) == 0 || len(s.v) > 3 {
			return at(s.key, "want %s, got %d values", jobKeyWants[s.key], len(s.v))
		}
		for d, n := range s.v {
			if n < s.min {
				return at(s.key, "%d in dimension %d is out of range; want %s", n, d, jobKeyWants[s.key])
			}
		}
	}
	if _, given := seen["max_instructions"]; given && j.MaxInstructions == 0 {
		return at("max_instructions", "0 is out of range; want %s (leave it out for the default budget)", jobKeyWants["max_instructions"])
	}
	if _, given := seen["warp_width"]; given && j.WarpWidth <= 0 {
		return at("warp_width", "%d is out of range; want %s", j.WarpWidth, jobKeyWants["warp_width"])
	}
	var bad []int
	for n := range j.Dump {
		if n < 0 {
			bad = append(bad, n)
		}
	}
	if len(bad) > 0 {
		sort.Ints(bad)
		return at("dump", "argument index %d is out of range; want %s", bad[0], jobKeyWants["dump"])
	}
	for _, p := range j.Print {
		if _, _, err := parsePrint(p); err != nil {
			return at("print", "%q: want %s", p, jobKeyWants["print"])
		}
	}
	return nil
}

// UnmarshalYAML reads a job file's detail: auto or full.
func (v *detailValue) UnmarshalYAML(n *yaml.Node) error {
	var s string
	if err := n.Decode(&s); err != nil {
		return err
	}
	return v.Set(s)
}
