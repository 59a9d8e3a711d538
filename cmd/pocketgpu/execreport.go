package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"text/tabwriter"

	"github.com/pocketgpu/pocketgpu/opencl"
)

// reportFile is exec --report: the ICD writes a JSON line per command to
// lines as each ends (so a killed program still leaves them); at exit exec
// gathers them into one JSON document at path and prints a summary.
type reportFile struct {
	path  string
	lines string
}

func newReportFile(path string) (*reportFile, error) {
	if err := checkOutputFile("--report "+path, path); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(filepath.Dir(abs), ".pocketgpu-report-*.jsonl")
	if err != nil {
		return nil, fmt.Errorf("--report %s: %w", path, pathReason(err))
	}
	f.Close()
	return &reportFile{path: path, lines: f.Name()}, nil
}

func (r *reportFile) cleanup() { os.Remove(r.lines) }

// execReport is the document --report writes.
type execReport struct {
	GPUs     []string               `json:"gpus"`
	Commands []opencl.CommandRecord `json:"commands"`
	Summary  []reportRow            `json:"summary"`
}

// reportRow sums the commands of one kind (a kernel by name, or a kind of
// transfer) on one device.
type reportRow struct {
	Device string `json:"device"`
	Name   string `json:"name"` // kernel name, or "(read)", "(write)" ...
	Count  int    `json:"count"`
	// Reused counts the kernel launches whose figures repeat an identical
	// earlier launch's, Sampled those run in detail only until steady
	// (--detail auto).
	Reused  int     `json:"reused,omitempty"`
	Sampled int     `json:"sampled,omitempty"`
	TimeNS  float64 `json:"time_ns"`
	Bytes   int64   `json:"bytes,omitempty"`
	HostSec float64 `json:"host_seconds"`
	// Share is the row's part of its device's simulated time.
	Share float64 `json:"share"`
}

func (r *reportFile) finish(w io.Writer, gpus []string) error {
	rep := execReport{GPUs: gpus, Commands: []opencl.CommandRecord{}}
	f, err := os.Open(r.lines)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var c opencl.CommandRecord
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			// A line cut short by a killed program ends the report.
			break
		}
		rep.Commands = append(rep.Commands, c)
	}
	sort.SliceStable(rep.Commands, func(i, j int) bool { return rep.Commands[i].Seq < rep.Commands[j].Seq })
	rep.Summary = summarizeCommands(rep.Commands)
	out, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(r.path, append(out, '\n'), 0o644); err != nil {
		return fmt.Errorf("--report: %w", err)
	}
	printSummary(w, rep, r.path)
	return nil
}

func summarizeCommands(cmds []opencl.CommandRecord) []reportRow {
	type key struct{ dev, name string }
	rows := map[key]*reportRow{}
	var order []key
	total := map[string]float64{}
	for _, c := range cmds {
		name := c.Kernel
		if name == "" {
			name = "(" + c.Command + ")"
		}
		k := key{c.Device, name}
		row := rows[k]
		if row == nil {
			row = &reportRow{Device: c.Device, Name: name}
			rows[k] = row
			order = append(order, k)
		}
		row.Count++
		switch c.Detail {
		case "reused":
			row.Reused++
		case "sampled":
			row.Sampled++
		}
		row.TimeNS += c.TimeNS
		row.Bytes += int64(c.Bytes)
		row.HostSec += c.HostSeconds
		total[c.Device] += c.TimeNS
	}
	out := make([]reportRow, 0, len(order))
	for _, k := range order {
		row := rows[k]
		if t := total[k.dev]; t > 0 {
			row.Share = row.TimeNS / t
		}
		out = append(out, *row)
	}
	// Per device, the rows that took the most simulated time first.
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Device != out[j].Device {
			return out[i].Device < out[j].Device
		}
		return out[i].TimeNS > out[j].TimeNS
	})
	return out
}

func printSummary(w io.Writer, rep execReport, path string) {
	fmt.Fprintf(w, "pocketgpu: %d commands; the report is in %s\n", len(rep.Commands), path)
	if len(rep.Summary) == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "device\tcommand\tcount\treused\tsampled\tsimulated µs\tshare\tbytes\thost s")
	for _, r := range rep.Summary {
		bytes := "-"
		if r.Bytes > 0 {
			bytes = fmt.Sprint(r.Bytes)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%.3f\t%s\t%s\t%.3f\n", r.Device, r.Name, r.Count, countOrDash(r.Reused), countOrDash(r.Sampled),
			r.TimeNS/1000, formatPct(100*r.Share), bytes, r.HostSec)
	}
	tw.Flush()
}

// countOrDash is n, or "-" for none.
func countOrDash(n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprint(n)
}
