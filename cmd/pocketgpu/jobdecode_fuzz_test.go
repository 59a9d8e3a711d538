package main

import (
	"os"
	"strings"
	"testing"
	"time"
)

// FuzzDecodeJob: any bytes as a job file give a job or an error that names
// the file, never a panic or a Go type name.
//
//	go test ./cmd/pocketgpu -run XXX -fuzz FuzzDecodeJob -fuzztime 1m
func FuzzDecodeJob(f *testing.F) {
	if data, err := os.ReadFile("../../examples/job.yaml"); err == nil {
		f.Add(data)
	}
	for _, s := range []string{
		"gpu: mali-g52\nkernel: k.spv\nglobal: 64\n",
		"gpu: [a, b]\nkernel: k.cl\nglobal: \"64,64\"\nlocal: [8, 8]\nargs: [buf:f32:4]\nspec: {0: 16}\ndump: {2: c.bin}\n",
		"argz: 1\n", "global: abc\n", "global: [-1]\n", "- a\n- b\n", "kernel: [\n", "max_instructions: -5\n",
		"gpu: x\ngpu: y\n", "&a [*a]\n", "spec: {x: 1}\n", "print: [\"1:2:3\"]\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		done := make(chan struct{})
		var j *Job
		var err error
		go func() { j, err = decodeJob(data, "job.yaml"); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("decoding %q takes more than 5 s", data)
		}
		if err == nil {
			if j == nil {
				t.Fatal("no job and no error")
			}
			return
		}
		msg := err.Error()
		if !strings.Contains(msg, "job.yaml") {
			t.Errorf("error does not name the file: %s", msg)
		}
		// Go and yaml.v3 internals, unless the file itself holds the text
		// (an unknown key is quoted back).
		for _, leak := range []string{"main.Job", "reflect", "!!", "unmarshal"} {
			if strings.Contains(msg, leak) && !strings.Contains(string(data), leak) {
				t.Errorf("error leaks %q: %s", leak, msg)
			}
		}
	})
}
