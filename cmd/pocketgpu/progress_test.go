package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// Off a terminal, progress is one line every few seconds, with an estimate.
func TestProgressLines(t *testing.T) {
	var b bytes.Buffer
	p := newProgress(&b, false, 100, "demo")
	clock := p.start
	p.now = func() time.Time { return clock }
	for i := 0; i < 100; i++ {
		clock = clock.Add(200 * time.Millisecond) // 20 s in all
		if i == 49 {
			p.set(int64(i+1), "1200 cycles")
			continue
		}
		p.tick()
	}
	p.finish()
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 4 {
		t.Fatalf("want a line every 5 s of 20 s, got:\n%s", b.String())
	}
	if lines[0] != "demo: 25 of 100 (25%), 5 s, about 15 s left" {
		t.Errorf("first line %q", lines[0])
	}
	if !strings.Contains(lines[1], "1200 cycles") {
		t.Errorf("detail not shown: %q", lines[1])
	}
	if lines[3] != "demo: 100 of 100 (100%), 1200 cycles, 20 s" {
		t.Errorf("last line %q", lines[3])
	}
}
