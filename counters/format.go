package counters

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
)

// Format writes a value for a reader in its unit: percentages with one
// decimal, integral values and values of a thousand or more whole, others
// with four significant digits; NaN and infinities as "-".
func Format(unit string, v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
	}
	if unit == "%" {
		return fmt.Sprintf("%.1f%%", v)
	}
	if v == math.Trunc(v) || math.Abs(v) >= 1000 {
		return strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	}
	digits := 3 - int(math.Floor(math.Log10(math.Abs(v))))
	s := strconv.FormatFloat(v, 'f', min(max(digits, 1), 12), 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// Order lists the names of the sets' counters once each, in the order of
// their Defs in the registered parts of the scope, placeholder counters by
// name among themselves, unknown names last by name. skip names counters
// to leave out.
func Order(scope Scope, sets []Set, skip ...string) []string {
	type row struct {
		name string
		at   int
	}
	seen := map[string]bool{}
	for _, s := range skip {
		seen[s] = true
	}
	var rows []row
	for _, s := range sets {
		for _, it := range s {
			if seen[it.Name] {
				continue
			}
			seen[it.Name] = true
			_, at, _ := Lookup(it.Name, scope)
			rows = append(rows, row{it.Name, at})
		}
	}
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].at != rows[j].at {
			return rows[i].at < rows[j].at
		}
		return rows[i].name < rows[j].name
	})
	names := make([]string, len(rows))
	for i, r := range rows {
		names[i] = r.name
	}
	return names
}

// cell is a set's value of a counter as text, "-" where it lacks it.
func cell(s Set, name string) string {
	for _, it := range s {
		if it.Name == name {
			return Format(it.Unit, it.Value)
		}
	}
	return "-"
}

// WriteTable writes the sets of a scope side by side, a column each under
// its header, a row per counter in Order.
func WriteTable(w io.Writer, scope Scope, headers []string, sets []Set) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "\t%s\t\n", strings.Join(headers, "\t"))
	WriteRows(tw, scope, sets)
	return tw.Flush()
}

// WriteRows writes a tab-separated row per counter in Order (name, then
// each set's value) into a table the caller is writing.
func WriteRows(w io.Writer, scope Scope, sets []Set, skip ...string) {
	for _, name := range Order(scope, sets, skip...) {
		fmt.Fprintf(w, "%s\t", name)
		for _, s := range sets {
			fmt.Fprintf(w, "%s\t", cell(s, name))
		}
		fmt.Fprintln(w)
	}
}

// WriteCSV writes the sets of a scope as CSV: a header row (counter, unit, then the
// headers) and a row per counter in Order with the values in full
// precision.
func WriteCSV(w io.Writer, scope Scope, headers []string, sets []Set) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(append([]string{"counter", "unit"}, headers...)); err != nil {
		return err
	}
	for _, name := range Order(scope, sets) {
		row := []string{name, ""}
		for _, s := range sets {
			v := ""
			for _, it := range s {
				if it.Name == name {
					row[1] = it.Unit
					v = strconv.FormatFloat(it.Value, 'g', -1, 64)
				}
			}
			row = append(row, v)
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// DocTable is a part's table in docs/counters.md: a row per Def with its
// unit and meaning.
func DocTable(p *Part) string {
	var b strings.Builder
	b.WriteString("| counter | unit | meaning |\n|---|---|---|\n")
	for _, d := range p.Defs {
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", d.Name, d.Unit, strings.ReplaceAll(d.Doc, "|", `\|`))
	}
	return b.String()
}
