package trace

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"sort"

	"google.golang.org/protobuf/encoding/protowire"
)

// Field numbers and enum values of Perfetto's trace protos
// (protos/perfetto/trace/: trace.proto, trace_packet.proto,
// track_event/track_descriptor.proto, counter_descriptor.proto,
// track_event.proto, debug_annotation.proto,
// interned_data/interned_data.proto). The decoder reads the same ones.
const (
	fTracePacket = 1 // Trace.packet

	fPacketTimestamp     = 8  // TracePacket.timestamp
	fPacketSequenceID    = 10 // TracePacket.trusted_packet_sequence_id
	fPacketTrackEvent    = 11 // TracePacket.track_event
	fPacketInternedData  = 12 // TracePacket.interned_data
	fPacketSequenceFlags = 13 // TracePacket.sequence_flags
	fPacketTrackDesc     = 60 // TracePacket.track_descriptor

	seqIncrementalStateCleared = 1 // TracePacket.SequenceFlags
	seqNeedsIncrementalState   = 2

	fDescUUID          = 1  // TrackDescriptor.uuid
	fDescName          = 2  // TrackDescriptor.name
	fDescParentUUID    = 5  // TrackDescriptor.parent_uuid
	fDescCounter       = 8  // TrackDescriptor.counter
	fDescChildOrdering = 11 // TrackDescriptor.child_ordering
	fDescSiblingRank   = 12 // TrackDescriptor.sibling_order_rank
	childOrderExplicit = 3  // TrackDescriptor.ChildTracksOrdering.EXPLICIT

	fCounterUnitName = 6 // CounterDescriptor.unit_name

	fEventDebugAnnotations = 4  // TrackEvent.debug_annotations
	fEventType             = 9  // TrackEvent.type
	fEventNameIID          = 10 // TrackEvent.name_iid
	fEventTrackUUID        = 11 // TrackEvent.track_uuid
	fEventCounterValue     = 30 // TrackEvent.counter_value
	fEventDoubleCounter    = 44 // TrackEvent.double_counter_value

	typeSliceBegin = 1 // TrackEvent.Type
	typeSliceEnd   = 2
	typeCounter    = 4

	fInternedEventNames = 2 // InternedData.event_names
	fInternedArgNames   = 3 // InternedData.debug_annotation_names
	fInternedIID        = 1 // EventName.iid, DebugAnnotationName.iid
	fInternedName       = 2 // EventName.name, DebugAnnotationName.name

	fArgNameIID     = 1 // DebugAnnotation.name_iid
	fArgUintValue   = 3 // DebugAnnotation.uint_value
	fArgDoubleValue = 5 // DebugAnnotation.double_value
	fArgStringValue = 6 // DebugAnnotation.string_value

	sequenceID = 1 // the one packet sequence this writer makes
)

// outTrack is a track as written: a Track, or one of its extra lanes.
type outTrack struct {
	uuid, parent uint64
	name         string
	counter      bool
	unit         string
	rank         int
	hasChildren  bool
	// A slice lane's begins and ends, or a counter's values: one of the two.
	events  []event
	slices  []slice
	samples []sample
}

// event is a slice lane's begin (of slices[i]) or end. It holds no
// pointer, so a long trace's events cost the garbage collector nothing.
type event struct {
	ts  uint64
	i   int32
	typ uint8
}

// len is how many events the track writes.
func (ot *outTrack) len() int {
	if ot.counter {
		return len(ot.samples)
	}
	return len(ot.events)
}

// ts is the time of the track's i'th event.
func (ot *outTrack) ts(i int) uint64 {
	if ot.counter {
		return ot.samples[i].ts
	}
	return ot.events[i].ts
}

