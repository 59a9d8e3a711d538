package arch

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/pocketgpu/pocketgpu/internal/suggest"
)

// Parse decodes a GPU description written by a user. The file usually names
// a preset with `base:` and overrides some parameters; overridden parameters
// get the source "user: <filename>". filename is used in messages and for the
// default id. The result is validated.
func Parse(data []byte, filename string) (*GPU, error) {
	return parse(data, parseOpts{file: filename, user: true})
}

// Load reads and parses a user GPU description (see Parse).
func Load(path string) (*GPU, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		msg := err.Error()
		var pe *os.PathError
		if errors.As(err, &pe) {
			msg = pe.Err.Error()
		}
		return nil, &ConfigError{File: path, Msg: "cannot read the GPU description: " + msg}
	}
	return Parse(data, path)
}

type parseOpts struct {
	file     string // shown in messages: a path or "preset <id>"
	user     bool   // a user file: sources become "user: <file>"
	presetID string // set when parsing an embedded preset
	depth    int    // base nesting, to stop cycles
}

var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// maxBaseDepth bounds chains of base: references.
const maxBaseDepth = 4

func parse(data []byte, o parseOpts) (*GPU, error) {
	var root yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	err := dec.Decode(&root)
	if errors.Is(err, io.EOF) {
		err = nil
	}
	if err == nil && root.Kind != 0 {
		var more yaml.Node
		if err2 := dec.Decode(&more); !errors.Is(err2, io.EOF) {
			line := 0
			if err2 == nil {
				line = more.Line
			}
			return nil, &ConfigError{File: o.file, Line: line, Msg: "more than one YAML document (---); put the whole description in one"}
		}
	}
	if err != nil {
		ce := &ConfigError{File: o.file, Msg: "not valid YAML: " + strings.TrimPrefix(err.Error(), "yaml: ")}
		if m := yamlLineRE.FindStringSubmatch(err.Error()); m != nil {
			ce.Line, _ = strconv.Atoi(m[1])
			ce.Msg = "not valid YAML: " + m[2]
		}
		return nil, ce
	}
	if root.Kind == 0 || len(root.Content) == 0 {
		return nil, &ConfigError{File: o.file, Msg: "empty file: expected a mapping such as `base: mali-g52` followed by the parameters to change"}
	}
	doc := root.Content[0]
	if doc.Kind != yaml.MappingNode {
		return nil, &ConfigError{File: o.file, Line: doc.Line, Msg: "the top level must be a mapping of parameter names to values (like `base: mali-g52` and `cores: 4`), not " + describe(doc)}
	}

	d := &decoder{file: o.file, user: o.user, preset: o.presetID != ""}
	g, err := d.base(doc, o)
	if err != nil {
		return nil, err
	}
	d.g = g
	if err := d.mapping(doc, reflect.ValueOf(g).Elem(), "", "", true); err != nil {
		return nil, err
	}
	if o.user {
		if _, set := d.set["id"]; !set {
			g.ID = idFromFile(o.file)
		}
	}
	if g.Ops == nil {
		g.Ops = map[string]*OpCost{}
	}
	if err := g.Validate(); err != nil {
		return nil, err
	}
	if o.user && g.Base != "" && !d.set["name"] {
		g.Name = g.deriveName(g.Name, d.set)
	}
	return g, nil
}

// idFromFile makes an id from a file name: "gpus/my-g52.yaml" -> "my-g52".
func idFromFile(file string) string {
	stem := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	if stem == "" || stem == "." || stem == string(filepath.Separator) {
		return "custom"
	}
	return stem
}

type decoder struct {
	g      *GPU
	file   string
	user   bool
	preset bool
	set    map[string]bool // paths set by this file
}

