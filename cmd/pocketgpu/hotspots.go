package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/pocketgpu/pocketgpu/device"
	"github.com/pocketgpu/pocketgpu/report"
)

// hotspotsJSON is run --json's "hotspots" section: the profile (totals and
// every instruction) and its per-line sums.
type hotspotsJSON struct {
	*device.Profile
	Lines []device.LineProfile `json:"lines"`
}

// hotMarks is how many of the hottest lines (or instructions) the view
// marks.
const hotMarks = 3

// rowFormat lays out the view's columns before the source text.
const rowFormat = "  %-3s %6s %7s %7s   %-26s %7s %9s %9s  "

// hotspotHeader names the columns.
var hotspotHeader = fmt.Sprintf(rowFormat, "hot", "line", "cycles", "issue", "stall cycles (top cause)", "lanes", "mem req", "misses")

// writeHotspots prints one run's profile: with line information, the
// kernel's source annotated line by line (like Streamline's or Nsight's
// source view); without, its instructions. kernelPath is the kernel file
// the run was given (sources are looked for beside it too).
func writeHotspots(out io.Writer, gpu string, p *device.Profile, kernelPath string, width int) {
	w := &trimWriter{w: out}
	defer w.flush()
	total := p.Total.Cycles()
	fmt.Fprintf(w, "\nhotspots: %s on %s: %s engine cycles charged (issue %s, stalls %s), %s memory requests\n",
		p.Kernel, gpu, formatNumber(total), formatNumber(p.Total.IssueCycles), formatNumber(p.Total.Stalls()), formatNumber(float64(p.Total.Requests)))
	fmt.Fprintln(w, "  cycles: issue plus the stalls the line caused, as a share of all charged; issue: share of the issue cycles;")
	fmt.Fprintf(w, "  lanes: active lanes per warp execution (of %d); misses: L1, texture and L2 misses of its memory requests\n", width)
	if !p.HasLines {
		writeInstructionHotspots(w, p, total)
		return
	}
	for _, f := range hotspotFiles(p, kernelPath) {
		if f.Name != "" {
			fmt.Fprintf(w, "\n%s%s\n", hotspotHeader, f.Name)
		}
		if f.Note != "" {
			fmt.Fprintf(w, "  (%s)\n", f.Note)
		}
		for _, h := range f.Lines {
			fmt.Fprintf(w, "%s%s\n", fmt.Sprintf(rowFormat, h.Rank, h.Line, h.Cycles, h.Issue, h.Stall, h.Lanes, h.Requests, h.Misses), h.Source)
		}
	}
}

// hotspotFiles lays out a profile with line information as its sources,
// each line with its columns (blank where no instruction came from it);
// instructions without a source line come last.
// Rows are shaded by their share of the hottest line's cycles.
func hotspotFiles(p *device.Profile, kernelPath string) []report.HotFile {
	total := p.Total.Cycles()
	lines := p.Lines()
	rank := map[int]int{}
	var top float64
	for r, i := range device.Hottest(lines)[:min(hotMarks, len(lines))] {
		if lines[i].Cycles() > 0 {
			rank[i] = r + 1
			top = max(top, lines[i].Cycles())
		}
	}
	row := func(i int) report.HotLine {
		h := hotspotCols(lines[i].Line, &lines[i].Cost, total, p.Total.IssueCycles, rank[i])
		if top > 0 {
			h.Heat = int(math.Ceil(9 * lines[i].Cycles() / top))
		}
		return h
	}
	byFile := map[string]map[int]int{} // file -> line -> index in lines
	var names []string
	var unplaced []int
	for i, l := range lines {
		if l.Line == 0 {
			unplaced = append(unplaced, i)
			continue
		}
		if byFile[l.File] == nil {
			byFile[l.File] = map[int]int{}
			names = append(names, l.File)
		}
		byFile[l.File][l.Line] = i
	}
	var files []report.HotFile
	for _, f := range names {
		hf := report.HotFile{Name: f}
		text, found := readSource(f, kernelPath)
		if !found {
			hf.Note = fmt.Sprintf("source %s not found: lines without their text", f)
			for _, i := range sortedLineIndices(byFile[f], lines) {
				hf.Lines = append(hf.Lines, row(i))
			}
			files = append(files, hf)
			continue
		}
		for n, src := range text {
			line := n + 1
			h := report.HotLine{Line: fmt.Sprint(line)}
			if i, ok := byFile[f][line]; ok {
				h = row(i)
			}
			h.Source = expandTabs(src)
			hf.Lines = append(hf.Lines, h)
		}
		files = append(files, hf)
	}
	// Instructions without a line end the last file's table.
	if len(unplaced) > 0 && len(files) == 0 {
		files = append(files, report.HotFile{})
	}
	for _, i := range unplaced {
		h := row(i)
		h.Source = "(instructions without a source line)"
		last := &files[len(files)-1]
		last.Lines = append(last.Lines, h)
	}
	return files
}

// hotspotRow formats one line's (or instruction's) columns; rank > 0 marks
// one of the hottest.
func hotspotRow(line int, c *device.Cost, total, issue float64, rank, width int) string {
	h := hotspotCols(line, c, total, issue, rank)
	return fmt.Sprintf(rowFormat, h.Rank, h.Line, h.Cycles, h.Issue, h.Stall, h.Lanes, h.Requests, h.Misses)
}