// WriteTo writes the trace in Perfetto's protobuf format. It may be
// called again after more is recorded; the output depends only on what
// was recorded.
func (t *Trace) WriteTo(w io.Writer) (int64, error) {
	var tracks []*outTrack
	// walk writes tr (and its lanes) at rank among its siblings; it
	// returns how many ranks they take.
	var walk func(tr *Track, parent uint64, rank int) int
	walk = func(tr *Track, parent uint64, rank int) int {
		lanes := [][]slice{nil}
		if !tr.counter {
			lanes = splitLanes(tr.slices)
		}
		var first *outTrack
		for i, l := range lanes {
			name := tr.name
			if i > 0 {
				name = fmt.Sprintf("%s (%d)", tr.name, i+1)
			}
			ot := &outTrack{uuid: uint64(len(tracks) + 1), parent: parent, name: name, counter: tr.counter, unit: tr.unit, rank: rank + i}
			tracks = append(tracks, ot)
			if tr.counter {
				ot.samples = counterSamples(tr.samples)
			} else {
				ot.slices, ot.events = l, sliceEvents(l)
			}
			if first == nil {
				first = ot
			}
		}
		first.hasChildren = len(tr.children) > 0
		r := 0
		for _, c := range tr.children {
			r += walk(c, first.uuid, r)
		}
		return len(lanes)
	}
	walk(t.root, 0, 0)

	bw := bufio.NewWriterSize(w, 1<<16)
	enc := &encoder{w: bw, names: map[string]uint64{}, argNames: map[string]uint64{}}
	enc.first()
	for _, ot := range tracks {
		enc.descriptor(ot)
	}
	merge(tracks, enc.event)
	if enc.err == nil {
		enc.err = bw.Flush()
	}
	return enc.n, enc.err
}

// ordered is a track's slices by start, the longer first when two start
// together (so it encloses the other), then as recorded.
func ordered(ss []slice) []slice {
	out := append([]slice(nil), ss...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].start != out[j].start {
			return out[i].start < out[j].start
		}
		return out[i].end > out[j].end
	})
	return out
}

// splitLanes puts each slice on the first lane where it nests inside or
// follows what is open there: Perfetto nests slices on a track by their
// begin and end, so a slice that overlaps another partly needs a lane of
// its own.
func splitLanes(ss []slice) [][]slice {
	if len(ss) == 0 {
		return [][]slice{nil}
	}
	// Most tracks hold slices one after another, recorded in order.
	follow := true
	for i := 1; i < len(ss) && follow; i++ {
		follow = ss[i].start >= ss[i-1].end && ss[i].start > ss[i-1].start
	}
	if follow {
		return [][]slice{ss}
	}
	var lanes [][]slice
	var open [][]uint64 // per lane, the ends of its open slices
	for _, s := range ordered(ss) {
		placed := false
		for i := range lanes {
			st := open[i]
			for len(st) > 0 && st[len(st)-1] <= s.start {
				st = st[:len(st)-1]
			}
			if len(st) == 0 || st[len(st)-1] >= s.end {
				open[i] = append(st, s.end)
				lanes[i] = append(lanes[i], s)
				placed = true
				break
			}
			open[i] = st
		}
		if !placed {
			lanes = append(lanes, []slice{s})
			open = append(open, []uint64{s.end})
		}
	}
	return lanes
}

// sliceEvents is a lane's begin and end events in time order (a slice
// ends before the next one that starts at its end begins).
func sliceEvents(lane []slice) []event {
	out := make([]event, 0, 2*len(lane))
	var stack []uint64
	for i := range lane {
		s := lane[i]
		for len(stack) > 0 && stack[len(stack)-1] <= s.start {
			out = append(out, event{ts: stack[len(stack)-1], typ: typeSliceEnd})
			stack = stack[:len(stack)-1]
		}
		out = append(out, event{ts: s.start, typ: typeSliceBegin, i: int32(i)})
		stack = append(stack, s.end)
	}
	for len(stack) > 0 {
		out = append(out, event{ts: stack[len(stack)-1], typ: typeSliceEnd})
		stack = stack[:len(stack)-1]
	}
	return out
}

// counterSamples is a counter track's values in time order, leaving out
// a value equal to the one before it (it would change nothing) and all but
// the last of values at one time. Samples recorded in order and already
// so (the engine's are) are used as they are.
func counterSamples(ss []sample) []sample {
	clean := func(s []sample) bool {
		for i := 1; i < len(s); i++ {
			if s[i].ts <= s[i-1].ts || s[i].v == s[i-1].v {
				return false
			}
		}
		return true
	}
	if clean(ss) {
		return ss
	}
	s := append([]sample(nil), ss...)
	sort.SliceStable(s, func(i, j int) bool { return s[i].ts < s[j].ts })
	out := s[:0]
	for i, x := range s {
		if i+1 < len(s) && s[i+1].ts == x.ts {
			continue
		}
		if n := len(out); n > 0 && out[n-1].v == x.v {
			continue
		}
		out = append(out, x)
	}
	return out
}

