package bench

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

// ByTest groups results by test, in suite order, keeping the GPUs' order.
func ByTest(results []*Result) [][]*Result {
	var out [][]*Result
	for _, t := range suite {
		var group []*Result
		for _, r := range results {
			if r.Test == t.Name {
				group = append(group, r)
			}
		}
		if len(group) > 0 {
			out = append(out, group)
		}
	}
	return out
}

// column is one series of a table: a GPU, or a GPU and a variant.
type column struct {
	name string
	pts  map[string]Point
}

// rowKey is how a point is matched across series: its label, or its x.
func rowKey(p Point) string {
	if p.Label != "" {
		return p.Label
	}
	return strconv.FormatFloat(p.X, 'g', -1, 64)
}

func rowName(r *Result, p Point) string {
	if p.Label != "" {
		return p.Label
	}
	if r.XUnit == "B" {
		return sizeLabel(p.X)
	}
	return trimFloat(p.X)
}

// WriteTable prints one test's results (one or several GPUs) as a text
// table: a row per footprint or operation, a column per series.
func WriteTable(w io.Writer, results []*Result) error {
	if len(results) == 0 {
		return nil
	}
	r0 := results[0]
	unit := r0.Unit
	if unit != "" {
		unit = " (" + unit + ")"
	}
	fmt.Fprintf(w, "%s: %s — %s%s\n", r0.Test, r0.Title, r0.YLabel, unit)
	var cols []column
	var keys []string
	names := map[string]string{}
	for _, r := range results {
		for _, s := range r.Series {
			c := column{name: s.Name, pts: map[string]Point{}}
			for _, p := range s.Points {
				k := rowKey(p)
				c.pts[k] = p
				if !slices.Contains(keys, k) {
					keys = append(keys, k)
					names[k] = rowName(r, p)
				}
			}
			cols = append(cols, c)
		}
	}
	if r0.Chart == Curve {
		slices.SortStableFunc(keys, func(a, b string) int {
			x, _ := strconv.ParseFloat(a, 64)
			y, _ := strconv.ParseFloat(b, 64)
			switch {
			case x < y:
				return -1
			case x > y:
				return 1
			}
			return 0
		})
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := r0.XLabel
	if r0.Chart != Curve {
		head = ""
	}
	fmt.Fprint(tw, head)
	for _, c := range cols {
		fmt.Fprintf(tw, "\t%s", c.name)
	}
	fmt.Fprintln(tw)
	for _, k := range keys {
		fmt.Fprint(tw, names[k])
		for _, c := range cols {
			p, ok := c.pts[k]
			switch {
			case !ok:
				fmt.Fprint(tw, "\t-")
			case p.Note != "":
				fmt.Fprintf(tw, "\t%s  [%s]", formatValue(p.Y), p.Note)
			default:
				fmt.Fprintf(tw, "\t%s", formatValue(p.Y))
			}
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range results {
		for _, n := range r.Notes {
			fmt.Fprintf(w, "  %s: %s\n", r.GPU, n)
		}
	}
	return nil
}

// formatValue prints a measurement with about four significant digits.
func formatValue(v float64) string {
	switch a := math.Round(abs(v)*100) / 100; {
	case a == 0 && v == 0:
		return "0"
	case a >= 1000:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 100:
		return strconv.FormatFloat(v, 'f', 1, 64)
	case a >= 1:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

// WriteCSV writes every point: test, gpu, series, x, label, value, unit, note.
func WriteCSV(w io.Writer, results []*Result) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"test", "gpu", "series", "x", "label", "value", "unit", "note"}); err != nil {
		return err
	}
	for _, r := range results {
		for _, s := range r.Series {
			for _, p := range s.Points {
				x := ""
				if p.Label == "" {
					x = strconv.FormatFloat(p.X, 'g', -1, 64)
				}
				rec := []string{r.Test, r.GPU, s.Name, x, p.Label, strconv.FormatFloat(p.Y, 'g', 6, 64), r.Unit, p.Note}
				if err := cw.Write(rec); err != nil {
					return err
				}
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteJSON writes the results as a JSON list.
func WriteJSON(w io.Writer, results []*Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if results == nil {
		results = []*Result{}
	}
	return enc.Encode(results)
}

// SaveCharts draws every charted test to dir as <test>.png and <test>.svg
// and returns the files written.
func SaveCharts(dir string, results []*Result) ([]string, error) {
	var files []string
	for _, group := range ByTest(results) {
		p, err := Plot(group)
		if err != nil {
			return files, fmt.Errorf("chart of %s: %w", group[0].Test, err)
		}
		if p == nil {
			continue
		}
		for _, ext := range []string{".png", ".svg"} {
			f := filepath.Join(dir, group[0].Test+ext)
			if err := p.Save(chartWidth, chartHeight, f); err != nil {
				return files, fmt.Errorf("chart of %s: %w", group[0].Test, err)
			}
			files = append(files, f)
		}
	}
	return files, nil
}

// WriteAll writes results.csv, results.json and the charts to dir (made if
// needed) and returns the files written.
func WriteAll(dir string, results []*Result) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var files []string
	write := func(name string, fn func(io.Writer) error) error {
		path := filepath.Join(dir, name)
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		if err := fn(f); err != nil {
			f.Close()
			return fmt.Errorf("%s: %w", path, err)
		}
		if err := f.Close(); err != nil {
			return err
		}
		files = append(files, path)
		return nil
	}
	if err := write("results.csv", func(w io.Writer) error { return WriteCSV(w, results) }); err != nil {
		return files, err
	}
	if err := write("results.json", func(w io.Writer) error { return WriteJSON(w, results) }); err != nil {
		return files, err
	}
	charts, err := SaveCharts(dir, results)
	files = append(files, charts...)
	return files, err
}

// IndexPage is what WriteIndex shows.
type IndexPage struct {
	Title   string
	Intro   string
	Command string
	GPUs    []string
	Results []*Result
	// Validation, when set, is shown as a table at the top.
	Validation *Validation
	// Links are other pages to point to at the top (a run's report).
	Links []Link
}

// Link is a page the index points to, with a line on what it shows.
type Link struct {
	Title, Href, Doc string
}

type indexSection struct {
	Test, Title, Doc, Image, Table string
}

// WriteIndex writes dir/index.html: every test's chart (or table) with what
// it measures, and the validation table when there is one.
func WriteIndex(dir string, page IndexPage) (string, error) {
	var secs []indexSection
	for _, group := range ByTest(page.Results) {
		t, _ := Lookup(group[0].Test)
		sec := indexSection{Test: t.Name, Title: group[0].Title, Doc: t.Doc}
		if group[0].Chart != Table {
			sec.Image = t.Name + ".png"
		}
		var b strings.Builder
		if err := WriteTable(&b, group); err != nil {
			return "", err
		}
		sec.Table = b.String()
		secs = append(secs, sec)
	}
	path := filepath.Join(dir, "index.html")
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	err = indexTemplate.Execute(f, struct {
		IndexPage
		Sections []indexSection
	}{page, secs})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return path, err
}

var indexTemplate = template.Must(template.New("index").Funcs(template.FuncMap{
	"pct": func(v float64) string { return fmt.Sprintf("%+.1f%%", v) },
	"num": formatValue,
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Title}}</title>
<style>
body { font-family: sans-serif; max-width: 72em; margin: 2em auto; padding: 0 1em; color: #222; }
h1 { font-size: 1.6em; } h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ccc; }
img { max-width: 100%; border: 1px solid #eee; }
pre { background: #f6f6f6; padding: 0.8em; overflow-x: auto; font-size: 0.85em; }
table { border-collapse: collapse; font-size: 0.9em; }
td, th { border: 1px solid #ddd; padding: 0.25em 0.6em; text-align: left; }
td.n { text-align: right; } .bad { color: #b00; }
.doc { color: #555; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p>{{.Intro}}</p>
{{if .Command}}<pre>{{.Command}}</pre>{{end}}
{{range .Links}}<p><a href="{{.Href}}"><b>{{.Title}}</b></a> — {{.Doc}}</p>
{{end}}<p>GPUs: {{range $i, $g := .GPUs}}{{if $i}}, {{end}}<code>{{$g}}</code>{{end}}</p>
<ul>{{range .Sections}}<li><a href="#{{.Test}}">{{.Title}}</a></li>{{end}}{{if .Validation}}<li><a href="#validation">Published figures</a></li>{{end}}</ul>
{{range .Sections}}
<h2 id="{{.Test}}">{{.Title}}</h2>
<p class="doc">{{.Doc}} <code>pocketgpu bench --test {{.Test}}</code></p>
{{if .Image}}<p><img src="{{.Image}}" alt="{{.Title}}"></p>{{end}}
<pre>{{.Table}}</pre>
{{end}}
{{with .Validation}}
<h2 id="validation">Published figures against the simulator</h2>
<p>Predicted figures (no parameter was fitted to them): mean absolute percentage error <b>{{printf "%.1f" .Predicted.MAPE}}%</b> over {{.Predicted.Numeric}} figures{{if .Predicted.Largest}} (largest {{printf "%.1f" .Predicted.MaxAbsErrorPct}}%, {{.Predicted.Largest}}){{end}}.{{if .Predicted.Comparative}} {{.Predicted.Held}} of {{.Predicted.Comparative}} comparative figures hold.{{end}}</p>
{{if .HeldOut.Numeric}}<p>Of these, held-out figures (real-device results of third-party programs, docs/references.md): <b>{{printf "%.1f" .HeldOut.MAPE}}%</b> over {{.HeldOut.Numeric}} figures (largest {{printf "%.1f" .HeldOut.MaxAbsErrorPct}}%, {{.HeldOut.Largest}}); predicted figures that cite a seed: <b>{{printf "%.1f" .SeedPredicted.MAPE}}%</b> over {{.SeedPredicted.Numeric}}.</p>
{{end}}<p>Calibrated figures (a parameter was fitted to them): <b>{{printf "%.1f" .Calibrated.MAPE}}%</b> over {{.Calibrated.Numeric}} figures{{if .Calibrated.Largest}} (largest {{printf "%.1f" .Calibrated.MaxAbsErrorPct}}%, {{.Calibrated.Largest}}){{end}}.{{if .Calibrated.Comparative}} {{.Calibrated.Held}} of {{.Calibrated.Comparative}} comparative figures hold.{{end}}</p>
<p>All: <b>{{printf "%.1f" .MAPE}}%</b> over {{.Numeric}} figures (largest {{printf "%.1f" .MaxAbsErrorPct}}%).{{if .Comparative}} {{.Held}} of {{.Comparative}} comparative figures hold.{{end}}</p>
<table>
<tr><th>figure</th><th>GPU</th><th>kind</th><th>source</th><th>published</th><th>simulated</th><th>unit</th><th>error</th></tr>
{{range .Figures}}<tr><td>{{.ID}}</td><td>{{.On}}</td><td title="{{range .FittedBy}}{{.}}; {{end}}">{{.Kind}}</td><td>{{.Source}}</td><td class="n">{{.Expected}}</td><td class="n">{{num .Simulated}}</td><td>{{.Unit}}</td><td class="n{{if not .Within}} bad{{end}}">{{.Verdict}}</td></tr>
{{end}}</table>
{{range .Skipped}}<p class="doc">skipped {{.ID}} on {{.On}}: {{.Reason}}</p>
{{end}}
{{end}}
</body>
</html>
`))
