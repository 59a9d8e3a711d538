package counters

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// The recipe "Add a counter" (docs/architecture.md) in a test: a part with
// a counter of its own, produced where it is measured, reaches every
// writer and the documentation table with its unit and meaning.
func TestRecipeToyCounter(t *testing.T) {
	toy := Register(&Part{Key: "toy", Title: "Toy", Rank: 99, Scope: "toy", Defs: []Def{
		New("toy_widgets", "widgets", "widgets the toy unit made"),
		New("toy_busy_pct", "%", "cycles the toy unit was busy / cycles"),
		New("toy_lane_<k>_ops", "ops", "operations of toy lane `<k>`"),
	}})
	runs := []Set{
		{toy.Of("toy_busy_pct", 12.345), toy.Of("toy_widgets", 3), toy.Def("toy_lane_<k>_ops").With("b", 7), toy.Def("toy_lane_<k>_ops").With("a", 2)},
		{toy.Of("toy_widgets", 1234.6)},
	}
	var text bytes.Buffer
	if err := WriteTable(&text, "toy", []string{"one", "two"}, runs); err != nil {
		t.Fatal(err)
	}
	// Rows follow the definitions (placeholder counters by name), values
	// their unit, a missing one is "-".
	var got [][]string
	for _, line := range strings.Split(strings.TrimSpace(text.String()), "\n") {
		got = append(got, strings.Fields(line))
	}
	want := [][]string{{"one", "two"}, {"toy_widgets", "3", "1235"}, {"toy_busy_pct", "12.3%", "-"}, {"toy_lane_a_ops", "2", "-"}, {"toy_lane_b_ops", "7", "-"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("table:\n%s\nwant rows %v", text.String(), want)
	}
	js, err := json.Marshal(runs[0])
	if err != nil || string(js) != `{"toy_busy_pct":12.345,"toy_widgets":3,"toy_lane_b_ops":7,"toy_lane_a_ops":2}` {
		t.Errorf("JSON %s, %v", js, err)
	}
	var back Set
	if err := json.Unmarshal(js, &back); err != nil || len(back) != 4 || back[3].Name != "toy_lane_a_ops" || back[0].Unit != "%" || back.Value("toy_widgets") != 3 {
		t.Errorf("read back %+v, %v", back, err)
	}
	var csv bytes.Buffer
	if err := WriteCSV(&csv, "toy", []string{"one", "two"}, runs); err != nil {
		t.Fatal(err)
	}
	if got := csv.String(); !strings.HasPrefix(got, "counter,unit,one,two\ntoy_widgets,widgets,3,1234.6\ntoy_busy_pct,%,12.345,\n") {
		t.Errorf("CSV:\n%s", got)
	}
	if doc := DocTable(toy); !strings.Contains(doc, "| `toy_lane_<k>_ops` | ops | operations of toy lane `<k>` |") {
		t.Errorf("doc table:\n%s", doc)
	}
	if it := toy.Def("toy_lane_<k>_ops").With("c", 1); it.Doc != "operations of toy lane `c`" {
		t.Errorf("placeholder doc %q", it.Doc)
	}
}

// A counter its part does not define is a programming error caught at
// once, and so is a name two parts of one scope define.
func TestUndefinedCounterPanics(t *testing.T) {
	p := Register(&Part{Key: "panics", Scope: "panics", Defs: []Def{New("a_ops", "ops", "a")}})
	for name, f := range map[string]func(){
		"undefined": func() { p.Of("b_ops", 1) },
		"twice":     func() { Register(&Part{Key: "panics2", Scope: "panics", Defs: []Def{New("a_ops", "ops", "again")}}) },
		"key twice": func() { Register(&Part{Key: "panics", Scope: "other"}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

func TestFormat(t *testing.T) {
	for _, tc := range []struct {
		unit string
		v    float64
		want string
	}{{"%", 12.345, "12.3%"}, {"cycles", 244569.6, "244570"}, {"", 8, "8"}, {"GB/s", 3.14159, "3.142"}, {"", 0.012345, "0.01235"}, {"B", 1e20, "100000000000000000000"}} {
		if got := Format(tc.unit, tc.v); got != tc.want {
			t.Errorf("Format(%q, %v) = %q, want %q", tc.unit, tc.v, got, tc.want)
		}
	}
}

func TestSetEqual(t *testing.T) {
	a := Set{{Name: "x", Value: 1}, {Name: "y", Value: 2}}
	if !a.Equal(Set{{Name: "x", Value: 1}, {Name: "y", Value: 2}}) {
		t.Error("equal sets differ")
	}
	for _, b := range []Set{{{Name: "x", Value: 1}}, {{Name: "x", Value: 1}, {Name: "y", Value: 3}}, {{Name: "y", Value: 2}, {Name: "x", Value: 1}}} {
		if a.Equal(b) {
			t.Errorf("%v equals %v", a, b)
		}
	}
}