// hotspotCols are a line's columns as text, for the terminal and the HTML
// report alike.
func hotspotCols(line int, c *device.Cost, total, issue float64, rank int) report.HotLine {
	h := report.HotLine{Line: "-", Stall: "-", Lanes: "-", Requests: "-", Misses: "-"}
	if rank > 0 {
		h.Rank = fmt.Sprintf(">%d", rank)
	}
	if line > 0 {
		h.Line = fmt.Sprint(line)
	}
	if s := c.Stalls(); s > 0 {
		h.Stall = fmt.Sprintf("%s (%s)", formatNumber(s), c.TopStall())
	}
	if c.Execs > 0 {
		h.Lanes = formatNumber(float64(c.Threads) / float64(c.Execs))
	}
	if c.Requests > 0 {
		h.Requests = formatNumber(float64(c.Requests))
		h.Misses = formatNumber(float64(c.Misses()))
	}
	h.Cycles, h.Issue = share(c.Cycles(), total), share(c.IssueCycles, issue)
	return h
}

func share(v, total float64) string {
	if v <= 0 || total <= 0 {
		return "-"
	}
	return formatPct(100 * v / total)
}

// writeInstructionHotspots lists the instructions of a module without line
// information, the hottest marked.
func writeInstructionHotspots(w io.Writer, p *device.Profile, total float64) {
	fmt.Fprintln(w, "  the module has no line information (compile the source with -g, or run the .cl/.comp itself): per instruction")
	costs := make([]device.LineProfile, len(p.Instructions))
	for i := range p.Instructions {
		costs[i].Cost = p.Instructions[i].Cost
	}
	rank := map[int]int{}
	for r, i := range device.Hottest(costs)[:min(hotMarks, len(costs))] {
		if costs[i].Cycles() > 0 {
			rank[i] = r + 1
		}
	}
	fmt.Fprintf(w, "\n  hot  inst  block  cycles   issue   stall cycles (top cause)     lanes   mem req    misses  instruction\n")
	for i := range p.Instructions {
		in := &p.Instructions[i]
		mark := ""
		if rank[i] > 0 {
			mark = fmt.Sprintf(">%d", rank[i])
		}
		stall := "-"
		if s := in.Stalls(); s > 0 {
			stall = fmt.Sprintf("%s (%s)", formatNumber(s), in.TopStall())
		}
		lanes, req, miss := "-", "-", "-"
		if in.Execs > 0 {
			lanes = formatNumber(float64(in.Threads) / float64(in.Execs))
		}
		if in.Requests > 0 {
			req = formatNumber(float64(in.Requests))
			miss = formatNumber(float64(in.Misses()))
		}
		what := in.SPIRV
		if in.Name != "" {
			what += " " + in.Name
		}
		fmt.Fprintf(w, "  %-3s %5d %6d %7s %7s   %-26s %7s %9s %9s  %s -> %s (word %d)\n", mark, in.Index, in.Block, share(in.Cycles(), total),
			share(in.IssueCycles, p.Total.IssueCycles), stall, lanes, req, miss, what, in.Op, in.Word)
	}
}

// readSource finds a source file named in the line table: as named
// (relative to the working directory), beside the kernel file, or its base
// name beside the kernel file.
func readSource(name, kernelPath string) ([]string, bool) {
	dir := filepath.Dir(kernelPath)
	for _, cand := range []string{name, filepath.Join(dir, name), filepath.Join(dir, filepath.Base(name))} {
		b, err := os.ReadFile(cand)
		if err == nil {
			text := strings.TrimSuffix(string(b), "\n")
			return strings.Split(text, "\n"), true
		}
	}
	return nil, false
}

func expandTabs(s string) string {
	var b strings.Builder
	col := 0
	for _, r := range strings.TrimRight(s, "\r") {
		if r == '\t' {
			n := 4 - col%4
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		b.WriteRune(r)
		col++
	}
	return b.String()
}

// sortedLineIndices lists a file's lines in order.
func sortedLineIndices(m map[int]int, lines []device.LineProfile) []int {
	var out []int
	for _, i := range m {
		out = append(out, i)
	}
	for a := 1; a < len(out); a++ {
		for b := a; b > 0 && lines[out[b]].Line < lines[out[b-1]].Line; b-- {
			out[b], out[b-1] = out[b-1], out[b]
		}
	}
	return out
}

// trimWriter drops the spaces that end a line (the empty columns of a
// source line no instruction came from).
type trimWriter struct {
	w   io.Writer
	buf []byte
}

func (t *trimWriter) Write(b []byte) (int, error) {
	t.buf = append(t.buf, b...)
	for {
		i := strings.IndexByte(string(t.buf), '\n')
		if i < 0 {
			return len(b), nil
		}
		line := strings.TrimRight(string(t.buf[:i]), " ")
		if _, err := io.WriteString(t.w, line+"\n"); err != nil {
			return 0, err
		}
		t.buf = t.buf[i+1:]
	}
}

func (t *trimWriter) flush() {
	if len(t.buf) > 0 {
		_, _ = t.w.Write(t.buf)
		t.buf = nil
	}
}
