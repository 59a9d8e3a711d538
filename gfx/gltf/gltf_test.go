package gltf

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/pocketgpu/pocketgpu/gfx/scene"
)

var update = flag.Bool("update-gltf", false, "rewrite the glTF files in testdata and the fuzz corpus")

// boxParts builds the test model: a cube (24 vertices, 36 UNSIGNED_SHORT
// indices) with normals and texture coordinates, a textured material and a
// parent node (translation) with a child node (rotation, scale) holding
// the mesh, plus a second primitive drawn as a triangle strip quad.
func boxParts() (doc map[string]any, bin []byte, tex []byte) {
	var pos, nrm []float32
	var uv []float32
	var idx []uint16
	faces := [][3][3]float32{
		{{0, 0, 1}, {1, 0, 0}, {0, 1, 0}}, {{0, 0, -1}, {-1, 0, 0}, {0, 1, 0}},
		{{1, 0, 0}, {0, 0, -1}, {0, 1, 0}}, {{-1, 0, 0}, {0, 0, 1}, {0, 1, 0}},
		{{0, 1, 0}, {1, 0, 0}, {0, 0, -1}}, {{0, -1, 0}, {1, 0, 0}, {0, 0, 1}},
	}
	for _, f := range faces {
		base := uint16(len(pos) / 3)
		for _, c := range [][2]float32{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
			for k := 0; k < 3; k++ {
				pos = append(pos, (f[0][k]+f[1][k]*c[0]+f[2][k]*c[1])*0.5)
				nrm = append(nrm, f[0][k])
			}
			uv = append(uv, (c[0]+1)/2, (1-c[1])/2)
		}
		idx = append(idx, base, base+1, base+2, base, base+2, base+3)
	}
	var b bytes.Buffer
	put := func(v any) int {
		off := b.Len()
		_ = binary.Write(&b, binary.LittleEndian, v)
		for b.Len()%4 != 0 {
			b.WriteByte(0)
		}
		return off
	}
	oPos, oNrm, oUV, oIdx := put(pos), put(nrm), put(uv), put(idx)
	strip := []float32{-1, -1, 0, 1, -1, 0, -1, 1, 0, 1, 1, 0}
	oStrip := put(strip)
	bin = b.Bytes()

	img := image.NewNRGBA(image.Rect(0, 0, 8, 8))
	for y := 0; y < 8; y++ {
		for x := 0; x < 8; x++ {
			c := color.NRGBA{240, 240, 240, 255}
			if (x/2+y/2)%2 == 1 {
				c = color.NRGBA{200, 40, 30, 255}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var pb bytes.Buffer
	_ = png.Encode(&pb, img)
	tex = pb.Bytes()

	bv := func(off, n int) map[string]any {
		return map[string]any{"buffer": 0, "byteOffset": off, "byteLength": n}
	}
	doc = map[string]any{
		"asset":  map[string]any{"version": "2.0", "generator": "pocketgpu gltf_test"},
		"scene":  0,
		"scenes": []any{map[string]any{"nodes": []int{0}}},
		"nodes": []any{
			map[string]any{"name": "parent", "translation": []float64{0.25, 0, 0}, "children": []int{1}},
			map[string]any{"name": "box", "mesh": 0, "rotation": []float64{0, 0.3826834, 0, 0.9238795}, "scale": []float64{1, 1, 1}},
		},
		"meshes": []any{map[string]any{"name": "box", "primitives": []any{
			map[string]any{"attributes": map[string]int{"POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2}, "indices": 3, "material": 0},
			map[string]any{"attributes": map[string]int{"POSITION": 4}, "mode": 5, "material": 1},
		}}},
		"accessors": []any{
			map[string]any{"bufferView": 0, "componentType": 5126, "count": 24, "type": "VEC3", "min": []float64{-0.5, -0.5, -0.5}, "max": []float64{0.5, 0.5, 0.5}},
			map[string]any{"bufferView": 1, "componentType": 5126, "count": 24, "type": "VEC3"},
			map[string]any{"bufferView": 2, "componentType": 5126, "count": 24, "type": "VEC2"},
			map[string]any{"bufferView": 3, "componentType": 5123, "count": 36, "type": "SCALAR"},
			map[string]any{"bufferView": 4, "componentType": 5126, "count": 4, "type": "VEC3"},
		},
		"bufferViews": []any{bv(oPos, 288), bv(oNrm, 288), bv(oUV, 192), bv(oIdx, 72), bv(oStrip, 48)},
		"buffers":     []any{map[string]any{"uri": "box.bin", "byteLength": len(bin)}},
		"materials": []any{
			map[string]any{"name": "checker", "pbrMetallicRoughness": map[string]any{"baseColorTexture": map[string]any{"index": 0}, "baseColorFactor": []float64{1, 1, 1, 1}}},
			map[string]any{"name": "glass", "alphaMode": "BLEND", "doubleSided": true, "pbrMetallicRoughness": map[string]any{"baseColorFactor": []float64{0.2, 0.4, 1, 0.5}}},
		},
		"textures": []any{map[string]any{"source": 0, "sampler": 0}},
		"samplers": []any{map[string]any{"magFilter": 9728, "wrapS": 33071}},
		"images":   []any{map[string]any{"uri": "checker.png"}},
	}
	return doc, bin, tex
}

func mustJSON(v any) []byte {
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		panic(err)
	}
	return b
}

// glb packs a document and its binary buffer into a GLB file, the image
// moved into the buffer.
func glb(doc map[string]any, bin, tex []byte) []byte {
	d := map[string]any{}
	for k, v := range doc {
		d[k] = v
	}
	body := append([]byte(nil), bin...)
	imgOff := len(body)
	body = append(body, tex...)
	for len(body)%4 != 0 {
		body = append(body, 0)
	}
	views := append([]any(nil), doc["bufferViews"].([]any)...)
	views = append(views, map[string]any{"buffer": 0, "byteOffset": imgOff, "byteLength": len(tex)})
	d["bufferViews"] = views
	d["buffers"] = []any{map[string]any{"byteLength": len(body)}}
	d["images"] = []any{map[string]any{"bufferView": len(views) - 1, "mimeType": "image/png"}}
	js := mustJSON(d)
	for len(js)%4 != 0 {
		js = append(js, ' ')
	}
	var out bytes.Buffer
	w := func(v uint32) { _ = binary.Write(&out, binary.LittleEndian, v) }
	w(glbMagic)
	w(2)
	w(uint32(12 + 8 + len(js) + 8 + len(body)))
	w(uint32(len(js)))
	w(glbChunkJSON)
	out.Write(js)
	w(uint32(len(body)))
	w(glbChunkBIN)
	out.Write(body)
	return out.Bytes()
}

// testFiles are the files written to testdata (and checked to be current).
func testFiles() map[string][]byte {
	doc, bin, tex := boxParts()
	return map[string][]byte{
		"box.gltf":    mustJSON(doc),
		"box.bin":     bin,
		"checker.png": tex,
		"box.glb":     glb(doc, bin, tex),
	}
}

func TestTestdataIsCurrent(t *testing.T) {
	for name, want := range testFiles() {
		p := filepath.Join("testdata", name)
		if *update {
			if err := os.WriteFile(p, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(p)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s is missing or stale (%v): run go test ./gfx/gltf -update-gltf", p, err)
		}
	}
}

func checkBox(t *testing.T, s *scene.Scene) {
	t.Helper()
	if len(s.Meshes) != 2 || len(s.Instances) != 2 {
		t.Fatalf("%d meshes, %d instances; want 2 and 2", len(s.Meshes), len(s.Instances))
	}
	box := s.Meshes[0]
	if len(box.Positions) != 24 || len(box.Indices) != 36 || len(box.Normals) != 24 || len(box.TexCoords) != 24 {
		t.Fatalf("box: %d positions, %d indices, %d normals, %d uvs", len(box.Positions), len(box.Indices), len(box.Normals), len(box.TexCoords))
	}
	strip := s.Meshes[1]
	if want := []uint32{0, 1, 2, 2, 1, 3}; fmt.Sprint(strip.Indices) != fmt.Sprint(want) {
		t.Errorf("strip indices %v, want %v", strip.Indices, want)
	}
	if len(s.Textures) != 1 || s.Textures[0].Width != 8 || s.Textures[0].Pixels[2*4] != 200 {
		t.Errorf("texture not decoded: %+v", s.Textures)
	}
	m := s.Materials[box.Material]
	if m.Texture != 0 || m.Sampler.Filter != scene.Nearest || m.Sampler.Wrap != scene.ClampToEdge {
		t.Errorf("box material %+v", m)
	}
	if g := s.Materials[strip.Material]; g.Alpha != scene.Blend || !g.DoubleSided || g.BaseColor[3] != 0.5 {
		t.Errorf("glass material %+v", g)
	}
	// Parent translation then child rotation of 45° about Y: the vertex at
	// +X (0.5, y, z) lands at 0.25 + 0.5·cos45 + z·sin45 in x.
	w := s.Instances[0].Transform.Point(scene.Vec3{0.5, 0, 0})
	if math.Abs(w[0]-(0.25+0.5*math.Cos(math.Pi/4))) > 1e-6 || math.Abs(w[2]+0.5*math.Sin(math.Pi/4)) > 1e-6 {
		t.Errorf("node transform: +X maps to %v", w)
	}
	if s.Camera.FovY == 0 {
		t.Error("no camera fitted")
	}
}

func TestLoadGLTFAndGLB(t *testing.T) {
	for _, f := range []string{"box.gltf", "box.glb"} {
		s, err := Load(filepath.Join("testdata", f))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		checkBox(t, s)
	}
}

func TestDataURIs(t *testing.T) {
	doc, bin, tex := boxParts()
	doc["buffers"] = []any{map[string]any{"uri": "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(bin), "byteLength": len(bin)}}
	doc["images"] = []any{map[string]any{"uri": "data:image/png;base64," + base64.StdEncoding.EncodeToString(tex)}}
	s, err := Parse(mustJSON(doc), nil, "inline.gltf")
	if err != nil {
		t.Fatal(err)
	}
	checkBox(t, s)
}

// TestBadInput breaks the model one way at a time; each must give an
// *Error whose text names the problem.
func TestBadInput(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(d map[string]any, files fstest.MapFS)
		raw   []byte
		wants []string
	}{
		{name: "not json", raw: []byte("{\"asset\": "), wants: []string{"not a glTF 2.0 document"}},
		{name: "version", edit: func(d map[string]any, _ fstest.MapFS) { d["asset"] = map[string]any{"version": "1.0"} }, wants: []string{"asset.version", "glTF 1.0 is not supported"}},
		{name: "no version", edit: func(d map[string]any, _ fstest.MapFS) { d["asset"] = map[string]any{} }, wants: []string{"asset.version", "missing"}},
		{name: "required extension", edit: func(d map[string]any, _ fstest.MapFS) {
			d["extensionsRequired"] = []string{"KHR_draco_mesh_compression"}
		}, wants: []string{"requires KHR_draco_mesh_compression"}},
		{name: "missing texture", edit: func(_ map[string]any, f fstest.MapFS) { delete(f, "checker.png") }, wants: []string{"images[0]", `cannot read "checker.png"`, "file does not exist"}},
		{name: "missing buffer", edit: func(_ map[string]any, f fstest.MapFS) { delete(f, "box.bin") }, wants: []string{"buffers[0]", `cannot read "box.bin"`}},
		{name: "escaping uri", edit: func(d map[string]any, _ fstest.MapFS) {
			d["images"] = []any{map[string]any{"uri": "../secret.png"}}
		}, wants: []string{"images[0]", "in the glTF file's directory"}},
		{name: "http uri", edit: func(d map[string]any, _ fstest.MapFS) {
			d["images"] = []any{map[string]any{"uri": "https://example.com/a.png"}}
		}, wants: []string{"only data: URIs and relative file names"}},
		{name: "bad image", edit: func(_ map[string]any, f fstest.MapFS) { f["checker.png"] = &fstest.MapFile{Data: []byte("GIF89a....")} }, wants: []string{"images[0]", "not a PNG or JPEG image"}},
		{name: "short buffer", edit: func(_ map[string]any, f fstest.MapFS) { f["box.bin"] = &fstest.MapFile{Data: []byte{1, 2, 3}} }, wants: []string{"buffers[0]", "only 3 bytes"}},
		{name: "points", edit: func(d map[string]any, _ fstest.MapFS) { prim(d, 0)["mode"] = 0 }, wants: []string{"meshes[0].primitives[0]", "mode POINTS is not supported"}},
		{name: "sparse", edit: func(d map[string]any, _ fstest.MapFS) { acc(d, 0)["sparse"] = map[string]any{"count": 1} }, wants: []string{"accessors[0]", "sparse accessors are not supported"}},
		{name: "accessor past view", edit: func(d map[string]any, _ fstest.MapFS) { acc(d, 0)["count"] = 25 }, wants: []string{"accessors[0]", "need 300 bytes; bufferView 0 has 288"}},
		{name: "position type", edit: func(d map[string]any, _ fstest.MapFS) { acc(d, 0)["type"] = "VEC2" }, wants: []string{"attributes.POSITION", "VEC2 FLOAT", "VEC3"}},
		{name: "index range", edit: func(d map[string]any, _ fstest.MapFS) { acc(d, 3)["componentType"] = 5125; acc(d, 3)["count"] = 18 }, wants: []string{"meshes[0].primitives[0].indices", "past the 24 vertices"}},
		{name: "no position", edit: func(d map[string]any, _ fstest.MapFS) { delete(prim(d, 0)["attributes"].(map[string]int), "POSITION") }, wants: []string{"no POSITION"}},
		{name: "material ref", edit: func(d map[string]any, _ fstest.MapFS) { prim(d, 0)["material"] = 7 }, wants: []string{"material 7 does not exist"}},
		{name: "node cycle", edit: func(d map[string]any, _ fstest.MapFS) { jnode(d, 1)["children"] = []int{0} }, wants: []string{"cycle"}},
		{name: "bad matrix", edit: func(d map[string]any, _ fstest.MapFS) { jnode(d, 0)["matrix"] = []float64{1, 2} }, wants: []string{"nodes[0].matrix", "16 finite numbers"}},
		{name: "stride", edit: func(d map[string]any, _ fstest.MapFS) { jview(d, 0)["byteStride"] = 6 }, wants: []string{"bufferViews[0]", "byteStride 6"}},
		{name: "texcoord set", edit: func(d map[string]any, _ fstest.MapFS) {
			d["materials"].([]any)[0].(map[string]any)["pbrMetallicRoughness"].(map[string]any)["baseColorTexture"] = map[string]any{"index": 0, "texCoord": 1}
		}, wants: []string{"texture coordinate set 1 is not supported"}},
		{name: "min filter", edit: func(d map[string]any, _ fstest.MapFS) {
			d["samplers"] = []any{map[string]any{"minFilter": 9730}}
		}, wants: []string{"samplers[0].minFilter", "9730 is not a glTF minification filter"}},
		{name: "nothing to draw", edit: func(d map[string]any, _ fstest.MapFS) { d["scenes"] = []any{map[string]any{"nodes": []int{}}} }, wants: []string{"nothing to draw"}},
		{name: "glb truncated", raw: func() []byte { d, b, x := boxParts(); g := glb(d, b, x); return g[:40] }(), wants: []string{"GLB"}},
		{name: "glb version", raw: func() []byte {
			d, b, x := boxParts()
			g := glb(d, b, x)
			binary.LittleEndian.PutUint32(g[4:], 1)
			return g
		}(), wants: []string{"GLB version 1"}},
	}
	for _, tt := range tests {
		data := tt.raw
		doc, bin, tex := boxParts()
		files := fstest.MapFS{"box.bin": {Data: bin}, "checker.png": {Data: tex}}
		if data == nil {
			tt.edit(doc, files)
			data = mustJSON(doc)
		}
		_, err := Parse(data, files, "box.gltf")
		if err == nil {
			t.Errorf("%s: accepted", tt.name)
			continue
		}
		var ge *Error
		if !asError(err, &ge) {
			t.Errorf("%s: %T is not a *gltf.Error: %v", tt.name, err, err)
		}
		for _, w := range tt.wants {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q does not say %q", tt.name, err, w)
			}
		}
	}
}

func asError(err error, target **Error) bool {
	e, ok := err.(*Error)
	if ok {
		*target = e
	}
	return ok
}

func prim(d map[string]any, i int) map[string]any {
	return d["meshes"].([]any)[0].(map[string]any)["primitives"].([]any)[i].(map[string]any)
}
func acc(d map[string]any, i int) map[string]any   { return d["accessors"].([]any)[i].(map[string]any) }
func jnode(d map[string]any, i int) map[string]any { return d["nodes"].([]any)[i].(map[string]any) }
func jview(d map[string]any, i int) map[string]any {
	return d["bufferViews"].([]any)[i].(map[string]any)
}

// A sampler's minFilter (glTF 2.0 §3.8.4 Samplers) sets the filter within
// a level and the mipmap mode; left out, the sampler is trilinear.
func TestMinFilter(t *testing.T) {
	for _, c := range []struct {
		minFilter any
		filter    scene.Filter
		mipmap    scene.Mipmap
	}{
		{nil, scene.Linear, scene.MipLinear},
		{9728, scene.Nearest, scene.MipNone}, {9729, scene.Linear, scene.MipNone},
		{9984, scene.Nearest, scene.MipNearest}, {9985, scene.Linear, scene.MipNearest},
		{9986, scene.Nearest, scene.MipLinear}, {9987, scene.Linear, scene.MipLinear},
	} {
		doc, bin, tex := boxParts()
		smp := map[string]any{"magFilter": 9728}
		if c.minFilter != nil {
			smp["minFilter"] = c.minFilter
		}
		doc["samplers"] = []any{smp}
		s, err := Parse(mustJSON(doc), fstest.MapFS{"box.bin": {Data: bin}, "checker.png": {Data: tex}}, "box.gltf")
		if err != nil {
			t.Fatalf("minFilter %v: %v", c.minFilter, err)
		}
		got := s.Materials[s.Meshes[0].Material].Sampler
		if got.Filter != scene.Nearest || got.MinFilter != c.filter || got.Mipmap != c.mipmap {
			t.Errorf("minFilter %v: sampler %+v, want magnification nearest, minification %d, mipmap %d", c.minFilter, got, c.filter, c.mipmap)
		}
	}
}

func TestJPEGTextureAndMask(t *testing.T) {
	doc, bin, _ := boxParts()
	img := image.NewRGBA(image.Rect(0, 0, 16, 8))
	for i := range img.Pix {
		img.Pix[i] = 200
	}
	var jb bytes.Buffer
	if err := jpeg.Encode(&jb, img, nil); err != nil {
		t.Fatal(err)
	}
	doc["images"] = []any{map[string]any{"uri": "data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(jb.Bytes())}}
	doc["buffers"] = []any{map[string]any{"uri": "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(bin), "byteLength": len(bin)}}
	m := doc["materials"].([]any)[0].(map[string]any)
	m["alphaMode"], m["alphaCutoff"] = "MASK", 0.25
	m["extensions"] = map[string]any{"KHR_materials_unlit": map[string]any{}}
	s, err := Parse(mustJSON(doc), nil, "jpeg.gltf")
	if err != nil {
		t.Fatal(err)
	}
	tex := s.Textures[0]
	if tex.Width != 16 || tex.Height != 8 || tex.Pixels[3] != 255 || tex.Pixels[0] < 190 || tex.Pixels[0] > 210 {
		t.Errorf("JPEG texture %dx%d, first texel %v", tex.Width, tex.Height, tex.Pixels[:4])
	}
	mat := s.Materials[s.Meshes[0].Material]
	if mat.Alpha != scene.Mask || mat.AlphaCutoff != 0.25 || !mat.Unlit {
		t.Errorf("material %+v", mat)
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "none.gltf"))
	if err == nil || !strings.Contains(err.Error(), "cannot read the file") {
		t.Errorf("got %v", err)
	}
}

// FuzzGLTF feeds arbitrary documents to the loader: it must return a scene
// that validates or an error, never panic or hang. Files referenced by
// name come from testdata.
func FuzzGLTF(f *testing.F) {
	files := testFiles()
	f.Add(files["box.gltf"])
	f.Add(files["box.glb"])
	fsys := os.DirFS("testdata")
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data, fsys, "fuzz.gltf")
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("scene accepted but invalid: %v", err)
		}
	})
}