// base resolves the `base:` key, returning a fresh copy of the base GPU (or an
// empty GPU when there is none).
func (d *decoder) base(doc *yaml.Node, o parseOpts) (*GPU, error) {
	g := &GPU{sources: map[string]string{}, origins: map[string]origin{}, fitted: map[string][]string{}}
	for i := 0; i+1 < len(doc.Content); i += 2 {
		k, v := doc.Content[i], doc.Content[i+1]
		if k.Value != "base" {
			continue
		}
		if v.Kind != yaml.ScalarNode || v.ShortTag() == "!!null" || v.Value == "" {
			return nil, &ConfigError{File: o.file, Line: v.Line, Path: "base", Msg: "want the id of a preset or a GPU ID (like mali-g52 or 7212), got " + describe(v)}
		}
		if o.depth >= maxBaseDepth {
			return nil, &ConfigError{File: o.file, Line: v.Line, Path: "base", Msg: "base chain too deep (a cycle?)"}
		}
		id, ok := resolveID(v.Value, o.presetID == "")
		if !ok {
			return nil, &ConfigError{File: o.file, Line: v.Line, Path: "base", Msg: fmt.Sprintf("unknown preset or GPU ID %q; nearest presets: %s", v.Value, strings.Join(suggest.Nearest(v.Value, PresetIDs(), 3), ", "))}
		}
		if id == o.presetID {
			return nil, &ConfigError{File: o.file, Line: v.Line, Path: "base", Msg: "a preset cannot be its own base"}
		}
		b, err := loadPreset(id, o.depth+1)
		if err != nil {
			return nil, err
		}
		if o.presetID != "" {
			// A preset built on another preset: say where inherited
			// numbers come from.
			for p, s := range b.sources {
				b.sources[p] = inheritedSource(id, s)
			}
		}
		b.Base = id
		g = b
	}
	g.File = o.file
	return g, nil
}

// inheritedSource is the source of a number a preset takes from its base
// preset: an assumption that the base's figure holds for this GPU too.
func inheritedSource(base, s string) string {
	if strings.HasPrefix(s, "assumed: as ") {
		return s
	}
	return "assumed: as " + base + "; " + strings.TrimPrefix(s, "assumed: ")
}

func (d *decoder) errAt(n *yaml.Node, path, format string, args ...any) error {
	line := 0
	if n != nil {
		line = n.Line
	}
	return &ConfigError{File: d.file, Line: line, Path: path, Msg: fmt.Sprintf(format, args...)}
}

