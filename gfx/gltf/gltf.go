// Package gltf loads glTF 2.0 scenes (.gltf JSON with its buffers and
// images, or binary .glb) into a scene.Scene: triangle meshes (lists, strips
// and fans; indexed or not) with positions, normals, the first texture
// coordinate set and vertex colours, node hierarchies with matrix or TRS
// transforms, and materials' base colour factor and texture (PNG or JPEG,
// decoded by the standard library) with their samplers, alpha mode and
// double-sidedness. Anything else a file requires (sparse accessors,
// points and lines, required extensions) is refused by name.
//
// External files are read from the glTF file's directory only: a URI may
// name a file in it or below it, not above it.
package gltf

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/draw"
	_ "image/jpeg" // JPEG textures
	_ "image/png"  // PNG textures
	"io/fs"
	"math"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/pocketgpu/pocketgpu/gfx/scene"
)

// Limits that keep a malformed or hostile file from exhausting memory.
const (
	maxVertices  = 1 << 22 // per accessor
	maxIndices   = 1 << 24 // per accessor
	maxTotal     = 1 << 25 // vertices plus indices in the whole file
	maxTexelSide = 16384
	maxTexels    = 1 << 24
	maxNodeDepth = 256
	maxInstances = 1 << 18 // node visits and mesh instances
)

// Error is a problem with a glTF file: which file, where in it (a JSON
// path such as meshes[0].primitives[1].attributes.POSITION) and what.
type Error struct {
	File string
	Path string
	Msg  string
	Err  error
}

