package device

//go:generate sh -c "for f in uncoalesced divergent bankconflict; do go run ../cmd/pocketgpu compile -g testdata/hotspots/$DOLLAR{f}.cl -o testdata/hotspots/$DOLLAR{f}.spv || exit 1; done"

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/kernel"
)

// hotspotCase is a kernel with one deliberately slow line, marked
// "// slow" in its source (testdata/hotspots, built with compile -g).
type hotspotCase struct {
	name   string
	global int
	local  int
	args   []string
}

var hotspotCases = []hotspotCase{
	{"uncoalesced", 8192, 64, []string{"buf:f32:1048576=random", "buf:f32:8192", "i32:4099", "i32:1048575"}},
	{"divergent", 4096, 64, []string{"buf:f32:4096=random", "i32:64"}},
	{"bankconflict", 4096, 64, []string{"buf:f32:4096"}},
}

// slowLine is the line of a source marked "// slow".
func slowLine(t *testing.T, src string) int {
	t.Helper()
	text, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(text), "\n") {
		if strings.HasSuffix(strings.TrimSpace(l), "// slow") {
			return i + 1
		}
	}
	t.Fatalf("%s has no line marked // slow", src)
	return 0
}

// profileCase times a hotspot kernel with profiling on g.
func profileCase(t testing.TB, g *arch.GPU, c hotspotCase) (*TimedResult, error) {
	spv, err := os.ReadFile(filepath.Join("testdata", "hotspots", c.name+".spv"))
	if err != nil {
		return nil, err
	}
	dev := Open(g)
	k, err := dev.Load(spv, c.name, LoadOptions{})
	if err != nil {
		return nil, err
	}
	specs := make([]kernel.Arg, len(c.args))
	data := make([][]byte, len(c.args))
	for i, s := range c.args {
		if specs[i], err = kernel.ParseArg(s); err != nil {
			return nil, err
		}
		if data[i], err = specs[i].Materialize("."); err != nil {
			return nil, err
		}
	}
	b, err := dev.BindSpecs(k, specs, data)
	if err != nil {
		return nil, err
	}
	nd := NDRange{Dims: 1, Global: [3]int{c.global, 1, 1}, Local: [3]int{c.local, 1, 1}}
	return dev.Time(k, nd, b.Args, Options{Profile: true})
}

// Each hotspot kernel's slow line is the hottest (the most engine cycles,
// issue plus the stalls it caused) on a GPU of every family; its share of
// the kernel's cycles is logged.
func TestHotspotsFindTheSlowLine(t *testing.T) {
	for _, gpu := range []string{"mali-g52", "mali-t760", "adreno-640", "powervr-gx6250"} {
		g, err := arch.Lookup(gpu)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range hotspotCases {
			want := slowLine(t, filepath.Join("testdata", "hotspots", c.name+".cl"))
			r, err := profileCase(t, g, c)
			if err != nil {
				t.Fatalf("%s %s: %v", gpu, c.name, err)
			}
			p := r.Profile
			if p == nil || !p.HasLines {
				t.Fatalf("%s %s: no profile with lines", gpu, c.name)
			}
			lines := p.Lines()
			order := Hottest(lines)
			top := lines[order[0]]
			var desc []string
			for _, i := range order[:min(3, len(order))] {
				l := lines[i]
				desc = append(desc, fmt.Sprintf("line %d %.1f%% (issue %.0f, stall %.0f %s)", l.Line, 100*l.Cycles()/p.Total.Cycles(), l.IssueCycles, l.Stalls(), l.TopStall()))
			}
			t.Logf("%s %s: %s", gpu, c.name, strings.Join(desc, "; "))
			if filepath.Base(top.File) != c.name+".cl" || top.Line != want {
				t.Errorf("%s %s: the hottest line is %s:%d, want line %d", gpu, c.name, top.File, top.Line, want)
			}
		}
	}
}
