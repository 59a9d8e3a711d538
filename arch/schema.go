package arch

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// fieldMeta is what the struct tags of one GPU field say.
type fieldMeta struct {
	index int
	key   string
	unit  string
	doc   string
	opt   bool
	hex   bool
	pow2  bool
	enum  []string
	min   float64
	max   float64
	hasLo bool
	hasHi bool
	typ   reflect.Type
}

var (
	metaMu    sync.Mutex
	metaCache = map[reflect.Type][]fieldMeta{}
)

// fieldsOf lists the YAML fields of a struct type in declaration (schema)
// order.
func fieldsOf(t reflect.Type) []fieldMeta {
	metaMu.Lock()
	defer metaMu.Unlock()
	if m, ok := metaCache[t]; ok {
		return m
	}
	var out []fieldMeta
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		key := f.Tag.Get("yaml")
		if key == "" || key == "-" || !f.IsExported() {
			continue
		}
		m := fieldMeta{index: i, key: key, unit: f.Tag.Get("unit"), doc: f.Tag.Get("doc"), typ: f.Type}
		_, m.opt = f.Tag.Lookup("opt")
		_, m.hex = f.Tag.Lookup("hex")
		_, m.pow2 = f.Tag.Lookup("pow2")
		if e := f.Tag.Get("enum"); e != "" {
			m.enum = strings.Split(e, ",")
		}
		if s, ok := f.Tag.Lookup("min"); ok {
			m.min, _ = strconv.ParseFloat(s, 64)
			m.hasLo = true
		}
		if s, ok := f.Tag.Lookup("max"); ok {
			m.max, _ = strconv.ParseFloat(s, 64)
			m.hasHi = true
		}
		out = append(out, m)
	}
	metaCache[t] = out
	return out
}

func fieldByKey(t reflect.Type, key string) (fieldMeta, bool) {
	for _, m := range fieldsOf(t) {
		if m.key == key {
			return m, true
		}
	}
	return fieldMeta{}, false
}

func keysOf(t reflect.Type) []string {
	var ks []string
	for _, m := range fieldsOf(t) {
		ks = append(ks, m.key)
	}
	return ks
}

var (
	pipeSliceType = reflect.TypeOf([]Pipe{})
	opsMapType    = reflect.TypeOf(map[string]*OpCost{})
)

// isLeaf reports whether a field type is a single parameter (as opposed to a
// section holding parameters).
func isLeaf(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Int, reflect.Float64, reflect.String, reflect.Bool:
		return true
	case reflect.Slice:
		switch t.Elem().Kind() {
		case reflect.Int, reflect.String:
			return true
		}
		return t == pipeSliceType
	}
	return false
}

// typeName describes a leaf type for error messages and the docs.
func typeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int:
		return "integer"
	case reflect.Float64:
		return "number"
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Slice:
		if t == pipeSliceType {
			return "list of {name}"
		}
		return "list of " + typeName(t.Elem()) + "s"
	case reflect.Map:
		return "mapping"
	}
	return "section"
}

// rangeText says what values a field allows.
func (m fieldMeta) rangeText() string {
	var parts []string
	if len(m.enum) > 0 {
		return "one of " + strings.Join(m.enum, ", ")
	}
	switch {
	case m.hasLo && m.hasHi:
		parts = append(parts, fmt.Sprintf("%s to %s", fmtNum(m.min), fmtNum(m.max)))
	case m.hasLo:
		parts = append(parts, "at least "+fmtNum(m.min))
	case m.hasHi:
		parts = append(parts, "at most "+fmtNum(m.max))
	}
	if m.pow2 {
		parts = append(parts, "a power of two")
	}
	return strings.Join(parts, ", ")
}