func (e *Error) Error() string {
	s := e.File + ": "
	if e.Path != "" {
		s += e.Path + ": "
	}
	s += e.Msg
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// Load reads a .gltf or .glb file and the files it references.
func Load(file string) (*scene.Scene, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, &Error{File: file, Msg: "cannot read the file", Err: unwrapPath(err)}
	}
	return Parse(data, os.DirFS(filepath.Dir(file)), file)
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Parse loads a glTF document (JSON or GLB bytes) named name; files it
// references are read from dir (nil: none may be referenced).
func Parse(data []byte, dir fs.FS, name string) (*scene.Scene, error) {
	l := &loader{name: name, dir: dir}
	s, err := l.load(data)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// The JSON schema, as far as pocketgpu reads it.
type document struct {
	Asset struct {
		Version    string `json:"version"`
		MinVersion string `json:"minVersion"`
	} `json:"asset"`
	ExtensionsRequired []string     `json:"extensionsRequired"`
	Scene              *int         `json:"scene"`
	Scenes             []gScene     `json:"scenes"`
	Nodes              []node       `json:"nodes"`
	Meshes             []mesh       `json:"meshes"`
	Accessors          []accessor   `json:"accessors"`
	BufferViews        []bufferView `json:"bufferViews"`
	Buffers            []buffer     `json:"buffers"`
	Materials          []material   `json:"materials"`
	Textures           []texture    `json:"textures"`
	Images             []gImage     `json:"images"`
	Samplers           []sampler    `json:"samplers"`
}

type gScene struct {
	Nodes []int `json:"nodes"`
}

type node struct {
	Name        string    `json:"name"`
	Children    []int     `json:"children"`
	Mesh        *int      `json:"mesh"`
	Matrix      []float64 `json:"matrix"`
	Translation []float64 `json:"translation"`
	Rotation    []float64 `json:"rotation"`
	Scale       []float64 `json:"scale"`
}

type mesh struct {
	Name       string      `json:"name"`
	Primitives []primitive `json:"primitives"`
}

type primitive struct {
	Attributes map[string]int `json:"attributes"`
	Indices    *int           `json:"indices"`
	Material   *int           `json:"material"`
	Mode       *int           `json:"mode"`
	Targets    []any          `json:"targets"`
}

type accessor struct {
	BufferView    *int   `json:"bufferView"`
	ByteOffset    int    `json:"byteOffset"`
	ComponentType int    `json:"componentType"`
	Normalized    bool   `json:"normalized"`
	Count         int    `json:"count"`
	Type          string `json:"type"`
	Sparse        any    `json:"sparse"`
}

type bufferView struct {
	Buffer     int `json:"buffer"`
	ByteOffset int `json:"byteOffset"`
	ByteLength int `json:"byteLength"`
	ByteStride int `json:"byteStride"`
}

type buffer struct {
	URI        string `json:"uri"`
	ByteLength int    `json:"byteLength"`
}

type textureRef struct {
	Index    int `json:"index"`
	TexCoord int `json:"texCoord"`
}

type material struct {
	Name string `json:"name"`
	PBR  *struct {
		BaseColorFactor  []float64   `json:"baseColorFactor"`
		BaseColorTexture *textureRef `json:"baseColorTexture"`
	} `json:"pbrMetallicRoughness"`
	AlphaMode   string                     `json:"alphaMode"`
	AlphaCutoff *float64                   `json:"alphaCutoff"`
	DoubleSided bool                       `json:"doubleSided"`
	Extensions  map[string]json.RawMessage `json:"extensions"`
}

type texture struct {
	Sampler *int `json:"sampler"`
	Source  *int `json:"source"`
}

type gImage struct {
	URI        string `json:"uri"`
	MimeType   string `json:"mimeType"`
	BufferView *int   `json:"bufferView"`
}

type sampler struct {
	MagFilter int `json:"magFilter"`
	MinFilter int `json:"minFilter"`
	WrapS     int `json:"wrapS"`
	WrapT     int `json:"wrapT"`
}

type loader struct {
	name    string
	dir     fs.FS
	doc     document
	bin     []byte // GLB binary chunk
	buffers [][]byte
	s       *scene.Scene
	texOf   map[int]int // glTF image -> scene texture
	total   int         // accessor elements read so far
}

func (l *loader) errf(path, format string, args ...any) error {
	return &Error{File: l.name, Path: path, Msg: fmt.Sprintf(format, args...)}
}

func (l *loader) wrap(path, msg string, err error) error {
	return &Error{File: l.name, Path: path, Msg: msg, Err: err}
}

// GLB constants (glTF 2.0 §GLB File Format Specification).
const (
	glbMagic     = 0x46546C67 // "glTF"
	glbChunkJSON = 0x4E4F534A
	glbChunkBIN  = 0x004E4942
)

func (l *loader) load(data []byte) (*scene.Scene, error) {
	js := data
	if len(data) >= 4 && binary.LittleEndian.Uint32(data) == glbMagic {
		var err error
		if js, err = l.glb(data); err != nil {
			return nil, err
		}
	}
	dec := json.NewDecoder(bytes.NewReader(js))
	if err := dec.Decode(&l.doc); err != nil {
		return nil, l.wrap("", "not a glTF 2.0 document (JSON)", err)
	}
	d := &l.doc
	if d.Asset.Version == "" {
		return nil, l.errf("asset.version", "missing: a glTF 2.0 file says \"2.0\"")
	}
	if major, _, _ := strings.Cut(d.Asset.Version, "."); major != "2" {
		return nil, l.errf("asset.version", "glTF %s is not supported (2.0 is)", d.Asset.Version)
	}
	if d.Asset.MinVersion != "" && d.Asset.MinVersion != "2.0" {
		return nil, l.errf("asset.minVersion", "the file needs glTF %s (pocketgpu reads 2.0)", d.Asset.MinVersion)
	}
	if len(d.ExtensionsRequired) > 0 {
		return nil, l.errf("extensionsRequired", "the file requires %s, which pocketgpu does not support", strings.Join(d.ExtensionsRequired, ", "))
	}
	if err := l.loadBuffers(); err != nil {
		return nil, err
	}
	l.s = &scene.Scene{Name: l.name, Light: scene.Vec3{0.4, 0.8, 0.45}.Norm()}
	l.texOf = map[int]int{}
	if err := l.loadMaterials(); err != nil {
		return nil, err
	}
	// One scene mesh per glTF primitive; meshIdx[m] lists those of mesh m.
	meshIdx := make([][]int, len(d.Meshes))
	for mi := range d.Meshes {
		for pi := range d.Meshes[mi].Primitives {
			m, err := l.primitive(mi, pi)
			if err != nil {
				return nil, err
			}
			meshIdx[mi] = append(meshIdx[mi], len(l.s.Meshes))
			l.s.Meshes = append(l.s.Meshes, m)
		}
	}
	if err := l.instances(meshIdx); err != nil {
		return nil, err
	}
	if len(l.s.Instances) == 0 {
		return nil, l.errf("", "nothing to draw: no node of the scene has a mesh with triangles")
	}
	if err := l.s.Validate(); err != nil {
		return nil, l.wrap("", "inconsistent scene", err)
	}
	l.s.FitCamera()
	return l.s, nil
}

func (l *loader) glb(data []byte) ([]byte, error) {
	if len(data) < 20 {
		return nil, l.errf("", "GLB file of %d bytes is shorter than its 12-byte header and first chunk header", len(data))
	}
	if v := binary.LittleEndian.Uint32(data[4:]); v != 2 {
		return nil, l.errf("", "GLB version %d is not supported (2 is)", v)
	}
	total := int(binary.LittleEndian.Uint32(data[8:]))
	if total > len(data) || total < 20 {
		return nil, l.errf("", "GLB header says %d bytes, the file has %d", total, len(data))
	}
	var js []byte
	off := 12
	for i := 0; off+8 <= total; i++ {
		n := int(binary.LittleEndian.Uint32(data[off:]))
		typ := binary.LittleEndian.Uint32(data[off+4:])
		off += 8
		if n < 0 || n > total-off {
			return nil, l.errf("", "GLB chunk %d of %d bytes runs past the end of the file", i, n)
		}
		chunk := data[off : off+n]
		off += n
		switch {
		case i == 0 && typ != glbChunkJSON:
			return nil, l.errf("", "the first GLB chunk must be JSON")
		case i == 0:
			js = chunk
		case i == 1 && typ == glbChunkBIN:
			l.bin = chunk
		}
	}
	if js == nil {
		return nil, l.errf("", "GLB file without a JSON chunk")
	}
	return js, nil
}

func (l *loader) loadBuffers() error {
	for i, b := range l.doc.Buffers {
		p := fmt.Sprintf("buffers[%d]", i)
		if b.ByteLength < 1 {
			return l.errf(p, "byteLength %d (must be at least 1)", b.ByteLength)
		}
		var data []byte
		switch {
		case b.URI == "" && i == 0 && l.bin != nil:
			data = l.bin
		case b.URI == "":
			return l.errf(p, "no uri, and it is not the binary chunk of a .glb file")
		default:
			var err error
			if data, err = l.readURI(p, b.URI); err != nil {
				return err
			}
		}
		if len(data) < b.ByteLength {
			return l.errf(p, "byteLength %d, but only %d bytes are there", b.ByteLength, len(data))
		}
		l.buffers = append(l.buffers, data[:b.ByteLength])
	}
	return nil
}

// readURI reads a data: URI or a file relative to the glTF file.
func (l *loader) readURI(p, uri string) ([]byte, error) {
	if rest, ok := strings.CutPrefix(uri, "data:"); ok {
		meta, payload, ok := strings.Cut(rest, ",")
		if !ok || !strings.HasSuffix(meta, ";base64") {
			return nil, l.errf(p, "data URI is not base64 (data:<type>;base64,<data>)")
		}
		data, err := base64.StdEncoding.DecodeString(payload)
		if err != nil {
			return nil, l.wrap(p, "data URI is not valid base64", err)
		}
		return data, nil
	}
	if i := strings.Index(uri, ":"); i > 0 && !strings.ContainsAny(uri[:i], "/.") {
		return nil, l.errf(p, "uri %q: only data: URIs and relative file names are supported", uri)
	}
	name, err := url.PathUnescape(uri)
	if err != nil {
		return nil, l.wrap(p, fmt.Sprintf("uri %q is not a valid relative URI", uri), err)
	}
	name = path.Clean(name)
	if !fs.ValidPath(name) {
		return nil, l.errf(p, "uri %q must name a file in the glTF file's directory or below it", uri)
	}
	if l.dir == nil {
		return nil, l.errf(p, "uri %q names an external file, and this document has no directory to read it from", uri)
	}
	data, err := fs.ReadFile(l.dir, name)
	if err != nil {
		return nil, l.wrap(p, fmt.Sprintf("cannot read %q", name), unwrapPath(err))
	}
	return data, nil
}

// Component types and element sizes (glTF 2.0 §3.6.2 Accessors).
var compBytes = map[int]int{5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4}
var compNames = map[int]string{5120: "BYTE", 5121: "UNSIGNED_BYTE", 5122: "SHORT", 5123: "UNSIGNED_SHORT", 5125: "UNSIGNED_INT", 5126: "FLOAT"}
var typeComps = map[string]int{"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16}

// view is a checked accessor: element i, component c is at
// data[i*stride + c*size].
type view struct {
	data          []byte
	count, comps  int
	stride, csize int
	ctype         int
	normalized    bool
	zero          bool // no buffer view: every element is zero
}

func (l *loader) accessor(p string, idx int, limit int) (*view, error) {
	d := &l.doc
	if idx < 0 || idx >= len(d.Accessors) {
		return nil, l.errf(p, "accessor %d does not exist (%d accessors)", idx, len(d.Accessors))
	}
	a := d.Accessors[idx]
	ap := fmt.Sprintf("accessors[%d]", idx)
	if a.Sparse != nil {
		return nil, l.errf(ap, "sparse accessors are not supported")
	}
	cs, ok := compBytes[a.ComponentType]
	if !ok {
		return nil, l.errf(ap, "componentType %d is not a glTF component type", a.ComponentType)
	}
	nc, ok := typeComps[a.Type]
	if !ok {
		return nil, l.errf(ap, "type %q is not a glTF accessor type", a.Type)
	}
	if a.Count < 1 || a.Count > limit {
		return nil, l.errf(ap, "count %d (1 to %d are accepted)", a.Count, limit)
	}
	l.total += a.Count
	if l.total > maxTotal {
		return nil, l.errf(ap, "the file's accessors hold more than %d elements in all", maxTotal)
	}
	v := &view{count: a.Count, comps: nc, csize: cs, ctype: a.ComponentType, normalized: a.Normalized, stride: nc * cs}
	if a.BufferView == nil {
		v.zero = true // all zeros, as the spec says
		return v, nil
	}
	bi := *a.BufferView
	if bi < 0 || bi >= len(d.BufferViews) {
		return nil, l.errf(ap, "bufferView %d does not exist (%d buffer views)", bi, len(d.BufferViews))
	}
	bv := d.BufferViews[bi]
	bp := fmt.Sprintf("bufferViews[%d]", bi)
	if bv.Buffer < 0 || bv.Buffer >= len(l.buffers) {
		return nil, l.errf(bp, "buffer %d does not exist (%d buffers)", bv.Buffer, len(l.buffers))
	}
	buf := l.buffers[bv.Buffer]
	if bv.ByteOffset < 0 || bv.ByteLength < 1 || bv.ByteOffset > len(buf) || bv.ByteLength > len(buf)-bv.ByteOffset {
		return nil, l.errf(bp, "bytes [%d, %d+%d) are outside buffer %d of %d bytes", bv.ByteOffset, bv.ByteOffset, bv.ByteLength, bv.Buffer, len(buf))
	}
	if bv.ByteStride != 0 {
		if bv.ByteStride < 4 || bv.ByteStride > 252 || bv.ByteStride%4 != 0 {
			return nil, l.errf(bp, "byteStride %d (4 to 252, a multiple of 4)", bv.ByteStride)
		}
		if bv.ByteStride < v.stride {
			return nil, l.errf(bp, "byteStride %d is smaller than one %s %s element (%d bytes)", bv.ByteStride, a.Type, compNames[a.ComponentType], v.stride)
		}
		v.stride = bv.ByteStride
	}
	if a.ByteOffset < 0 || a.ByteOffset%cs != 0 {
		return nil, l.errf(ap, "byteOffset %d is not a multiple of the component size %d", a.ByteOffset, cs)
	}
	need := int64(a.ByteOffset) + int64(a.Count-1)*int64(v.stride) + int64(nc*cs)
	if need > int64(bv.ByteLength) {
		return nil, l.errf(ap, "%d %s elements from byte %d need %d bytes; bufferView %d has %d", a.Count, a.Type, a.ByteOffset, need, bi, bv.ByteLength)
	}
	v.data = buf[bv.ByteOffset+a.ByteOffset : bv.ByteOffset+bv.ByteLength]
	return v, nil
}

// float reads element i, component c as a float (normalised integers map
// to [0,1] or [-1,1]).
func (v *view) float(i, c int) float64 {
	if v.zero {
		return 0
	}
	o := i*v.stride + c*v.csize
	b := v.data[o:]
	switch v.ctype {
	case 5126:
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
	case 5121:
		if v.normalized {
			return float64(b[0]) / 255
		}
		return float64(b[0])
	case 5120:
		if v.normalized {
			return math.Max(float64(int8(b[0]))/127, -1)
		}
		return float64(int8(b[0]))
	case 5123:
		x := binary.LittleEndian.Uint16(b)
		if v.normalized {
			return float64(x) / 65535
		}
		return float64(x)
	case 5122:
		x := int16(binary.LittleEndian.Uint16(b))
		if v.normalized {
			return math.Max(float64(x)/32767, -1)
		}
		return float64(x)
	}
	return float64(binary.LittleEndian.Uint32(b))
}

func (v *view) uint(i int) uint32 {
	if v.zero {
		return 0
	}
	b := v.data[i*v.stride:]
	switch v.csize {
	case 1:
		return uint32(b[0])
	case 2:
		return uint32(binary.LittleEndian.Uint16(b))
	}
	return binary.LittleEndian.Uint32(b)
}

// attr reads a vertex attribute, checking its type against what the
// renderer accepts.
func (l *loader) attr(p, name string, idx, n int, types []string, ctypes []int) (*view, error) {
	v, err := l.accessor(p+".attributes."+name, idx, maxVertices)
	if err != nil {
		return nil, err
	}
	a := l.doc.Accessors[idx]
	okType := false
	for _, t := range types {
		okType = okType || t == a.Type
	}
	okComp := false
	for _, c := range ctypes {
		okComp = okComp || c == a.ComponentType
	}
	if !okType || !okComp || (a.ComponentType != 5126 && !a.Normalized) {
		var cn []string
		for _, c := range ctypes {
			cn = append(cn, compNames[c])
		}
		return nil, l.errf(p+".attributes."+name, "accessor %d is %s %s%s; pocketgpu reads %s as %s of %s", idx, a.Type, compNames[a.ComponentType],
			map[bool]string{true: " normalized", false: ""}[a.Normalized], name, strings.Join(types, " or "), strings.Join(cn, ", ")+" (integers normalized)")
	}
	if n >= 0 && v.count != n {
		return nil, l.errf(p+".attributes."+name, "%d elements, but POSITION has %d", v.count, n)
	}
	return v, nil
}

var modeNames = map[int]string{0: "POINTS", 1: "LINES", 2: "LINE_LOOP", 3: "LINE_STRIP", 4: "TRIANGLES", 5: "TRIANGLE_STRIP", 6: "TRIANGLE_FAN"}

func (l *loader) primitive(mi, pi int) (scene.Mesh, error) {
	pr := l.doc.Meshes[mi].Primitives[pi]
	p := fmt.Sprintf("meshes[%d].primitives[%d]", mi, pi)
	m := scene.Mesh{Name: fmt.Sprintf("%s#%d", l.doc.Meshes[mi].Name, pi)}
	mode := 4
	if pr.Mode != nil {
		mode = *pr.Mode
	}
	if mode < 4 || mode > 6 {
		name, ok := modeNames[mode]
		if !ok {
			return m, l.errf(p, "mode %d is not a glTF primitive mode", mode)
		}
		return m, l.errf(p, "mode %s is not supported (pocketgpu renders triangles: TRIANGLES, TRIANGLE_STRIP, TRIANGLE_FAN)", name)
	}
	if len(pr.Targets) > 0 {
		return m, l.errf(p, "morph targets are not supported")
	}
	pos, ok := pr.Attributes["POSITION"]
	if !ok {
		return m, l.errf(p+".attributes", "no POSITION")
	}
	pv, err := l.attr(p, "POSITION", pos, -1, []string{"VEC3"}, []int{5126})
	if err != nil {
		return m, err
	}
	n := pv.count
	m.Positions = make([][3]float32, n)
	for i := range m.Positions {
		for c := 0; c < 3; c++ {
			x := pv.float(i, c)
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return m, l.errf(p+".attributes.POSITION", "vertex %d has a non-finite coordinate", i)
			}
			m.Positions[i][c] = float32(x)
		}
	}
	if idx, ok := pr.Attributes["NORMAL"]; ok {
		v, err := l.attr(p, "NORMAL", idx, n, []string{"VEC3"}, []int{5126})
		if err != nil {
			return m, err
		}
		m.Normals = make([][3]float32, n)
		for i := range m.Normals {
			for c := 0; c < 3; c++ {
				m.Normals[i][c] = float32(v.float(i, c))
			}
		}
	}
	if idx, ok := pr.Attributes["TEXCOORD_0"]; ok {
		v, err := l.attr(p, "TEXCOORD_0", idx, n, []string{"VEC2"}, []int{5126, 5121, 5123})
		if err != nil {
			return m, err
		}
		m.TexCoords = make([][2]float32, n)
		for i := range m.TexCoords {
			for c := 0; c < 2; c++ {
				m.TexCoords[i][c] = float32(v.float(i, c))
			}
		}
	}
	if idx, ok := pr.Attributes["COLOR_0"]; ok {
		v, err := l.attr(p, "COLOR_0", idx, n, []string{"VEC3", "VEC4"}, []int{5126, 5121, 5123})
		if err != nil {
			return m, err
		}
		m.Colors = make([][4]float32, n)
		for i := range m.Colors {
			m.Colors[i][3] = 1
			for c := 0; c < v.comps; c++ {
				m.Colors[i][c] = float32(v.float(i, c))
			}
		}
	}
	var list []uint32
	if pr.Indices != nil {
		v, err := l.accessor(p+".indices", *pr.Indices, maxIndices)
		if err != nil {
			return m, err
		}
		a := l.doc.Accessors[*pr.Indices]
		if a.Type != "SCALAR" || (a.ComponentType != 5121 && a.ComponentType != 5123 && a.ComponentType != 5125) {
			return m, l.errf(p+".indices", "accessor %d is %s %s; indices are SCALAR UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT", *pr.Indices, a.Type, compNames[a.ComponentType])
		}
		list = make([]uint32, v.count)
		for i := range list {
			list[i] = v.uint(i)
			if int(list[i]) >= n {
				return m, l.errf(p+".indices", "index %d at position %d is past the %d vertices", list[i], i, n)
			}
		}
	} else {
		list = make([]uint32, n)
		for i := range list {
			list[i] = uint32(i)
		}
	}
	switch mode {
	case 4:
		m.Indices = list[:len(list)/3*3]
	case 5:
		for i := 0; i+2 < len(list); i++ {
			if i%2 == 0 {
				m.Indices = append(m.Indices, list[i], list[i+1], list[i+2])
			} else {
				m.Indices = append(m.Indices, list[i+1], list[i], list[i+2])
			}
		}
	case 6:
		for i := 1; i+1 < len(list); i++ {
			m.Indices = append(m.Indices, list[0], list[i], list[i+1])
		}
	}
	l.total += len(m.Indices)
	if l.total > maxTotal {
		return m, l.errf(p, "the file's meshes hold more than %d vertices and indices in all", maxTotal)
	}
	m.Material = 0 // the default material
	if pr.Material != nil {
		k := *pr.Material
		if k < 0 || k >= len(l.doc.Materials) {
			return m, l.errf(p+".material", "material %d does not exist (%d materials)", k, len(l.doc.Materials))
		}
		m.Material = k + 1
	}
	return m, nil
}

func (l *loader) loadMaterials() error {
	// Scene material 0 is glTF's default material: white, opaque, lit.
	l.s.Materials = []scene.Material{{Name: "default", BaseColor: [4]float64{1, 1, 1, 1}, Texture: -1}}
	for i, gm := range l.doc.Materials {
		p := fmt.Sprintf("materials[%d]", i)
		m := scene.Material{Name: gm.Name, BaseColor: [4]float64{1, 1, 1, 1}, Texture: -1, DoubleSided: gm.DoubleSided, AlphaCutoff: 0.5}
		if gm.PBR != nil {
			if f := gm.PBR.BaseColorFactor; f != nil {
				if len(f) != 4 {
					return l.errf(p+".pbrMetallicRoughness.baseColorFactor", "%d numbers (4 are needed)", len(f))
				}
				copy(m.BaseColor[:], f)
			}
			if t := gm.PBR.BaseColorTexture; t != nil {
				if t.TexCoord != 0 {
					return l.errf(p+".pbrMetallicRoughness.baseColorTexture.texCoord", "texture coordinate set %d is not supported (TEXCOORD_0 is)", t.TexCoord)
				}
				tex, smp, err := l.texture(p+".pbrMetallicRoughness.baseColorTexture", t.Index)
				if err != nil {
					return err
				}
				m.Texture, m.Sampler = tex, smp
			}
		}
		switch gm.AlphaMode {
		case "", "OPAQUE":
		case "MASK":
			m.Alpha = scene.Mask
		case "BLEND":
			m.Alpha = scene.Blend
		default:
			return l.errf(p+".alphaMode", "%q (OPAQUE, MASK or BLEND)", gm.AlphaMode)
		}
		if gm.AlphaCutoff != nil {
			m.AlphaCutoff = *gm.AlphaCutoff
		}
		if _, ok := gm.Extensions["KHR_materials_unlit"]; ok {
			m.Unlit = true
		}
		l.s.Materials = append(l.s.Materials, m)
	}
	return nil
}

// texture decodes the image texture ti uses (once per image) and converts
// its sampler.
func (l *loader) texture(p string, ti int) (int, scene.Sampler, error) {
	d := &l.doc
	smp := scene.Sampler{Filter: scene.Linear, Wrap: scene.Repeat}
	if ti < 0 || ti >= len(d.Textures) {
		return 0, smp, l.errf(p+".index", "texture %d does not exist (%d textures)", ti, len(d.Textures))
	}
	t := d.Textures[ti]
	tp := fmt.Sprintf("textures[%d]", ti)
	if t.Sampler != nil {
		si := *t.Sampler
		if si < 0 || si >= len(d.Samplers) {
			return 0, smp, l.errf(tp+".sampler", "sampler %d does not exist (%d samplers)", si, len(d.Samplers))
		}
		s := d.Samplers[si]
		if s.MagFilter == 9728 {
			smp.Filter = scene.Nearest
		}
		// minFilter (glTF 2.0 §3.8.4 Samplers): NEAREST and LINEAR read
		// level 0 only; the MIPMAP forms name the filter within a level,
		// then between levels. Undefined: trilinear.
		switch s.MinFilter {
		case 0, 9987: // LINEAR_MIPMAP_LINEAR
		case 9728: // NEAREST
			smp.MinFilter, smp.Mipmap = scene.Nearest, scene.MipNone
		case 9729: // LINEAR
			smp.Mipmap = scene.MipNone
		case 9984: // NEAREST_MIPMAP_NEAREST
			smp.MinFilter, smp.Mipmap = scene.Nearest, scene.MipNearest
		case 9985: // LINEAR_MIPMAP_NEAREST
			smp.Mipmap = scene.MipNearest
		case 9986: // NEAREST_MIPMAP_LINEAR
			smp.MinFilter = scene.Nearest
		default:
			return 0, smp, l.errf(fmt.Sprintf("samplers[%d].minFilter", si), "%d is not a glTF minification filter (9728, 9729, 9984 to 9987)", s.MinFilter)
		}
		switch s.WrapS {
		case 0, 10497:
		case 33071:
			smp.Wrap = scene.ClampToEdge
		case 33648:
			smp.Wrap = scene.MirroredRepeat
		default:
			return 0, smp, l.errf(fmt.Sprintf("samplers[%d].wrapS", si), "%d is not a glTF wrap mode", s.WrapS)
		}
	}
	if t.Source == nil {
		return 0, smp, l.errf(tp, "no source image (only PNG and JPEG images through source are supported)")
	}
	ii := *t.Source
	if ii < 0 || ii >= len(d.Images) {
		return 0, smp, l.errf(tp+".source", "image %d does not exist (%d images)", ii, len(d.Images))
	}
	if k, ok := l.texOf[ii]; ok {
		return k, smp, nil
	}
	tex, err := l.image(ii)
	if err != nil {
		return 0, smp, err
	}
	l.texOf[ii] = len(l.s.Textures)
	l.s.Textures = append(l.s.Textures, tex)
	return l.texOf[ii], smp, nil
}

func (l *loader) image(ii int) (scene.Texture, error) {
	im := l.doc.Images[ii]
	p := fmt.Sprintf("images[%d]", ii)
	var data []byte
	switch {
	case im.URI != "":
		var err error
		if data, err = l.readURI(p, im.URI); err != nil {
			return scene.Texture{}, err
		}
	case im.BufferView != nil:
		bi := *im.BufferView
		if bi < 0 || bi >= len(l.doc.BufferViews) {
			return scene.Texture{}, l.errf(p+".bufferView", "bufferView %d does not exist", bi)
		}
		bv := l.doc.BufferViews[bi]
		if bv.Buffer < 0 || bv.Buffer >= len(l.buffers) || bv.ByteOffset < 0 || bv.ByteLength < 1 ||
			bv.ByteOffset > len(l.buffers[bv.Buffer]) || bv.ByteLength > len(l.buffers[bv.Buffer])-bv.ByteOffset {
			return scene.Texture{}, l.errf(fmt.Sprintf("bufferViews[%d]", bi), "outside its buffer")
		}
		data = l.buffers[bv.Buffer][bv.ByteOffset : bv.ByteOffset+bv.ByteLength]
	default:
		return scene.Texture{}, l.errf(p, "neither uri nor bufferView")
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return scene.Texture{}, l.wrap(p, "not a PNG or JPEG image", err)
	}
	if cfg.Width < 1 || cfg.Height < 1 || cfg.Width > maxTexelSide || cfg.Height > maxTexelSide || cfg.Width*cfg.Height > maxTexels {
		return scene.Texture{}, l.errf(p, "%dx%d %s image (at most %d a side and %d texels)", cfg.Width, cfg.Height, format, maxTexelSide, maxTexels)
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return scene.Texture{}, l.wrap(p, "cannot decode the "+format+" image", err)
	}
	b := img.Bounds()
	rgba := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(rgba, rgba.Bounds(), img, b.Min, draw.Src)
	name := im.URI
	if strings.HasPrefix(name, "data:") || name == "" {
		name = p
	}
	return scene.Texture{Name: name, Width: b.Dx(), Height: b.Dy(), Pixels: rgba.Pix}, nil
}

// instances walks the scene's node trees, giving every mesh primitive on
// a node an instance with the node's world transform.
func (l *loader) instances(meshIdx [][]int) error {
	d := &l.doc
	var roots []int
	switch {
	case d.Scene != nil:
		if *d.Scene < 0 || *d.Scene >= len(d.Scenes) {
			return l.errf("scene", "scene %d does not exist (%d scenes)", *d.Scene, len(d.Scenes))
		}
		roots = d.Scenes[*d.Scene].Nodes
	case len(d.Scenes) > 0:
		roots = d.Scenes[0].Nodes
	default:
		child := make([]bool, len(d.Nodes))
		for _, n := range d.Nodes {
			for _, c := range n.Children {
				if c >= 0 && c < len(child) {
					child[c] = true
				}
			}
		}
		for i := range d.Nodes {
			if !child[i] {
				roots = append(roots, i)
			}
		}
		if len(d.Nodes) == 0 {
			for mi := range meshIdx {
				for _, k := range meshIdx[mi] {
					l.s.Instances = append(l.s.Instances, scene.Instance{Mesh: k, Transform: scene.Identity()})
				}
			}
			return nil
		}
	}
	visiting := make([]bool, len(d.Nodes))
	visits := 0
	var walk func(p string, ni int, parent scene.Mat4, depth int) error
	walk = func(p string, ni int, parent scene.Mat4, depth int) error {
		if ni < 0 || ni >= len(d.Nodes) {
			return l.errf(p, "node %d does not exist (%d nodes)", ni, len(d.Nodes))
		}
		if visits++; visits > maxInstances {
			return l.errf(p, "the node hierarchy expands to more than %d nodes", maxInstances)
		}
		if visiting[ni] || depth > maxNodeDepth {
			return l.errf(fmt.Sprintf("nodes[%d]", ni), "the node hierarchy has a cycle or is deeper than %d", maxNodeDepth)
		}
		visiting[ni] = true
		defer func() { visiting[ni] = false }()
		n := d.Nodes[ni]
		np := fmt.Sprintf("nodes[%d]", ni)
		local, err := l.local(np, n)
		if err != nil {
			return err
		}
		world := parent.Mul(local)
		if n.Mesh != nil {
			mi := *n.Mesh
			if mi < 0 || mi >= len(meshIdx) {
				return l.errf(np+".mesh", "mesh %d does not exist (%d meshes)", mi, len(meshIdx))
			}
			for _, k := range meshIdx[mi] {
				if len(l.s.Instances) >= maxInstances {
					return l.errf(np, "more than %d mesh instances", maxInstances)
				}
				if len(l.s.Meshes[k].Indices) > 0 {
					l.s.Instances = append(l.s.Instances, scene.Instance{Mesh: k, Transform: world})
				}
			}
		}
		for ci, c := range n.Children {
			if err := walk(fmt.Sprintf("%s.children[%d]", np, ci), c, world, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	for i, r := range roots {
		if err := walk(fmt.Sprintf("scenes.nodes[%d]", i), r, scene.Identity(), 0); err != nil {
			return err
		}
	}
	return nil
}

func (l *loader) local(p string, n node) (scene.Mat4, error) {
	finite := func(v []float64) bool {
		for _, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return false
			}
		}
		return true
	}
	if n.Matrix != nil {
		if len(n.Matrix) != 16 || !finite(n.Matrix) {
			return scene.Mat4{}, l.errf(p+".matrix", "%d numbers (16 finite numbers, column-major, are needed)", len(n.Matrix))
		}
		var m scene.Mat4
		copy(m[:], n.Matrix)
		return m, nil
	}
	m := scene.Identity()
	if n.Translation != nil {
		if len(n.Translation) != 3 || !finite(n.Translation) {
			return m, l.errf(p+".translation", "3 finite numbers are needed")
		}
		m = m.Mul(scene.Translate(scene.Vec3{n.Translation[0], n.Translation[1], n.Translation[2]}))
	}
	if n.Rotation != nil {
		if len(n.Rotation) != 4 || !finite(n.Rotation) {
			return m, l.errf(p+".rotation", "a quaternion of 4 finite numbers is needed")
		}
		q := [4]float64{n.Rotation[0], n.Rotation[1], n.Rotation[2], n.Rotation[3]}
		if ln := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3]); ln > 0 {
			for k := range q {
				q[k] /= ln
			}
		}
		m = m.Mul(scene.Quat(q))
	}
	if n.Scale != nil {
		if len(n.Scale) != 3 || !finite(n.Scale) {
			return m, l.errf(p+".scale", "3 finite numbers are needed")
		}
		m = m.Mul(scene.ScaleM(scene.Vec3{n.Scale[0], n.Scale[1], n.Scale[2]}))
	}
	return m, nil
}
