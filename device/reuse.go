package device

// This file lets a timed launch that repeats an earlier one reuse its
// time. Programs such as clpeak and mixbench enqueue the same kernel with
// the same arguments tens of times and average the times; the simulator is
// deterministic, so a launch with the same kernel, sizes, arguments and
// buffer contents, starting from the same cache state, takes exactly the
// same cycles and gives the same counters as the earlier one. Once such a
// launch left the cache state as it found it (a fixed point, usually
// reached by the second or third repeat), every later repeat reuses its
// figures instead of simulating again: exactly, not as an estimate. Its
// results are still computed, unless the earlier launch left every buffer
// as it found it too (then the buffers already hold them).

import (
	"encoding/binary"
	"hash/maphash"
	"math"

	"github.com/pocketgpu/pocketgpu/emu"
	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/spirv"
	"github.com/pocketgpu/pocketgpu/timing/mem"
)

// Detail is how much of a timed launch the simulator runs in detail.
type Detail uint8

const (
	// DetailAuto (the default) runs in detail what the figures need: a
	// launch identical to an earlier one from the same cache state reuses
	// that launch's time (exact), and a long launch is sampled: its
	// work-groups run in detail until they retire at a steady rate, the
	// rest functionally with their time projected (timing.SamplingReport).
	DetailAuto Detail = iota
	// DetailFull simulates every launch in detail.
	DetailFull
)

// String is the name the command line and POCKETGPU_DETAIL use.
func (d Detail) String() string {
	if d == DetailFull {
		return "full"
	}
	return "auto"
}

// ParseDetail reads "auto" or "full".
func ParseDetail(s string) (Detail, bool) {
	switch s {
	case "auto", "":
		return DetailAuto, true
	case "full":
		return DetailFull, true
	}
	return DetailAuto, false
}

// DetailReport says how a timed result was made.
type DetailReport struct {
	// Mode is "full" (every work-group simulated in detail), "sampled"
	// (work-groups in detail until steady, the rest run functionally and
	// their time projected) or "reused" (the figures of an identical
	// earlier launch from the same state).
	Mode string
	// WorkGroups and Detailed: of a sampled launch's work-groups, how many
	// the timing model simulated; ErrorPct estimates the error of its
	// cycles, in percent (timing.SamplingReport).
	WorkGroups, Detailed int
	ErrorPct             float64
	// ReusedFrom is the device's number of the launch whose figures a
	// reused result repeats (launches count from 1); Launch is this one's.
	ReusedFrom, Launch int
	// FunctionalSkipped: a reused launch whose earlier twin changed no
	// buffer did not run the kernel again (its results are already there).
	FunctionalSkipped bool
}

// hash64 is a content hash (maphash, seeded once per process): equal
// inputs hash equal, different ones collide with probability about 2^-64.
// One pass at the host's memory speed (about 10 GB/s here) matters: a
// program like clpeak launches over a 256 MiB buffer hundreds of times.
type hash64 uint64

var reuseSeed = maphash.MakeSeed()

// hasher hashes a launch's parts.
type hasher struct{ h maphash.Hash }

func newHasher() *hasher {
	var x hasher
	x.h.SetSeed(reuseSeed)
	return &x
}

func (x *hasher) write(b []byte) { x.h.Write(b) }

func (x *hasher) u64(v uint64) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], v)
	x.h.Write(b[:])
}

func (x *hasher) sum() hash64 { return hash64(x.h.Sum64()) }

// launchKey is everything but memory contents and cache state that decides
// a timed launch: the kernel's module and entry point, the NDRange, the
// warp width and packing, and every argument's binding.
type launchKey hash64

