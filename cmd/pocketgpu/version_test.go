package main

import (
	"bytes"
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersion(t *testing.T) {
	code, out, errOut := runCLI(t, "version")
	if code != exitOK || !strings.HasPrefix(out, "pocketgpu ") || !strings.Contains(out, "go        go1.") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	var b bytes.Buffer
	printVersion(&b, &debug.BuildInfo{GoVersion: "go1.99", Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.time", Value: "2026-11-25T00:00:00Z"}, {Key: "vcs.modified", Value: "true"},
		{Key: "GOOS", Value: "linux"}, {Key: "GOARCH", Value: "arm64"}}})
	want := "pocketgpu v1.2.3\nrevision  abc123 (2026-11-25T00:00:00Z), with uncommitted changes\ngo        go1.99 linux/arm64\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
