package main

import (
	"fmt"
	"io"
	"math"
	"os"

	"github.com/spf13/cobra"

	"github.com/pocketgpu/pocketgpu/timing/trace"
)

// traceFlags are --trace FILE and --trace-interval CYCLES, shared by run,
// render and bench (docs/trace.md).
type traceFlags struct {
	file     string
	interval float64
}

// runInterval is run's and render's default --trace-interval.
const runInterval = trace.DefaultInterval

// suiteInterval is bench's and demo's default --trace-interval: a suite
// runs thousands of launches, some of millions of cycles (the latency
// sweeps), and at run's default its trace would be ten times larger.
const suiteInterval = 10 * trace.DefaultInterval

// addTraceFlags adds the flags, with interval as --trace-interval's
// default.
func addTraceFlags(cmd *cobra.Command, t *traceFlags, interval float64) {
	f := cmd.Flags()
	f.StringVar(&t.file, "trace", "", "write a timeline of the run to FILE (Perfetto protobuf: open it in ui.perfetto.dev)")
	f.Float64Var(&t.interval, "trace-interval", interval, "GPU cycles between two samples of the trace's counter tracks, and the longest an issue slice gets")
	nameArgs(cmd, "trace", "FILE", "trace-interval", "CYCLES")
}

// traceOut is a trace being recorded and the file it goes to.
type traceOut struct {
	*trace.Trace
	f    *os.File
	name string
	done bool
}

// check refuses bad flag values before anything runs.
func (t *traceFlags) check(cmd *cobra.Command) error {
	if cmd.Flags().Changed("trace-interval") && t.file == "" {
		return badInputf("--trace-interval needs --trace FILE")
	}
	if t.file != "" && (!(t.interval >= 1) || math.IsInf(t.interval, 1)) {
		return badInputf("--trace-interval %g: want a number of cycles, 1 or more", t.interval)
	}
	return nil
}

// create makes the file before the run, so a bad path fails before any
// work; nil without --trace. root names the trace's top track.
func (t *traceFlags) create(root string) (*traceOut, error) {
	if t == nil || t.file == "" {
		return nil, nil
	}
	f, err := os.Create(t.file)
	if err != nil {
		return nil, badInputf("--trace %s: %v", t.file, unwrapPath(err))
	}
	return &traceOut{Trace: trace.New(root, t.interval), f: f, name: t.file}, nil
}

// sub is the part of the trace for one GPU (nil without a trace).
func (o *traceOut) sub(name string) *trace.Trace {
	if o == nil {
		return nil
	}
	return o.Sub(name)
}

// abort closes and removes the file of a run that failed, unless the
// trace was written.
func (o *traceOut) abort() {
	if o != nil && !o.done {
		o.done = true
		o.f.Close()
		os.Remove(o.name)
	}
}

// unwrapPath drops the path an *os.PathError repeats.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// finish writes the trace (also after a run that failed part way: what
// ran is on it) and says where to stderr.
func (o *traceOut) finish(stderr io.Writer) error {
	if o == nil || o.done {
		return nil
	}
	o.done = true
	n, err := o.WriteTo(o.f)
	if cerr := o.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("--trace %s: %w", o.name, err)
	}
	fmt.Fprintf(stderr, "wrote trace %s (%d bytes)\n", o.name, n)
	return nil
}
