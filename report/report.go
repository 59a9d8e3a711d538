// Package report writes a run as one self-contained HTML page: its
// summary, charts, hotspots, static analysis and counters, a column per
// GPU. Everything the page shows is in the file — CSS in a <style>
// element, charts as inline SVG, images as data URIs, no script — so it
// opens from disk, mailed or archived, with no network and nothing beside
// it. The same page data gives the same bytes.
//
// The package knows counters and charts, not how a run is made: the
// command line fills a Page from its runs and calls Write.
package report

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
)

// Page is one report. Empty sections are left out.
type Page struct {
	Title string
	// Intro is a sentence under the title; Command the command line that
	// made the run.
	Intro, Command string
	// Columns name what is compared side by side (the GPUs).
	Columns []string
	// Summary has a value per column in each row.
	Summary []Row
	// Figures are images (a rendered frame), a column each.
	Figures []Figure
	// Timeline has a chart per column: occupancy and pipe use over time.
	Timeline     []Chart
	TimelineNote string
	// Roofline has a chart and a text summary per column.
	Roofline     []Chart
	RooflineText []string
	// Hotspots is the annotated source, a block per column.
	Hotspots []Hotspots
	// Analysis is `pocketgpu analyze`'s report for the same kernel, as
	// text.
	Analysis     string
	AnalysisNote string
	// Counters are the runs' counters in groups (the counter model's
	// parts), with unit and meaning.
	Counters []CounterGroup
	// Footer says what made the page.
	Footer string
}

// Row is a labelled row with a value per column.
type Row struct {
	Label  string
	Values []string
}

// Figure is an image carried in the page as a data URI.
type Figure struct {
	Title string
	Src   template.URL
	Alt   string
}

// Hotspots is one column's cost by source line.
type Hotspots struct {
	Column  string
	Summary string
	// Files are the sources with their lines; Plain, when the module has
	// no line information, is the per-instruction table as text.
	Files []HotFile
	Plain string
}

// HotFile is one source file's lines.
type HotFile struct {
	Name  string
	Note  string
	Lines []HotLine
}

// HotLine is a line of source and what it cost; the cost fields are text,
// "" on a line no instruction came from. Heat (0 to 9) shades the row by
// its share of the cycles.
type HotLine struct {
	Rank, Line                                    string
	Cycles, Issue, Stall, Lanes, Requests, Misses string
	Source                                        string
	Heat                                          int
}

//go:embed page.html.tmpl
var pageText string

var pageTemplate = template.Must(template.New("page").Funcs(template.FuncMap{
	"add": func(a, b int) int { return a + b },
	"doc": docHTML,
}).Parse(pageText))

// Render writes the page's HTML.
func Render(w io.Writer, p *Page) error {
	if err := pageTemplate.Execute(w, p); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// Write writes the page to dir/index.html, creating dir if needed, and
// returns the file's path.
func Write(dir string, p *Page) (string, error) {
	var b bytes.Buffer
	if err := Render(&b, p); err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("report: %w", err)
	}
	path := filepath.Join(dir, "index.html")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return "", fmt.Errorf("report: %w", err)
	}
	return path, nil
}