// describe names a YAML node for error messages.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	case yaml.AliasNode:
		return "an alias"
	case yaml.DocumentNode:
		return "a document"
	}
	v := n.Value
	if len(v) > 40 {
		v = v[:37] + "..."
	}
	switch n.ShortTag() {
	case "!!str":
		return fmt.Sprintf("the string %q", v)
	case "!!int":
		return "the integer " + v
	case "!!float":
		return "the number " + v
	case "!!bool":
		return "the boolean " + v
	case "!!null":
		return "null"
	}
	return fmt.Sprintf("%q", v)
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// mapping decodes a YAML mapping into the struct v. inherited is the source
// given by an enclosing `source:` key.
func (d *decoder) mapping(node *yaml.Node, v reflect.Value, path, inherited string, root bool) error {
	src := inherited
	seen := map[string]int{}
	if !root {
		// A section set here replaces the one its base was fitted to: the
		// tag goes with the value (an op's cost, say, restated by a GPU built
		// on the preset keeps the preset's fit only by saying so again).
		delete(d.g.fitted, path)
	}
	for i := 0; i+1 < len(node.Content); i += 2 {
		k := node.Content[i]
		if k.Kind != yaml.ScalarNode {
			return d.errAt(k, path, "keys must be plain parameter names, not %s", describe(k))
		}
		if first, dup := seen[k.Value]; dup {
			return d.errAt(k, joinPath(path, k.Value), "set twice (first on line %d)", first)
		}
		seen[k.Value] = k.Line
		if k.Value == "source" {
			s, err := d.sourceText(node.Content[i+1], joinPath(path, "source"))
			if err != nil {
				return err
			}
			src = s
		}
		if k.Value == "fitted" && !root {
			// A section fitted as a whole (an op's cost, say).
			ids, err := d.fittedIDs(node.Content[i+1], joinPath(path, "fitted"))
			if err != nil {
				return err
			}
			d.g.fitted[path] = ids
		}
	}
	for i := 0; i+1 < len(node.Content); i += 2 {
		k, val := node.Content[i], node.Content[i+1]
		key := k.Value
		if key == "source" || (root && key == "base") || (key == "fitted" && !root) {
			continue
		}
		m, ok := fieldByKey(v.Type(), key)
		if !ok {
			return d.unknownField(k, path, v.Type(), root)
		}
		if err := d.field(val, v.Field(m.index), joinPath(path, key), m, src); err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) unknownField(k *yaml.Node, path string, t reflect.Type, root bool) error {
	key := k.Value
	full := joinPath(path, key)
	if root {
		for _, dn := range append(derivedNames(), "derived") {
			if key == dn {
				return d.errAt(k, full, "is a derived figure (computed from the other parameters) and cannot be set; change the parameters it is computed from (see `pocketgpu spec`)")
			}
		}
	}
	allowed := keysOf(t)
	if root {
		allowed = append([]string{"base", "source"}, allowed...)
	} else {
		allowed = append(allowed, "source", "fitted")
	}
	return d.errAt(k, full, "unknown field%s; allowed here: %s", suggest.DidYouMean(key, allowed), strings.Join(allowed, ", "))
}

func (d *decoder) sourceText(n *yaml.Node, path string) (string, error) {
	if n.Kind != yaml.ScalarNode || isNull(n) {
		return "", d.errAt(n, path, "want a text saying where the numbers come from (a seed section or `assumed: ...`), got %s", describe(n))
	}
	return strings.TrimSpace(n.Value), nil
}

func (d *decoder) field(node *yaml.Node, fv reflect.Value, path string, m fieldMeta, src string) error {
	if node.Kind == yaml.AliasNode {
		return d.errAt(node, path, "YAML aliases are not supported; write the value out")
	}
	switch {
	case isLeaf(m.typ):
		return d.leaf(node, fv, path, m, src)
	case m.typ == opsMapType:
		return d.ops(node, fv, path, src)
	case m.typ.Kind() == reflect.Ptr:
		if isNull(node) {
			fv.Set(reflect.Zero(m.typ))
			d.clear(path)
			return nil
		}
		if node.Kind != yaml.MappingNode {
			return d.errAt(node, path, "want a section (a mapping of %s), got %s", strings.Join(keysOf(m.typ.Elem()), ", "), describe(node))
		}
		if fv.IsNil() {
			fv.Set(reflect.New(m.typ.Elem()))
		}
		return d.mapping(node, fv.Elem(), path, src, false)
	case m.typ.Kind() == reflect.Struct:
		if node.Kind != yaml.MappingNode {
			return d.errAt(node, path, "want a section (a mapping of %s), got %s", strings.Join(keysOf(m.typ), ", "), describe(node))
		}
		return d.mapping(node, fv, path, src, false)
	}
	return d.errAt(node, path, "internal: unsupported field type %s", m.typ)
}

// clear forgets the sources (and fits) of a path and everything under it.
func (d *decoder) clear(path string) {
	for p := range d.g.fitted {
		if p == path || strings.HasPrefix(p, path+".") {
			delete(d.g.fitted, p)
		}
	}
	for p := range d.g.sources {
		if p == path || strings.HasPrefix(p, path+".") {
			delete(d.g.sources, p)
			delete(d.g.origins, p)
		}
	}
}

// leaf decodes one parameter: a plain value or {value: V, source: "..."}.
func (d *decoder) leaf(node *yaml.Node, fv reflect.Value, path string, m fieldMeta, src string) error {
	val := node
	explicit := ""
	var fitted []string
	if node.Kind == yaml.MappingNode {
		haveValue := false
		for i := 0; i+1 < len(node.Content); i += 2 {
			k, v := node.Content[i], node.Content[i+1]
			switch k.Value {
			case "value":
				val, haveValue = v, true
			case "source":
				s, err := d.sourceText(v, path+".source")
				if err != nil {
					return err
				}
				explicit = s
			case "fitted":
				ids, err := d.fittedIDs(v, path+".fitted")
				if err != nil {
					return err
				}
				fitted = ids
			default:
				return d.errAt(k, path, "a parameter is a plain value or {value: V, source: \"...\", fitted: [FIGURE, ...]}; %q is not allowed in it", k.Value)
			}
		}
		if !haveValue {
			return d.errAt(node, path, "missing `value:` in {value: V, source: \"...\"}")
		}
	}
	if val.Kind == yaml.AliasNode {
		return d.errAt(val, path, "YAML aliases are not supported; write the value out")
	}
	if isNull(val) {
		if !m.opt {
			return d.errAt(val, path, "is required and cannot be null")
		}
		fv.Set(reflect.Zero(fv.Type()))
		d.clear(path)
		return nil
	}
	if err := d.assign(val, fv, path, m); err != nil {
		return err
	}
	// A value set here replaces the one a fit was made for.
	delete(d.g.fitted, path)
	if fitted != nil {
		d.g.fitted[path] = fitted
	}
	return d.setSource(val, path, explicit, src)
}

// fittedIDs reads `fitted: [ID, ...]`: the validate figures a value was
// taken from or backed out of.
func (d *decoder) fittedIDs(n *yaml.Node, path string) ([]string, error) {
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		return nil, d.errAt(n, path, "want a list of the figure ids (bench/figures.yaml) the value was fitted to, like [a640-l2-latency], got %s", describe(n))
	}
	var ids []string
	for _, e := range n.Content {
		if e.Kind != yaml.ScalarNode || strings.TrimSpace(e.Value) == "" || isNull(e) {
			return nil, d.errAt(e, path, "want a figure id, got %s", describe(e))
		}
		ids = append(ids, strings.TrimSpace(e.Value))
	}
	return ids, nil
}

