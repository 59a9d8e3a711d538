package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

var reportScreenshot = flag.String("report-screenshot", "", "TestHTMLReportInBrowser: also save the report's screenshot to this PNG")

// findChromium finds a Chromium or Chrome binary, "" when there is none.
func findChromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browsed is what headless Chromium made of a page.
type browsed struct {
	// problems are console errors and warnings, exceptions, failed loads
	// and requests for anything but the file itself and data: URIs.
	problems []string
	// counts are the values of the queries asked for, in order.
	counts []int
	shot   []byte // a PNG of the whole page
}

// browse opens the HTML file path in headless Chromium with a 1400 px
// window, waits for the element ready, evaluates each query (JavaScript
// giving a number) and takes a screenshot of the whole page.
func browse(t *testing.T, bin, path, ready string, queries ...string) *browsed {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin), chromedp.WindowSize(1400, 1000))
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox) // Chromium refuses root without it
	}
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 90*time.Second)
	defer cancel()

	var mu sync.Mutex
	b := &browsed{}
	problem := func(format string, args ...any) {
		mu.Lock()
		b.problems = append(b.problems, fmt.Sprintf(format, args...))
		mu.Unlock()
	}
	// Listen starts the browser; the log and network domains are on from
	// the start, so a failed load is seen.
	err = chromedp.Listen(ctx, func(ev any) {
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning || e.Type == runtime.ConsoleAPICalledTypeAssert {
				problem("console %s", e.Type)
			}
		case *runtime.EventExceptionThrown:
			problem("exception: %s", e.ExceptionDetails.Text)
		case *log.EventEntryAdded:
			if e.Entry.Level == log.EntryLevelError || e.Entry.Level == log.EntryLevelWarning {
				problem("log %s (%s): %s %s", e.Entry.Level, e.Entry.Source, e.Entry.Text, e.Entry.URL)
			}
		case *network.EventLoadingFailed:
			problem("failed to load (%s): %s", e.Type, e.ErrorText)
		case *network.EventRequestWillBeSent:
			if u := e.Request.URL; u != "file://"+filepath.ToSlash(abs) && !strings.HasPrefix(u, "data:") {
				problem("requested %s", u)
			}
		}
	})
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate("file://"+filepath.ToSlash(abs)),
		chromedp.WaitReady(chromedp.CSS(ready)),
	); err != nil {
		t.Fatalf("chromium: %v", err)
	}
	for _, q := range queries {
		v, err := chromedp.Run(ctx, chromedp.Evaluate[int](q))
		if err != nil {
			t.Fatalf("chromium: %s: %v", q, err)
		}
		b.counts = append(b.counts, v)
	}
	if b.shot, err = chromedp.Run(ctx, chromedp.FullScreenshot(100)); err != nil {
		t.Fatalf("chromium: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	b.problems = append([]string(nil), b.problems...)
	return b
}

// The report as a reader's browser shows it: headless Chromium (Debian's
// chromium package) opens run --html's page from disk and finds no
// console error, exception or failed load, the sections with their charts
// and hotspots drawn, no broken image, and the page as wide as the window
// (side-by-side columns that fit). The screenshot goes to the test's
// directory, or to -report-screenshot. A page with a missing image and a
// script error is caught, so the check is not vacuous.
func TestHTMLReportInBrowser(t *testing.T) {
	bin := findChromium()
	if bin == "" {
		t.Skip("no chromium on PATH (Debian package chromium)")
	}
	b := browse(t, bin, reportRun(t, t.TempDir()), "#counter-table",
		`document.querySelectorAll("svg.chart").length`,
		`[...document.images].filter(i => !i.complete || i.naturalWidth == 0).length`,
		`["summary","timeline","roofline","hotspots","analysis","counters"].filter(id => document.getElementById(id)).length`,
		`document.querySelectorAll("table.src td.rank:not(:empty)").length`,
		`document.documentElement.scrollWidth - window.innerWidth`,
	)
	for _, p := range b.problems {
		t.Error(p)
	}
	if c := b.counts; c[0] != 4 || c[1] != 0 || c[2] != 6 || c[3] != 6 || c[4] > 0 {
		t.Errorf("%d charts (want 4), %d broken images, %d of 6 sections, %d hottest lines marked (want 3 per GPU), %d px wider than the window", c[0], c[1], c[2], c[3], c[4])
	}
	out := filepath.Join(t.TempDir(), "report.png")
	if *reportScreenshot != "" {
		out = *reportScreenshot
	}
	if err := os.WriteFile(out, b.shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d bytes)", out, len(b.shot))

	bad := filepath.Join(t.TempDir(), "bad.html")
	if err := os.WriteFile(bad, []byte(`<!DOCTYPE html><html><head><title>x</title></head><body><p id="x">x</p><img src="missing.png" alt=""><script>undefinedFunction()</script></body></html>`), 0o644); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(browse(t, bin, bad, "#x").problems, "\n")
	if !strings.Contains(got, "missing.png") || !strings.Contains(got, "exception") {
		t.Errorf("a broken page's problems were not all seen:\n%s", got)
	}
}
