package arch

import "testing"

func TestDerivedNameForModifiedPreset(t *testing.T) {
	cases := []struct{ src, want string }{
		{"base: mali-g52\ncores: 4\n", "Arm Mali-G52 MP4 (custom: base mali-g52, cores 4)"},
		{"base: mali-g52\nname: My GPU\ncores: 4\n", "My GPU"},
		// Only the id changed: the hardware is the preset's.
		{"base: mali-g52\nid: same\n", ""},
		{"base: mali-g52\nclock_mhz: 900\ncores: 1\nl2:\n  size_kib: 512\nmax_workgroup_size: 256\n",
			"Arm Mali-G52 MP1 (custom: base mali-g52, clock_mhz 900, cores 1, l2.size_kib 512, 1 more)"},
	}
	base := mustLookup(t, "mali-g52").Name
	for _, c := range cases {
		g, err := Parse([]byte(c.src), "x.yaml")
		if err != nil {
			t.Errorf("%q: %v", c.src, err)
			continue
		}
		want := c.want
		if want == "" {
			want = base
		}
		if g.Name != want {
			t.Errorf("%q: name %q, want %q", c.src, g.Name, want)
		}
	}
}