func (d *decoder) setSource(n *yaml.Node, path, explicit, section string) error {
	s := explicit
	if s == "" {
		s = section
	}
	if d.user {
		u := "user: " + d.file
		if s != "" {
			u += " (" + s + ")"
		}
		s = u
	}
	if d.preset && s == "" {
		return d.errAt(n, path, "no source: write {value: V, source: \"seed 00N §Section\"} (or `assumed: ...`), or give the section a source:")
	}
	if d.set == nil {
		d.set = map[string]bool{}
	}
	d.set[path] = true
	d.g.sources[path] = s
	d.g.origins[path] = origin{file: d.file, line: n.Line}
	return nil
}

// assign converts a scalar or list node into the leaf fv.
func (d *decoder) assign(n *yaml.Node, fv reflect.Value, path string, m fieldMeta) error {
	t := fv.Type()
	switch t.Kind() {
	case reflect.Int:
		x, err := d.intOf(n, path)
		if err != nil {
			return err
		}
		fv.SetInt(x)
	case reflect.Float64:
		x, err := d.floatOf(n, path)
		if err != nil {
			return err
		}
		fv.SetFloat(x)
	case reflect.String:
		if n.Kind != yaml.ScalarNode {
			return d.errAt(n, path, "want a text value, got %s", describe(n))
		}
		fv.SetString(n.Value)
	case reflect.Bool:
		if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" {
			return d.errAt(n, path, "want true or false, got %s", describe(n))
		}
		var b bool
		if err := n.Decode(&b); err != nil {
			return d.errAt(n, path, "want true or false, got %s", describe(n))
		}
		fv.SetBool(b)
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			return d.errAt(n, path, "want a list (like [a, b]), got %s", describe(n))
		}
		s := reflect.MakeSlice(t, len(n.Content), len(n.Content))
		for i, e := range n.Content {
			ep := fmt.Sprintf("%s[%d]", path, i)
			if e.Kind == yaml.AliasNode {
				return d.errAt(e, ep, "YAML aliases are not supported; write the value out")
			}
			switch {
			case t == pipeSliceType:
				name, err := d.pipeName(e, ep)
				if err != nil {
					return err
				}
				s.Index(i).Field(0).SetString(name)
			case t.Elem().Kind() == reflect.Int:
				x, err := d.intOf(e, ep)
				if err != nil {
					return err
				}
				s.Index(i).SetInt(x)
			case t.Elem().Kind() == reflect.String:
				if e.Kind != yaml.ScalarNode || isNull(e) {
					return d.errAt(e, ep, "want a text value, got %s", describe(e))
				}
				s.Index(i).SetString(e.Value)
			}
		}
		fv.Set(s)
	default:
		return d.errAt(n, path, "internal: unsupported leaf type %s", t)
	}
	return nil
}

