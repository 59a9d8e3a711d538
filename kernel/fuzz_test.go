package kernel

import (
	"fmt"
	"strings"
	"testing"
)

// FuzzParseArg checks that no spec makes the parser panic or describe more
// than MaxArgBytes, that accepted specs are self-consistent, and that
// materialising a small accepted spec gives exactly ByteSize bytes.
// The seed corpus is in testdata/fuzz/FuzzParseArg.
func FuzzParseArg(f *testing.F) {
	for _, s := range []string{"buf:f32:1024=random", "u32:7", "local:64", "image2d:f32:4x4=iota", "buf:u32:64=chase:16:3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		a, err := ParseArg(spec)
		if err != nil {
			msg := err.Error()
			if !strings.HasPrefix(msg, fmt.Sprintf("argument spec %q: ", spec)) {
				t.Fatalf("error does not quote the spec: %s", msg)
			}
			return
		}
		if a.Kind < BufferArg || a.Kind > Image2DArg {
			t.Fatalf("%q: kind %v", spec, a.Kind)
		}
		size := a.ByteSize()
		if size < 0 || size > MaxArgBytes {
			t.Fatalf("%q: ByteSize %d outside [0, %d]", spec, size, MaxArgBytes)
		}
		switch a.Kind {
		case ScalarArg:
			if size != a.Elem.Size() || size == 0 {
				t.Fatalf("%q: scalar of %d bytes for %v", spec, size, a.Elem)
			}
		case LocalArg:
			if size <= 0 {
				t.Fatalf("%q: local of %d bytes", spec, size)
			}
		default:
			if a.Count <= 0 || size != a.Count*a.Elem.Size() {
				t.Fatalf("%q: count %d, size %d", spec, a.Count, size)
			}
		}
		again, err := ParseArg(a.Spec)
		if err != nil || fmt.Sprintf("%+v", again) != fmt.Sprintf("%+v", a) {
			t.Fatalf("%q: parsing again gives %+v, %v", spec, again, err)
		}
		if size > 1<<16 || a.Init.Kind == InitFile {
			return
		}
		data, err := a.Materialize(t.TempDir())
		if err != nil {
			t.Fatalf("%q: Materialize: %v", spec, err)
		}
		if a.Kind != LocalArg && len(data) != size {
			t.Fatalf("%q: Materialize gave %d bytes, want %d", spec, len(data), size)
		}
		if a.Kind != LocalArg {
			if got := FormatElements(data, a.Elem, -1); len(got) != max(a.Count, 1) {
				t.Fatalf("%q: FormatElements gave %d elements, want %d", spec, len(got), a.Count)
			}
		}
	})
}
