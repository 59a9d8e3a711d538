package trace

import (
	"bytes"
	"testing"
)

func example() *Trace {
	t := New("gpu", 0)
	en := t.Track("core 0", "engine 0")
	en.Slice(10, 20, "k", Uint("groups", 3))
	en.Slice(20, 30, "k", Uint("groups", 2), Float("cycles", 1.5))
	en.Slice(0, 5, "first", String("why", "test"))
	// Nests inside the first, then overlaps it partly: a second lane.
	en.Slice(12, 15, "inner")
	en.Slice(18, 25, "overlap")
	c := t.Counter("warps", "core 0", "resident")
	c.Count(0, 4)
	c.Count(10, 4) // unchanged: left out
	c.Count(20, 2.5)
	t.Sub("bench").Track("runs").Slice(0, 1, "a")
	return t
}

func TestRoundTrip(t *testing.T) {
	var b bytes.Buffer
	if _, err := example().WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	d, err := Decode(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	ss, err := d.Slices()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	var groups uint64
	for _, s := range ss {
		got[d.Path(s.Track)+":"+s.Name]++
		if g, ok := s.Args["groups"].(uint64); ok {
			groups += g
		}
	}
	for _, want := range []string{"core 0/engine 0:k", "core 0/engine 0:first", "core 0/engine 0:inner", "core 0/engine 0 (2):overlap", "bench/runs:a"} {
		if got[want] == 0 {
			t.Errorf("no slice %s in %v", want, got)
		}
	}
	if groups != 5 {
		t.Errorf("groups sum %d, want 5", groups)
	}
	var vals []float64
	for _, ev := range d.Events {
		if ev.Type == typeCounter {
			vals = append(vals, ev.Value)
			if tr := d.Track(ev.Track); !tr.Counter || tr.Unit != "warps" {
				t.Errorf("counter on %+v", tr)
			}
		}
	}
	if len(vals) != 2 || vals[0] != 4 || vals[1] != 2.5 {
		t.Errorf("counter values %v, want [4 2.5]", vals)
	}
	var again bytes.Buffer
	example().WriteTo(&again)
	if !bytes.Equal(b.Bytes(), again.Bytes()) {
		t.Error("the same trace gave different bytes")
	}
}

func FuzzDecode(f *testing.F) {
	var b bytes.Buffer
	example().WriteTo(&b)
	f.Add(b.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Decode(data)
		if err != nil {
			return
		}
		_, _ = d.Slices()
		for _, tr := range d.Tracks {
			_ = d.Path(tr.UUID)
		}
	})
}