// keyOf computes a prepared launch's key.
func keyOf(k *Kernel, ed *emu.Dispatch) launchKey {
	x := newHasher()
	x.u64(uint64(k.ident))
	for _, v := range []int{ed.Dims, ed.Width, ed.Pack, boolInt(ed.Strict)} {
		x.u64(uint64(v))
	}
	for i := range 3 {
		x.u64(uint64(ed.Global[i]))
		x.u64(uint64(ed.Local[i]))
		x.u64(uint64(ed.Offset[i]))
	}
	for _, p := range ed.Params {
		x.u64(uint64(len(p.Slots)))
		for _, s := range p.Slots {
			x.u64(s)
		}
		x.u64(uint64(p.LocalBytes))
		x.u64(uint64(len(p.ByVal)))
		x.write(p.ByVal)
	}
	for _, img := range ed.Images {
		if img == nil {
			x.u64(0)
			continue
		}
		for _, v := range []int{int(img.Dim), img.Width, img.Height, img.Depth, img.Channels, int(img.Type),
			img.RowPitch, img.SlicePitch, boolInt(img.Arrayed), boolInt(img.BGRA), len(img.Mips)} {
			x.u64(uint64(v))
		}
		if img.Buf != nil {
			x.u64(img.Buf.Base)
			x.u64(uint64(len(img.Buf.Data)))
		}
		for _, m := range img.Mips {
			x.u64(uint64(m.Width))
			x.u64(uint64(m.Height))
			x.u64(uint64(m.Depth))
			x.u64(uint64(m.Offset))
			x.u64(uint64(m.RowPitch))
			x.u64(uint64(m.SlicePitch))
		}
	}
	return launchKey(x.sum())
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// contentsOf hashes the memory a launch can reach: its buffers' and
// images' bytes (a kernel reaches nothing else; its constants are part of
// its module).
func contentsOf(args []Arg) hash64 {
	x := newHasher()
	for _, a := range args {
		switch {
		case a.Kind == ArgBuffer && a.Buffer != nil:
			x.write(a.Buffer.Bytes())
		case a.Kind == ArgImage && a.Image != nil && a.Image.buf != nil:
			x.write(a.Image.buf.Bytes())
		}
		x.u64(math.MaxUint64) // a separator: moved bytes hash differently
	}
	return x.sum()
}

// prints reports whether the kernel calls printf: its output must come
// out again on every launch.
func (k *Kernel) prints() bool {
	for _, c := range k.prog.Ext {
		if c.Set == ir.ExtOpenCL && spirv.OpenCLStd(c.Num) == spirv.OpenCLStdPrintf {
			return true
		}
	}
	return false
}

// launchRecord is a detailed launch as the memo keeps it.
type launchRecord struct {
	key        launchKey
	pre, post  hash64    // buffer contents before and after
	start, end mem.State // cache state before and after
	launch     int       // the device's number of the launch
	result     TimedResult
}

// launchMemo keeps the latest detailed launches.
type launchMemo struct {
	records  []*launchRecord
	launches int
	// state is the memory hierarchy's state as last fingerprinted, while
	// stateKnown: a launch that reuses a record leaves the caches as they
	// were, so a run of repeats fingerprints them once (State hashes every
	// cache line: 0.5 ms a launch on the Adreno 640, two thirds of clpeak's
	// kernel-latency test).
	state      mem.State
	stateKnown bool
}

// startState is the hierarchy's state, fingerprinted again only if a
// detailed launch or a cache reset may have changed it.
func (m *launchMemo) startState(h *mem.Hierarchy) mem.State {
	if !m.stateKnown {
		m.state, m.stateKnown = h.State(), true
	}
	return m.state
}

// memoSize bounds the records kept: a program cycling through more
// distinct launches than this gets no reuse, and the memo stays small
// (a record is a counter set).
const memoSize = 64

// find returns a record of a launch with key from the same contents and
// cache state that left the cache state as it found it, or nil.
func (m *launchMemo) find(key launchKey, pre hash64, start mem.State) *launchRecord {
	for i := len(m.records) - 1; i >= 0; i-- {
		r := m.records[i]
		if r.key == key && r.pre == pre && r.start == start && r.end == start {
			return r
		}
	}
	return nil
}

// add keeps r, dropping the oldest record past memoSize.
func (m *launchMemo) add(r *launchRecord) {
	if len(m.records) == memoSize {
		copy(m.records, m.records[1:])
		m.records = m.records[:memoSize-1]
	}
	m.records = append(m.records, r)
}

// reused is a copy of r's result for a new launch: the counters are the
// record's, deep-copied so that callers may change theirs.
func (r *launchRecord) reused(launch int) *TimedResult {
	res := r.result
	t := *r.result.Timing
	t.Counters = append(t.Counters[:0:0], t.Counters...)
	t.PerCore = nil
	for _, pc := range r.result.Timing.PerCore {
		t.PerCore = append(t.PerCore, append(pc[:0:0], pc...))
	}
	res.Timing = &t
	res.Detail = DetailReport{Mode: "reused", ReusedFrom: r.launch, Launch: launch}
	return &res
}