func (d *decoder) pipeName(e *yaml.Node, path string) (string, error) {
	switch e.Kind {
	case yaml.ScalarNode:
		if !isNull(e) && e.Value != "" {
			return e.Value, nil
		}
	case yaml.MappingNode:
		name := ""
		for i := 0; i+1 < len(e.Content); i += 2 {
			k, v := e.Content[i], e.Content[i+1]
			if k.Value != "name" {
				return "", d.errAt(k, path, "a pipe is {name: N}; %q is not allowed in it", k.Value)
			}
			if v.Kind != yaml.ScalarNode || isNull(v) || v.Value == "" {
				return "", d.errAt(v, path+".name", "want a pipe name, got %s", describe(v))
			}
			name = v.Value
		}
		if name != "" {
			return name, nil
		}
	}
	return "", d.errAt(e, path, "want a pipe ({name: fma} or just fma), got %s", describe(e))
}

func (d *decoder) intOf(n *yaml.Node, path string) (int64, error) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" {
		return 0, d.errAt(n, path, "want a whole number, got %s", describe(n))
	}
	var x int64
	if err := n.Decode(&x); err != nil {
		return 0, d.errAt(n, path, "want a whole number that fits in 64 bits, got %s", describe(n))
	}
	if x > math.MaxInt32 || x < math.MinInt32 {
		return 0, d.errAt(n, path, "%d is far out of range", x)
	}
	return x, nil
}

func (d *decoder) floatOf(n *yaml.Node, path string) (float64, error) {
	if n.Kind != yaml.ScalarNode || (n.ShortTag() != "!!int" && n.ShortTag() != "!!float") {
		return 0, d.errAt(n, path, "want a number, got %s", describe(n))
	}
	var x float64
	if err := n.Decode(&x); err != nil {
		return 0, d.errAt(n, path, "want a number, got %s", describe(n))
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, d.errAt(n, path, "want a finite number, got %s", describe(n))
	}
	return x, nil
}

// ops decodes the ops table: a mapping from op class to an OpCost section.
// Entries given by a base are updated field by field.
func (d *decoder) ops(node *yaml.Node, fv reflect.Value, path, inherited string) error {
	if node.Kind != yaml.MappingNode {
		return d.errAt(node, path, "want a mapping from op class (%s ...) to {pipes, rate, pack, ...}, got %s", strings.Join(OpClasses[:3], ", "), describe(node))
	}
	if fv.IsNil() {
		fv.Set(reflect.MakeMap(opsMapType))
	}
	ops := fv.Interface().(map[string]*OpCost)
	src := inherited
	seen := map[string]int{}
	for i := 0; i+1 < len(node.Content); i += 2 {
		k := node.Content[i]
		if k.Kind != yaml.ScalarNode {
			return d.errAt(k, path, "keys must be op class names, not %s", describe(k))
		}
		if first, dup := seen[k.Value]; dup {
			return d.errAt(k, joinPath(path, k.Value), "set twice (first on line %d)", first)
		}
		seen[k.Value] = k.Line
		if k.Value == "source" {
			s, err := d.sourceText(node.Content[i+1], path+".source")
			if err != nil {
				return err
			}
			src = s
		}
	}
	for i := 0; i+1 < len(node.Content); i += 2 {
		k, v := node.Content[i], node.Content[i+1]
		class := k.Value
		if class == "source" {
			continue
		}
		cp := path + "." + class
		if !isOpClass(class) {
			return d.errAt(k, cp, "unknown op class%s; the classes are: %s", suggest.DidYouMean(class, OpClasses), strings.Join(OpClasses, ", "))
		}
		if v.Kind == yaml.AliasNode {
			return d.errAt(v, cp, "YAML aliases are not supported; write the value out")
		}
		if v.Kind != yaml.MappingNode {
			return d.errAt(v, cp, "want {pipes: [...], rate: R} (or {unsupported: true}), got %s", describe(v))
		}
		op := ops[class]
		if op == nil {
			op = &OpCost{}
			ops[class] = op
		}
		if err := d.mapping(v, reflect.ValueOf(op).Elem(), cp, src, false); err != nil {
			return err
		}
	}
	return nil
}

func isOpClass(c string) bool {
	for _, x := range OpClasses {
		if x == c {
			return true
		}
	}
	return false
}