// encoder writes packets, interning event and argument names on first
// use.
type encoder struct {
	w        *bufio.Writer
	n        int64
	err      error
	pkt, sub []byte
	hdr      [16]byte
	names    map[string]uint64
	argNames map[string]uint64
	interned []byte // interned data for the packet being built
}

func (e *encoder) flush(pkt []byte) {
	if e.err != nil {
		return
	}
	h := protowire.AppendTag(e.hdr[:0], fTracePacket, protowire.BytesType)
	h = protowire.AppendVarint(h, uint64(len(pkt)))
	e.write(h)
	e.write(pkt)
}

func (e *encoder) write(b []byte) {
	if e.err != nil {
		return
	}
	n, err := e.w.Write(b)
	e.n += int64(n)
	e.err = err
}

// first opens the sequence: its incremental state (the interned names)
// starts empty here.
func (e *encoder) first() {
	p := protowire.AppendTag(nil, fPacketSequenceID, protowire.VarintType)
	p = protowire.AppendVarint(p, sequenceID)
	p = protowire.AppendTag(p, fPacketSequenceFlags, protowire.VarintType)
	p = protowire.AppendVarint(p, seqIncrementalStateCleared)
	e.flush(p)
}

func (e *encoder) descriptor(ot *outTrack) {
	d := protowire.AppendTag(e.sub[:0], fDescUUID, protowire.VarintType)
	d = protowire.AppendVarint(d, ot.uuid)
	d = protowire.AppendTag(d, fDescName, protowire.BytesType)
	d = protowire.AppendString(d, ot.name)
	if ot.parent != 0 {
		d = protowire.AppendTag(d, fDescParentUUID, protowire.VarintType)
		d = protowire.AppendVarint(d, ot.parent)
	}
	if ot.counter {
		var c []byte
		if ot.unit != "" {
			c = protowire.AppendTag(c, fCounterUnitName, protowire.BytesType)
			c = protowire.AppendString(c, ot.unit)
		}
		d = protowire.AppendTag(d, fDescCounter, protowire.BytesType)
		d = protowire.AppendBytes(d, c)
	}
	if ot.hasChildren {
		d = protowire.AppendTag(d, fDescChildOrdering, protowire.VarintType)
		d = protowire.AppendVarint(d, childOrderExplicit)
	}
	d = protowire.AppendTag(d, fDescSiblingRank, protowire.VarintType)
	d = protowire.AppendVarint(d, uint64(ot.rank))
	e.sub = d
	p := protowire.AppendTag(e.pkt[:0], fPacketSequenceID, protowire.VarintType)
	p = protowire.AppendVarint(p, sequenceID)
	p = protowire.AppendTag(p, fPacketTrackDesc, protowire.BytesType)
	p = protowire.AppendBytes(p, d)
	e.pkt = p
	e.flush(p)
}

// intern returns name's iid in table m, adding its definition to the
// packet's interned data the first time.
func (e *encoder) intern(m map[string]uint64, field protowire.Number, name string) uint64 {
	if iid, ok := m[name]; ok {
		return iid
	}
	iid := uint64(len(m) + 1)
	m[name] = iid
	var n []byte
	n = protowire.AppendTag(n, fInternedIID, protowire.VarintType)
	n = protowire.AppendVarint(n, iid)
	n = protowire.AppendTag(n, fInternedName, protowire.BytesType)
	n = protowire.AppendString(n, name)
	e.interned = protowire.AppendTag(e.interned, field, protowire.BytesType)
	e.interned = protowire.AppendBytes(e.interned, n)
	return iid
}

