package emu

import (
	"math"
	"strings"
	"testing"
)

// Floating-point conversions follow C: %g keeps 6 significant digits by
// default, infinities and NaNs print as inf and nan (INF, NAN for the
// upper-case conversions) with the width and flags, %a has no padded
// exponent. The expected lines are glibc's for the same values.
func TestPrintfFloats(t *testing.T) {
	in := []float32{1234567, 0.0001, 100000, 1.5, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 1e-5, 0.1}
	var out strings.Builder
	klaunch{file: "exec.spv", entry: "floats", global: [3]int{len(in), 1, 1}, local: [3]int{len(in), 1, 1},
		setup: func(d *Dispatch) { d.Printf = &out },
		args:  []any{&kbuf{data: lef32(in...)}, kval(le32(int32(len(in))))}}.mustRun(t)
	want := []string{
		"1.23457e+06|1.23457E+06|1234567.000000|1.235e+06|0x1.2d687p+20|1.234567E+06|1234567.0| 1234567.000000",
		"0.0001|0.0001|0.000100|1.000e-04|0x1.a36e2ep-14|1.000000E-04|  0.0| 0.000100",
		"100000|100000|100000.000000|1.000e+05|0x1.86ap+16|1.000000E+05|100000.0| 100000.000000",
		"1.5|1.5|1.500000|1.500e+00|0x1.8p+0|1.500000E+00|  1.5| 1.500000",
		"inf|INF|inf|     inf|inf|INF|  inf| inf",
		"-inf|-INF|-inf|    -inf|-inf|-INF| -inf|-inf",
		"nan|NAN|nan|     nan|nan|NAN|  nan| nan",
		"1e-05|1E-05|0.000010|1.000e-05|0x1.4f8b58p-17|1.000000E-05|  0.0| 0.000010",
		"0.1|0.1|0.100000|1.000e-01|0x1.99999ap-4|1.000000E-01|  0.1| 0.100000",
	}
	got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	for i := range want {
		if i >= len(got) || got[i] != want[i] {
			g := "(missing)"
			if i < len(got) {
				g = got[i]
			}
			t.Errorf("printf of %v:\n got %s\nwant %s", in[i], g, want[i])
		}
	}
}

// %a with width, flags and precision, against glibc's output.
func TestPrintfHexFloats(t *testing.T) {
	for _, c := range []struct {
		spec string
		conv byte
		v    float64
		want string
	}{
		{"12", 'a', 1.5, "    0x1.8p+0"}, {"-12", 'a', 1.5, "0x1.8p+0    "}, {"012", 'a', -1.5, "-0x0001.8p+0"},
		{".2", 'a', 1.0 / 3, "0x1.55p-2"}, {"+", 'a', 2, "+0x1p+1"}, {"", 'A', float64(float32(0.1)), "0X1.99999AP-4"},
		{"", 'a', 1e300, "0x1.7e43c8800759cp+996"}, {"", 'a', 0, "0x0p+0"},
		{"08", 'f', math.Inf(-1), "    -inf"}, {"-6", 'E', math.NaN(), "NAN   "}, {"+.3", 'g', math.Inf(1), "+inf"},
	} {
		if got := formatFloat(c.spec, c.conv, c.v); got != c.want {
			t.Errorf("%%%s%c of %v = %q, want %q", c.spec, c.conv, c.v, got, c.want)
		}
	}
}
