// Package docsync keeps generated sections of the documentation equal to
// what the code produces: a test renders the section, Check compares it with
// the text between two marker lines of a document and, asked to, rewrites it.
package docsync

import (
	"os"
	"strings"
	"testing"
)

// Check compares the section of the document at path that starts on the
// line beginning with begin and ends at the line end with body (laid out as
// the marker line, a blank line, body, a newline, the end marker). With
// update it rewrites the section instead; how says how to do that, for the
// error message.
func Check(t testing.TB, path, begin, end, body string, update bool, how string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("%s lacks the markers %q and %q", path, begin, end)
	}
	lineEnd := i + strings.IndexByte(doc[i:], '\n')
	if lineEnd < i || lineEnd > j {
		lineEnd = i + len(begin)
	}
	want := doc[:lineEnd] + "\n\n" + body + "\n" + doc[j:]
	if doc == want {
		return
	}
	if update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s is stale: %s", path, how)
}