func fmtNum(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// FieldInfo describes one parameter of the schema (for documentation).
type FieldInfo struct {
	Path     string // "l2.size_kib"; op fields as "ops.<class>.rate"
	Type     string
	Unit     string
	Allowed  string
	Optional bool
	Doc      string
}

// Schema lists every parameter a GPU description can hold, in schema order.
func Schema() []FieldInfo {
	var out []FieldInfo
	schemaWalk(reflect.TypeOf(GPU{}), "", false, &out)
	return out
}

func schemaWalk(t reflect.Type, prefix string, parentOpt bool, out *[]FieldInfo) {
	for _, m := range fieldsOf(t) {
		path := joinPath(prefix, m.key)
		ft := m.typ
		switch {
		case isLeaf(ft):
			*out = append(*out, FieldInfo{Path: path, Type: typeName(ft), Unit: m.unit, Allowed: m.rangeText(), Optional: m.opt || parentOpt, Doc: m.doc})
		case ft == opsMapType:
			schemaWalk(reflect.TypeOf(OpCost{}), path+".<class>", false, out)
		case ft.Kind() == reflect.Ptr:
			schemaWalk(ft.Elem(), path, true, out)
		case ft.Kind() == reflect.Struct:
			schemaWalk(ft, path, parentOpt, out)
		}
	}
}

func joinPath(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

// Param is one parameter of a GPU with its value and where it comes from.
type Param struct {
	Path   string `json:"path"`
	Value  any    `json:"value"`
	Text   string `json:"text"`
	Unit   string `json:"unit"`
	Source string `json:"source"`
	Doc    string `json:"doc"`
}

// Params lists every parameter of the GPU in schema order: required ones
// always, optional ones when set.
func (g *GPU) Params() []Param {
	var out []Param
	g.paramsWalk(reflect.ValueOf(g).Elem(), "", &out)
	return out
}

func (g *GPU) paramsWalk(v reflect.Value, prefix string, out *[]Param) {
	t := v.Type()
	for _, m := range fieldsOf(t) {
		fv := v.Field(m.index)
		path := joinPath(prefix, m.key)
		switch {
		case isLeaf(m.typ):
			_, hasSrc := g.sources[path]
			if m.opt && fv.IsZero() && !hasSrc {
				continue
			}
			*out = append(*out, Param{Path: path, Value: leafValue(fv), Text: leafText(fv, m), Unit: m.unit, Source: g.sourceOr(path), Doc: m.doc})
		case m.typ == opsMapType:
			for _, class := range OpClasses {
				op, ok := g.Ops[class]
				if !ok || op == nil {
					continue
				}
				g.paramsWalk(reflect.ValueOf(op).Elem(), path+"."+class, out)
			}
		case m.typ.Kind() == reflect.Ptr:
			if !fv.IsNil() {
				g.paramsWalk(fv.Elem(), path, out)
			}
		case m.typ.Kind() == reflect.Struct:
			g.paramsWalk(fv, path, out)
		}
	}
}

func (g *GPU) sourceOr(path string) string {
	if s, ok := g.sources[path]; ok && s != "" {
		return s
	}
	return "unspecified"
}

// leafValue is the JSON-friendly value of a leaf.
func leafValue(v reflect.Value) any {
	if v.Type() == pipeSliceType {
		names := make([]string, v.Len())
		for i := range names {
			names[i] = v.Index(i).Field(0).String()
		}
		return names
	}
	if v.Kind() == reflect.String {
		return v.String()
	}
	if v.Kind() == reflect.Slice && v.IsNil() {
		return reflect.MakeSlice(v.Type(), 0, 0).Interface()
	}
	return v.Interface()
}

// leafText is the human form of a leaf.
func leafText(v reflect.Value, m fieldMeta) string {
	switch v.Kind() {
	case reflect.Int:
		if m.hex {
			return fmt.Sprintf("0x%x", v.Int())
		}
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Float64:
		return fmtNum(v.Float())
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.String:
		return v.String()
	case reflect.Slice:
		var parts []string
		for i := 0; i < v.Len(); i++ {
			e := v.Index(i)
			switch e.Kind() {
			case reflect.Int:
				parts = append(parts, strconv.FormatInt(e.Int(), 10))
			case reflect.String:
				parts = append(parts, e.String())
			case reflect.Struct:
				parts = append(parts, e.Field(0).String())
			}
		}
		return strings.Join(parts, ", ")
	}
	return fmt.Sprint(v.Interface())
}

// derivedNames are keys that are computed and therefore cannot be set.
func derivedNames() []string {
	var names []string
	for _, it := range (Derived{}).Items() {
		names = append(names, it.Name)
	}
	sort.Strings(names)
	return names
}
