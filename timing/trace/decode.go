package trace

import (
	"fmt"
	"math"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
)

// Decoded is a trace read back with the schema the writer uses: what the
// tests check, and what a tool can summarise without the Perfetto UI.
type Decoded struct {
	Tracks []DecodedTrack
	// Events in file order.
	Events []DecodedEvent
	byUUID map[uint64]int
}

// DecodedTrack is a track descriptor.
type DecodedTrack struct {
	UUID, Parent uint64
	Name         string
	Counter      bool
	Unit         string
}

// DecodedEvent is a track event with its interned names resolved.
type DecodedEvent struct {
	TS    uint64
	Type  int // 1 slice begin, 2 slice end, 4 counter
	Track uint64
	Name  string
	Value float64
	Args  map[string]any // uint64, float64 or string
}

// DecodedSlice is a begin and its end on one track.
type DecodedSlice struct {
	Track      uint64
	Name       string
	Start, End uint64
	Args       map[string]any
}

// Decode reads a trace the writer made. It fails on malformed protobuf, an
// event on a track never described, an end with no begin and a name iid
// never interned.
func Decode(data []byte) (*Decoded, error) {
	d := &Decoded{byUUID: map[uint64]int{}}
	names, argNames := map[uint64]string{}, map[uint64]string{}
	err := fields(data, func(num protowire.Number, typ protowire.Type, v uint64, b []byte) error {
		if num != fTracePacket || typ != protowire.BytesType {
			return nil
		}
		return d.packet(b, names, argNames)
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

// fields calls f for each field of message b (v for varints and fixed
// values, b for bytes).
func fields(b []byte, f func(num protowire.Number, typ protowire.Type, v uint64, b []byte) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return fmt.Errorf("trace: bad tag: %w", protowire.ParseError(n))
		}
		b = b[n:]
		var v uint64
		var sub []byte
		switch typ {
		case protowire.VarintType:
			v, n = protowire.ConsumeVarint(b)
		case protowire.Fixed64Type:
			v, n = protowire.ConsumeFixed64(b)
		case protowire.Fixed32Type:
			var x uint32
			x, n = protowire.ConsumeFixed32(b)
			v = uint64(x)
		case protowire.BytesType:
			sub, n = protowire.ConsumeBytes(b)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return fmt.Errorf("trace: field %d: %w", num, protowire.ParseError(n))
		}
		b = b[n:]
		if err := f(num, typ, v, sub); err != nil {
			return err
		}
	}
	return nil
}

func (d *Decoded) packet(b []byte, names, argNames map[uint64]string) error {
	var ts uint64
	var te, desc []byte
	err := fields(b, func(num protowire.Number, typ protowire.Type, v uint64, sub []byte) error {
		switch num {
		case fPacketTimestamp:
			ts = v
		case fPacketTrackEvent:
			te = sub
		case fPacketTrackDesc:
			desc = sub
		case fPacketInternedData:
			return fields(sub, func(num protowire.Number, _ protowire.Type, _ uint64, entry []byte) error {
				m := names
				switch num {
				case fInternedEventNames:
				case fInternedArgNames:
					m = argNames
				default:
					return nil
				}
				var iid uint64
				var name string
				err := fields(entry, func(num protowire.Number, _ protowire.Type, v uint64, s []byte) error {
					switch num {
					case fInternedIID:
						iid = v
					case fInternedName:
						name = string(s)
					}
					return nil
				})
				m[iid] = name
				return err
			})
		}
		return nil
	})
	if err != nil {
		return err
	}
	if desc != nil {
		if err := d.descriptor(desc); err != nil {
			return err
		}
	}
	if te != nil {
		return d.event(ts, te, names, argNames)
	}
	return nil
}

func (d *Decoded) descriptor(b []byte) error {
	var t DecodedTrack
	err := fields(b, func(num protowire.Number, _ protowire.Type, v uint64, s []byte) error {
		switch num {
		case fDescUUID:
			t.UUID = v
		case fDescName:
			t.Name = string(s)
		case fDescParentUUID:
			t.Parent = v
		case fDescCounter:
			t.Counter = true
			return fields(s, func(num protowire.Number, _ protowire.Type, _ uint64, s []byte) error {
				if num == fCounterUnitName {
					t.Unit = string(s)
				}
				return nil
			})
		}
		return nil
	})
	if err != nil {
		return err
	}
	if _, dup := d.byUUID[t.UUID]; dup {
		return fmt.Errorf("trace: track %d described twice", t.UUID)
	}
	d.byUUID[t.UUID] = len(d.Tracks)
	d.Tracks = append(d.Tracks, t)
	return nil
}

func (d *Decoded) event(ts uint64, b []byte, names, argNames map[uint64]string) error {
	ev := DecodedEvent{TS: ts}
	err := fields(b, func(num protowire.Number, _ protowire.Type, v uint64, s []byte) error {
		switch num {
		case fEventType:
			ev.Type = int(v)
		case fEventTrackUUID:
			ev.Track = v
		case fEventNameIID:
			n, ok := names[v]
			if !ok {
				return fmt.Errorf("trace: event name iid %d not interned", v)
			}
			ev.Name = n
		case fEventCounterValue:
			ev.Value = float64(int64(v))
		case fEventDoubleCounter:
			ev.Value = math.Float64frombits(v)
		case fEventDebugAnnotations:
			var name string
			var val any
			err := fields(s, func(num protowire.Number, _ protowire.Type, v uint64, s []byte) error {
				switch num {
				case fArgNameIID:
					n, ok := argNames[v]
					if !ok {
						return fmt.Errorf("trace: argument name iid %d not interned", v)
					}
					name = n
				case fArgUintValue:
					val = v
				case fArgDoubleValue:
					val = math.Float64frombits(v)
				case fArgStringValue:
					val = string(s)
				}
				return nil
			})
			if err != nil {
				return err
			}
			if ev.Args == nil {
				ev.Args = map[string]any{}
			}
			ev.Args[name] = val
		}
		return nil
	})
	if err != nil {
		return err
	}
	if _, ok := d.byUUID[ev.Track]; !ok {
		return fmt.Errorf("trace: event at %d on undescribed track %d", ts, ev.Track)
	}
	d.Events = append(d.Events, ev)
	return nil
}

// Track returns the descriptor of uuid (nil if none).
func (d *Decoded) Track(uuid uint64) *DecodedTrack {
	i, ok := d.byUUID[uuid]
	if !ok {
		return nil
	}
	return &d.Tracks[i]
}

// Path is a track's names from the root's child down, joined by "/" (as
// Track.Path).
func (d *Decoded) Path(uuid uint64) string {
	var parts []string
	// A malformed trace may make a cycle of parents: stop after as many
	// steps as there are tracks.
	for t, n := d.Track(uuid), 0; t != nil && t.Parent != 0 && n <= len(d.Tracks); t, n = d.Track(t.Parent), n+1 {
		parts = append(parts, t.Name)
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, "/")
}

// Slices pairs each track's begins and ends (an end closes the latest
// open slice on its track). It fails on an end with nothing open, a slice
// still open at the end or time going back on a track.
func (d *Decoded) Slices() ([]DecodedSlice, error) {
	var out []DecodedSlice
	open := map[uint64][]int{}
	last := map[uint64]uint64{}
	for _, ev := range d.Events {
		if t, ok := last[ev.Track]; ok && ev.TS < t {
			return nil, fmt.Errorf("trace: track %q goes back in time, %d after %d", d.Path(ev.Track), ev.TS, t)
		}
		last[ev.Track] = ev.TS
		switch ev.Type {
		case typeSliceBegin:
			open[ev.Track] = append(open[ev.Track], len(out))
			out = append(out, DecodedSlice{Track: ev.Track, Name: ev.Name, Start: ev.TS, Args: ev.Args})
		case typeSliceEnd:
			st := open[ev.Track]
			if len(st) == 0 {
				return nil, fmt.Errorf("trace: slice end at %d on %q with none open", ev.TS, d.Path(ev.Track))
			}
			out[st[len(st)-1]].End = ev.TS
			open[ev.Track] = st[:len(st)-1]
		}
	}
	for tr, st := range open {
		if len(st) > 0 {
			return nil, fmt.Errorf("trace: %d slices left open on %q", len(st), d.Path(tr))
		}
	}
	return out, nil
}

// DecodeSlices decodes a trace and pairs its slices, as a reader of a
// written file wants both.
func DecodeSlices(data []byte) (*Decoded, []DecodedSlice, error) {
	d, err := Decode(data)
	if err != nil {
		return nil, nil, err
	}
	ss, err := d.Slices()
	if err != nil {
		return nil, nil, err
	}
	return d, ss, nil
}
