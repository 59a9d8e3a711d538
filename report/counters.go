package report

import (
	"html/template"
	"strings"

	"github.com/pocketgpu/pocketgpu/counters"
)

// CounterGroup is one part of the counter model (the engine's, the memory
// hierarchy's, a frame's) in the table.
type CounterGroup struct {
	Title string
	Rows  []CounterRow
}

// CounterRow is a counter with its value in each column. Meaning is the
// definition's text, `code` in backquotes; SameMeaning says it is the row
// above's (the counters one placeholder definition makes).
type CounterRow struct {
	Name, Unit, Meaning string
	SameMeaning         bool
	Values              []string
}

// CounterGroups lays out sets of one scope side by side, a value per set,
// in the order reports list counters, grouped by the part that defines
// them; skip names counters to leave out (those the summary shows).
func CounterGroups(scope counters.Scope, sets []counters.Set, skip ...string) []CounterGroup {
	// Each part's place in Lookup's numbering, to find a counter's part.
	type span struct {
		title      string
		start, end int
	}
	var spans []span
	n := 0
	for _, p := range counters.Parts() {
		if p.Scope == scope {
			spans = append(spans, span{p.Title, n, n + len(p.Defs)})
		}
		n += len(p.Defs)
	}
	var groups []CounterGroup
	for _, name := range counters.Order(scope, sets, skip...) {
		title := "Other"
		if _, at, ok := counters.Lookup(name, scope); ok {
			for _, s := range spans {
				if at >= s.start && at < s.end {
					title = s.title
				}
			}
		}
		row := CounterRow{Name: name, Values: make([]string, len(sets))}
		for i, s := range sets {
			row.Values[i] = "-"
			for _, it := range s {
				if it.Name == name {
					row.Values[i] = counters.Format(it.Unit, it.Value)
					if row.Unit == "" {
						row.Unit, row.Meaning = it.Unit, it.Doc
					}
				}
			}
		}
		if len(groups) == 0 || groups[len(groups)-1].Title != title {
			groups = append(groups, CounterGroup{Title: title})
		}
		g := &groups[len(groups)-1]
		if n := len(g.Rows); n > 0 && g.Rows[n-1].Meaning == row.Meaning {
			row.SameMeaning = true
		}
		g.Rows = append(g.Rows, row)
	}
	return groups
}

// docHTML sets a definition's text as HTML: escaped, with `code` in
// backquotes as <code>.
func docHTML(s string) template.HTML {
	parts := strings.Split(s, "`")
	var b strings.Builder
	for i, p := range parts {
		esc := template.HTMLEscapeString(p)
		if i%2 == 1 && i < len(parts)-1 {
			b.WriteString("<code>" + esc + "</code>")
			continue
		}
		if i%2 == 1 {
			b.WriteString("`") // an unpaired backquote stays as written
		}
		b.WriteString(esc)
	}
	return template.HTML(b.String()) //nolint:gosec // every piece escaped above
}
