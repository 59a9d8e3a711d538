package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/counters"
)

// part is a counter part of the tests' own, in a scope no other uses.
var part = counters.Register(&counters.Part{Key: "report-test", Title: "Test part", Rank: 1000, Scope: "report-test", Defs: []counters.Def{
	counters.New("a_cycles", "cycles", "cycles of `a`"),
	counters.New("pipe_<name>_busy", "cycles", "busy cycles of one pipe"),
}})

// Counters are laid out by part, a value per set ("-" where a set lacks
// one), with unit and meaning; the rows of one placeholder share it.
func TestCounterGroups(t *testing.T) {
	sets := []counters.Set{
		{part.Of("a_cycles", 12), part.Def("pipe_<name>_busy").With("fma", 3), part.Def("pipe_<name>_busy").With("add", 1.5)},
		{part.Of("a_cycles", 7)},
	}
	gs := CounterGroups("report-test", sets)
	if len(gs) != 1 || gs[0].Title != "Test part" || len(gs[0].Rows) != 3 {
		t.Fatalf("groups %+v", gs)
	}
	r := gs[0].Rows
	if r[0].Name != "a_cycles" || r[0].Unit != "cycles" || r[0].Values[0] != "12" || r[0].Values[1] != "7" {
		t.Errorf("row 0: %+v", r[0])
	}
	if r[1].Name != "pipe_add_busy" || r[1].Values[1] != "-" || r[1].SameMeaning || !r[2].SameMeaning {
		t.Errorf("rows 1, 2: %+v %+v", r[1], r[2])
	}
	if got := string(docHTML("cycles of `a<b>` & `c")); got != "cycles of <code>a&lt;b&gt;</code> &amp; `c" {
		t.Errorf("docHTML: %s", got)
	}
}

// A page is written with its sections, charts inline (no XML prolog, sized
// by the page), and the same bytes each time.
func TestWrite(t *testing.T) {
	pl, key, err := TimeChart("t", []float64{0, 10, 20}, 25, []Series{{Name: "occupancy", Values: []float64{50, 100, 120}}, {Name: "issue", Values: []float64{1, 2, 3}}})
	if err != nil {
		t.Fatal(err)
	}
	svg, err := PlotSVG(pl, ChartWidth, ChartHeight)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(svg), `<svg class="chart" viewBox=`) {
		t.Errorf("the chart starts %.80q", svg)
	}
	if len(key) != 2 || key[1].Name != "issue" || key[1].Colour != "#0072b2" {
		t.Errorf("key %+v", key)
	}
	page := &Page{
		Title: "a <title>", Columns: []string{"g1", "g2"},
		Summary:  []Row{{Label: "cycles", Values: []string{"1", "2"}}},
		Timeline: []Chart{{Title: "g1", SVG: svg, Key: key}},
		Analysis: "text",
		Counters: CounterGroups("report-test", []counters.Set{{part.Of("a_cycles", 1)}, {}}),
	}
	dir := filepath.Join(t.TempDir(), "new")
	path, err := Write(dir, page)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	html := string(b)
	for _, want := range []string{"<title>a &lt;title&gt;</title>", `id="timeline"`, `id="analysis"`, `<code>a</code>`, `<span class="swatch" style="background: #0072b2"></span>issue`} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	for _, absent := range []string{`id="roofline"`, `id="hotspots"`, "<?xml"} {
		if strings.Contains(html, absent) {
			t.Errorf("the page has %q", absent)
		}
	}
	var again bytes.Buffer
	if err := Render(&again, page); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.Bytes(), b) {
		t.Error("the same page rendered twice differs")
	}
	if _, err := Write(filepath.Join(path, "sub"), page); err == nil {
		t.Error("writing under a file succeeded")
	}
}
