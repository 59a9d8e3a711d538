package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// reportRun writes the report of examples/hotspot.cl (built with -g) on
// two GPUs to dir, and returns index.html's path.
func reportRun(t *testing.T, dir string) string {
	t.Helper()
	args := append([]string{"run", "--gpu", "mali-g52", "--gpu", "adreno-640", kdir + "hotspot.spv", "--html", dir}, hotspotArgs()...)
	code, out, errOut := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	page := filepath.Join(dir, "index.html")
	if !strings.Contains(out, "report: "+page) {
		t.Errorf("run does not say where the report is:\n%s", out)
	}
	return page
}

// run --html writes one page with every section, a column per GPU, that
// refers to nothing outside itself, and the same bytes for the same run.
func TestRunHTMLReport(t *testing.T) {
	dir := t.TempDir()
	page := reportRun(t, dir)
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	html := string(b)
	for _, want := range []string{
		`id="summary"`, `<th>mali-g52</th><th>adreno-640</th>`,
		`id="timeline"`, `id="roofline"`, `id="hotspots"`, `id="analysis"`, `id="counter-table"`,
		// The annotated source, its hottest line marked.
		`float b = in[(i * stride) &amp; mask];`, `>1</td>`,
		// A counter with its unit and meaning.
		`<td class="name">l2_misses</td>`,
		// analyze's text.
		"registers per thread",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if n := strings.Count(html, `<svg class="chart"`); n != 4 {
		t.Errorf("%d charts, want 4 (over time and roofline, per GPU)", n)
	}
	// Nothing to fetch: no script, stylesheet or image by URL.
	if m := regexp.MustCompile(`(?i)<script|(src|href)="(https?:|//|[a-z0-9_./-]+\.(css|js|png|svg))`).FindString(html); m != "" {
		t.Errorf("the page refers to an outside resource: %q", m)
	}
	dir2 := t.TempDir()
	b2, err := os.ReadFile(reportRun(t, dir2))
	if err != nil {
		t.Fatal(err)
	}
	// The command line shown names each run's own directory.
	if !bytes.Equal(bytes.ReplaceAll(b, []byte(dir), nil), bytes.ReplaceAll(b2, []byte(dir2), nil)) {
		t.Error("two runs of the same job wrote different pages")
	}
	files, _ := os.ReadDir(dir)
	if len(files) != 1 {
		t.Errorf("%d files in the report's directory, want index.html alone", len(files))
	}
}

// A report that cannot be written, or of a run with no timing, is refused
// before anything runs, with exit code 2.
func TestRunHTMLBadInput(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"functional", []string{"--html", dir, "--functional"}, "--functional has no timing"},
		{"file in the way", []string{"--html", file}, "a file is in the way"},
		{"under a file", []string{"--html", filepath.Join(file, "sub")}, "cannot create the directory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append(append([]string{"run", "--gpu", "mali-g52", corpusDir + "vecadd.spv"}, c.args...), vecaddArgs()...)
			code, _, errOut := runCLI(t, args...)
			if code != exitBadInput || !strings.Contains(errOut, c.want) {
				t.Errorf("exit %d, want %d with %q: %s", code, exitBadInput, c.want, errOut)
			}
		})
	}
}

// render --html writes a page with each frame and its heatmap inline and
// the frame's and the engine's counters, a column per frame.
func TestRenderHTMLReport(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "page")
	code, out, errOut := runCLI(t, "render", "--gpu", "adreno-640", "cube", "--width", "64", "--height", "32", "--frames", "2", "--out", filepath.Join(dir, "out"), "--html", page)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "report: "+filepath.Join(page, "index.html")) {
		t.Errorf("render does not say where the report is:\n%s", out)
	}
	b, err := os.ReadFile(filepath.Join(page, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	html := string(b)
	if n := strings.Count(html, `src="data:image/png;base64,`); n != 4 {
		t.Errorf("%d images inline, want a frame and a heatmap for each of 2 frames", n)
	}
	for _, want := range []string{"<th>frame 0</th><th>frame 1</th>", `<td class="name">interval_cycles</td>`, "Timing engine: "} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}
