// Package trace records a simulated GPU's timeline — slices on tracks
// (an engine issuing, a command-processor job, a tile) and counter tracks
// (resident warps, cache misses per interval) — and writes it as a Perfetto
// protobuf trace, which the Perfetto UI (ui.perfetto.dev) and its
// trace_processor open, and which chrome://tracing opens through Perfetto's
// importer.
//
// Perfetto's own format rather than the Chrome trace-event JSON: it has
// real counter tracks with units, a nested track hierarchy (a core's
// engines and counters under the core), interned event names and varint
// timestamps, so a slice costs about 25 bytes against about 100 in JSON.
//
// Times are nanoseconds of simulated time, so the same run gives the same
// bytes. Nothing here knows about GPUs: the timing engine and its callers
// name the tracks.
package trace

import (
	"math"
	"strings"
)

// DefaultInterval is the default counter-sampling interval in GPU cycles:
// fine enough to see a kernel's phases at the microsecond scale of the
// benchmark kernels, coarse enough that a run of 10 million cycles keeps
// under 10,000 samples a counter track.
const DefaultInterval = 1000

// Trace is one timeline being recorded: a tree of tracks under a root,
// a clock (where the next run starts) and the sampling interval. A Trace
// is not safe for concurrent use; Sub gives a goroutine a part of its own.
type Trace struct {
	root *Track
	// Interval is the cycles between two samples of a counter track.
	Interval float64
	now      float64
}

// New starts a trace whose root track is named name.
func New(name string, interval float64) *Trace {
	if interval <= 0 {
		interval = DefaultInterval
	}
	return &Trace{root: newTrack(nil, name, false, ""), Interval: interval}
}

// Sub makes a part of t under a child track named name, with its own
// clock from 0: each benchmark of a suite, recorded by its own goroutine.
// Subs are written in the order they were made, so make them in a fixed
// order.
func (t *Trace) Sub(name string) *Trace {
	return &Trace{root: t.root.child(name, false, ""), Interval: t.Interval}
}

// Now is where the next run starts on the clock, in ns.
func (t *Trace) Now() float64 { return t.now }

// SetNow moves the clock to ns (the end of a run, or a device clock).
func (t *Trace) SetNow(ns float64) { t.now = ns }

// Root is the trace's root track.
func (t *Trace) Root() *Track { return t.root }

// Track returns the slice track at path under the root, making it and
// its parents as needed.
func (t *Trace) Track(path ...string) *Track { return t.root.at(path, false, "") }

// Counter returns the counter track at path under the root (its values in
// unit), making it and its parents as needed.
func (t *Trace) Counter(unit string, path ...string) *Track { return t.root.at(path, true, unit) }

// Track is a named row of the timeline: slices, or a counter's values.
// Children are shown under it in the order they were made.
type Track struct {
	name     string
	parent   *Track
	children []*Track
	byName   map[string]*Track
	counter  bool
	unit     string
	slices   []slice
	samples  []sample
}

type slice struct {
	start, end uint64
	name       string
	args       []Arg
}

type sample struct {
	ts uint64
	v  float64
}

func newTrack(parent *Track, name string, counter bool, unit string) *Track {
	return &Track{name: name, parent: parent, counter: counter, unit: unit}
}

func (tr *Track) child(name string, counter bool, unit string) *Track {
	if c := tr.byName[name]; c != nil {
		return c
	}
	c := newTrack(tr, name, counter, unit)
	if tr.byName == nil {
		tr.byName = map[string]*Track{}
	}
	tr.byName[name] = c
	tr.children = append(tr.children, c)
	return c
}

func (tr *Track) at(path []string, counter bool, unit string) *Track {
	for i, p := range path {
		last := i == len(path)-1
		tr = tr.child(p, counter && last, unit)
	}
	return tr
}

// Name is the track's name.
func (tr *Track) Name() string { return tr.name }

// Path is the track's names from the root's child down, joined by "/".
func (tr *Track) Path() string {
	var parts []string
	for x := tr; x.parent != nil; x = x.parent {
		parts = append(parts, x.name)
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, "/")
}

// ns turns a time in ns into the trace's integer timestamps.
func ns(t float64) uint64 {
	if t <= 0 || math.IsNaN(t) {
		return 0
	}
	return uint64(math.Round(t))
}

// Slice adds a slice from start to end (ns). Slices may come in any order
// and overlap: the writer nests those that nest and moves those that
// overlap partly to sibling lanes ("name (2)").
func (tr *Track) Slice(start, end float64, name string, args ...Arg) {
	s, e := ns(start), ns(end)
	if e < s {
		e = s
	}
	tr.slices = append(tr.slices, slice{start: s, end: e, name: name, args: args})
}

// Count adds a counter value from ts (ns) on; it holds until the next.
func (tr *Track) Count(ts float64, v float64) {
	t := ns(ts)
	if n := len(tr.samples); n > 0 && tr.samples[n-1].v == v && tr.samples[n-1].ts <= t {
		return // the value holds already (the writer would drop it)
	}
	tr.samples = append(tr.samples, sample{ts: t, v: v})
}

// Arg is a named value attached to a slice (Perfetto's debug annotations,
// shown in the slice's details).
type Arg struct {
	Name string
	kind uint8
	u    uint64
	f    float64
	s    string
}

const (
	argUint uint8 = iota
	argFloat
	argString
)

// Uint is an unsigned integer argument.
func Uint(name string, v uint64) Arg { return Arg{Name: name, kind: argUint, u: v} }

// Float is a floating-point argument.
func Float(name string, v float64) Arg { return Arg{Name: name, kind: argFloat, f: v} }

// String is a string argument.
func String(name, v string) Arg { return Arg{Name: name, kind: argString, s: v} }