// event writes the track's i'th event.
func (e *encoder) event(ot *outTrack, i int) {
	e.interned = e.interned[:0]
	var ts uint64
	typ := uint8(typeCounter)
	if !ot.counter {
		ts, typ = ot.events[i].ts, ot.events[i].typ
	}
	te := protowire.AppendTag(e.sub[:0], fEventType, protowire.VarintType)
	te = protowire.AppendVarint(te, uint64(typ))
	te = protowire.AppendTag(te, fEventTrackUUID, protowire.VarintType)
	te = protowire.AppendVarint(te, ot.uuid)
	switch typ {
	case typeSliceBegin:
		s := &ot.slices[ot.events[i].i]
		te = protowire.AppendTag(te, fEventNameIID, protowire.VarintType)
		te = protowire.AppendVarint(te, e.intern(e.names, fInternedEventNames, s.name))
		for _, a := range s.args {
			var d []byte
			d = protowire.AppendTag(d, fArgNameIID, protowire.VarintType)
			d = protowire.AppendVarint(d, e.intern(e.argNames, fInternedArgNames, a.Name))
			switch a.kind {
			case argUint:
				d = protowire.AppendTag(d, fArgUintValue, protowire.VarintType)
				d = protowire.AppendVarint(d, a.u)
			case argFloat:
				d = protowire.AppendTag(d, fArgDoubleValue, protowire.Fixed64Type)
				d = protowire.AppendFixed64(d, math.Float64bits(a.f))
			case argString:
				d = protowire.AppendTag(d, fArgStringValue, protowire.BytesType)
				d = protowire.AppendString(d, a.s)
			}
			te = protowire.AppendTag(te, fEventDebugAnnotations, protowire.BytesType)
			te = protowire.AppendBytes(te, d)
		}
	case typeCounter:
		ts = ot.samples[i].ts
		// Whole values as varints: most counters count things.
		if v := ot.samples[i].v; v == math.Trunc(v) && math.Abs(v) < 1<<53 {
			te = protowire.AppendTag(te, fEventCounterValue, protowire.VarintType)
			te = protowire.AppendVarint(te, uint64(int64(v)))
		} else {
			te = protowire.AppendTag(te, fEventDoubleCounter, protowire.Fixed64Type)
			te = protowire.AppendFixed64(te, math.Float64bits(v))
		}
	}
	e.sub = te
	p := protowire.AppendTag(e.pkt[:0], fPacketTimestamp, protowire.VarintType)
	p = protowire.AppendVarint(p, ts)
	p = protowire.AppendTag(p, fPacketSequenceID, protowire.VarintType)
	p = protowire.AppendVarint(p, sequenceID)
	p = protowire.AppendTag(p, fPacketSequenceFlags, protowire.VarintType)
	p = protowire.AppendVarint(p, seqNeedsIncrementalState)
	if len(e.interned) > 0 {
		p = protowire.AppendTag(p, fPacketInternedData, protowire.BytesType)
		p = protowire.AppendBytes(p, e.interned)
	}
	p = protowire.AppendTag(p, fPacketTrackEvent, protowire.BytesType)
	p = protowire.AppendBytes(p, te)
	e.pkt = p
	e.flush(p)
}

// merge calls f for every track's events in time order: each track's are
// in order already, so a heap of the tracks by their next event's time
// interleaves them (ties: the track written first).
func merge(tracks []*outTrack, f func(*outTrack, int)) {
	// A cursor keeps its next event's time and its track's uuid in line:
	// comparing them is the merge's inner loop.
	type cursor struct {
		ts, uuid uint64
		t        *outTrack
		i        int
	}
	var h []cursor
	less := func(a, b *cursor) bool {
		if a.ts != b.ts {
			return a.ts < b.ts
		}
		return a.uuid < b.uuid
	}
	down := func(i int) {
		for {
			l := 2*i + 1
			if l >= len(h) {
				return
			}
			j := l
			if r := l + 1; r < len(h) && less(&h[r], &h[l]) {
				j = r
			}
			if !less(&h[j], &h[i]) {
				return
			}
			h[i], h[j] = h[j], h[i]
			i = j
		}
	}
	for _, t := range tracks {
		if t.len() > 0 {
			h = append(h, cursor{ts: t.ts(0), uuid: t.uuid, t: t})
		}
	}
	for i := len(h)/2 - 1; i >= 0; i-- {
		down(i)
	}
	for len(h) > 0 {
		c := &h[0]
		f(c.t, c.i)
		if c.i++; c.i == c.t.len() {
			h[0] = h[len(h)-1]
			h = h[:len(h)-1]
		} else {
			c.ts = c.t.ts(c.i)
		}
		down(0)
	}
}
