// Package counters is pocketgpu's one counter model. Every figure a run
// reports — the engine's, the memory hierarchy's, a frame's, a copy's — is
// an Item: a name, a unit, what it means and a value, made where it is
// measured from a Def its package declares in a Part. The parts are what
// docs/counters.md lists (its tables are generated from them), and what
// the text, JSON and CSV writers order rows by, so adding a counter is
// adding its Def and producing its value.
package counters

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Def defines a counter. A Name may hold one placeholder in angle brackets
// (pipe_<name>_busy_cycles): the Def then stands for a family of counters,
// one per value of the placeholder (With).
type Def struct {
	Name string
	Unit string // "cycles", "%", "B", "lines" ...; "" for a plain number
	Doc  string // what it means, for docs/counters.md and reports
}

// New is a Def.
func New(name, unit, doc string) Def { return Def{Name: name, Unit: unit, Doc: doc} }

// Of is the Def's counter with value v.
func (d Def) Of(v float64) Item { return Item{Name: d.Name, Unit: d.Unit, Doc: d.Doc, Value: v} }

// With is the counter of a placeholder Def for one value of its
// placeholder (pipe_<name>_busy_cycles with "fma": pipe_fma_busy_cycles).
func (d Def) With(arg string, v float64) Item {
	return Item{Name: fill(d.Name, arg), Unit: d.Unit, Doc: fill(d.Doc, arg), Value: v}
}

// fill replaces the first <...> in s by arg.
func fill(s, arg string) string {
	i := strings.IndexByte(s, '<')
	j := strings.IndexByte(s, '>')
	if i < 0 || j < i {
		return s
	}
	return s[:i] + arg + s[j+1:]
}

// matches reports whether name is d's counter (for a placeholder Def, one
// of them).
func (d Def) matches(name string) bool {
	i := strings.IndexByte(d.Name, '<')
	j := strings.IndexByte(d.Name, '>')
	if i < 0 || j < i {
		return d.Name == name
	}
	pre, post := d.Name[:i], d.Name[j+1:]
	return len(name) > len(pre)+len(post) && strings.HasPrefix(name, pre) && strings.HasSuffix(name, post)
}

// Item is one counter of a run.
type Item struct {
	Name  string
	Unit  string
	Doc   string
	Value float64
}

// Part is the counters one part of the model produces, in the order
// reports list them.
type Part struct {
	Key   string // docs/counters.md's marker for the part's table
	Title string
	// Rank orders the parts in reports and docs (the engine's first).
	Rank int
	// Scope is what the part's counters describe: a kernel run (Kernel),
	// one core of it (Core), a rendered frame (Frame), a copy (Copy).
	// Names are unique within a scope; a per-core counter may share a
	// kernel counter's name.
	Scope Scope
	Defs  []Def
}

// Scope is what a part's counters describe.
type Scope string

// The scopes of pocketgpu's counters.
const (
	Kernel Scope = "kernel"
	Core   Scope = "core"
	Frame  Scope = "frame"
	Copy   Scope = "copy"
)

var registry struct {
	sync.RWMutex
	parts []*Part
}

// Register adds a part (a package's var initialiser calls it). A key
// registered twice, or a counter name defined twice in one scope, is a
// programming error and panics.
func Register(p *Part) *Part {
	registry.Lock()
	defer registry.Unlock()
	seen := map[string]string{}
	for _, q := range registry.parts {
		if q.Key == p.Key {
			panic("counters: part " + p.Key + " registered twice")
		}
		if q.Scope == p.Scope {
			for _, d := range q.Defs {
				seen[d.Name] = q.Key
			}
		}
	}
	for _, d := range p.Defs {
		if k, ok := seen[d.Name]; ok {
			panic(fmt.Sprintf("counters: %s is defined by parts %s and %s", d.Name, k, p.Key))
		}
		seen[d.Name] = p.Key
	}
	registry.parts = append(registry.parts, p)
	sort.SliceStable(registry.parts, func(i, j int) bool { return registry.parts[i].Rank < registry.parts[j].Rank })
	return p
}

// Parts lists the registered parts by rank.
func Parts() []*Part {
	registry.RLock()
	defer registry.RUnlock()
	return append([]*Part(nil), registry.parts...)
}

// Def returns the part's Def named name (its pattern for a placeholder
// Def); it panics when there is none, which a test of the producing
// package catches.
func (p *Part) Def(name string) Def {
	for _, d := range p.Defs {
		if d.Name == name {
			return d
		}
	}
	panic("counters: part " + p.Key + " has no counter " + name)
}

// Of is the part's counter name with value v (Def(name).Of(v)).
func (p *Part) Of(name string, v float64) Item { return p.Def(name).Of(v) }

// Lookup finds the Def of a counter by name among the parts of a scope
// ("" any), and the order reports list it in.
func Lookup(name string, scope Scope) (Def, int, bool) {
	registry.RLock()
	defer registry.RUnlock()
	n := 0
	for _, p := range registry.parts {
		if scope != "" && p.Scope != scope {
			n += len(p.Defs)
			continue
		}
		for _, d := range p.Defs {
			if d.matches(name) {
				return d, n, true
			}
			n++
		}
	}
	return Def{}, n, false
}

// Set is a run's counters in the order they were produced.
type Set []Item

// Get returns the value of the counter name.
func (s Set) Get(name string) (float64, bool) {
	for i := range s {
		if s[i].Name == name {
			return s[i].Value, true
		}
	}
	return 0, false
}

// Value is the value of the counter name, 0 if the set lacks it.
func (s Set) Value(name string) float64 {
	v, _ := s.Get(name)
	return v
}

// Equal reports whether s and o hold the same counters, in the same
// order, with the same values (to the last bit: a deterministic model
// gives the same run twice).
func (s Set) Equal(o Set) bool {
	if len(s) != len(o) {
		return false
	}
	for i := range s {
		if s[i].Name != o[i].Name || s[i].Value != o[i].Value {
			return false
		}
	}
	return true
}

// Names lists the counters' names in order.
func (s Set) Names() []string {
	out := make([]string, len(s))
	for i := range s {
		out[i] = s[i].Name
	}
	return out
}

// Map is the set as a map from name to value.
func (s Set) Map() map[string]float64 {
	m := make(map[string]float64, len(s))
	for _, it := range s {
		m[it.Name] = it.Value
	}
	return m
}

// MarshalJSON writes the set as one object from name to value, in the
// set's order (units and meanings are in docs/counters.md).
func (s Set) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, it := range s {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(it.Name)
		b.Write(k)
		b.WriteByte(':')
		b.WriteString(jsonNumber(it.Value))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// jsonNumber writes v as encoding/json would; NaN and infinities, which
// JSON cannot hold, as null.
func jsonNumber(v float64) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "null"
	}
	return string(b)
}

// UnmarshalJSON reads an object from name to value, in its order, looking
// up each name's unit and meaning.
func (s *Set) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("counters: want an object of counters, got %v", t)
	}
	*s = (*s)[:0]
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		name, _ := t.(string)
		var num *json.Number
		if err := dec.Decode(&num); err != nil {
			return fmt.Errorf("counters: %s: %w", name, err)
		}
		it := Item{Name: name}
		if num != nil {
			if it.Value, err = strconv.ParseFloat(string(*num), 64); err != nil {
				return fmt.Errorf("counters: %s: %w", name, err)
			}
		}
		if d, _, ok := Lookup(name, ""); ok {
			it.Unit, it.Doc = d.Unit, d.Doc
		}
		*s = append(*s, it)
	}
	_, err = dec.Token()
	return err
}
