package emu

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/pocketgpu/pocketgpu/ir"
)

// printfExt implements OpenCL printf: each active lane, in lane order,
// formats its arguments with the format string from constant memory and
// writes the line to the dispatch's output. Conversions: d i u o x X c s f F
// e E g G a A p and %%, with flags, width, precision, the h/hh/l length
// modifiers and OpenCL vector specifiers (%v4f, %v2hld).
func printfExt(c *ir.ExtCall) (extFn, error) {
	if len(c.Args) < 1 {
		return nil, fmt.Errorf("printf without a format")
	}
	return func(w *Warp, c *ir.ExtCall) {
		for _, l := range w.lanes {
			s, ok := w.cString(c.Spaces[0], int(l), w.argBits(c, 0, 0, int(l)))
			if !ok {
				return
			}
			out := w.format(c, int(l), s)
			if w.out != nil {
				io.WriteString(w.out, out)
			}
			if c.Dst >= 0 {
				w.regs[int(c.Dst)*w.width+int(l)] = 0
			}
		}
	}, nil
}

// cString reads a nul-terminated string.
func (w *Warp) cString(space ir.Space, l int, addr uint64) (string, bool) {
	var b strings.Builder
	for i := 0; i < 1<<16; i++ {
		p := w.mem(nil, space, l, addr+uint64(i), 1, false)
		if p == nil {
			return "", false
		}
		if p[0] == 0 {
			return b.String(), true
		}
		b.WriteByte(p[0])
	}
	return b.String(), true
}

func (w *Warp) format(c *ir.ExtCall, l int, f string) string {
	var out strings.Builder
	arg := 1
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			out.WriteByte(f[i])
			continue
		}
		j := i + 1
		if j < len(f) && f[j] == '%' {
			out.WriteByte('%')
			i = j
			continue
		}
		// flags, width, precision
		k := j
		for k < len(f) && strings.IndexByte("-+ #0", f[k]) >= 0 {
			k++
		}
		for k < len(f) && (f[k] >= '0' && f[k] <= '9' || f[k] == '.') {
			k++
		}
		spec := f[j:k]
		vec := 1
		if k < len(f) && f[k] == 'v' {
			k++
			n := 0
			for k < len(f) && f[k] >= '0' && f[k] <= '9' {
				n = n*10 + int(f[k]-'0')
				k++
			}
			vec = max(n, 1)
		}
		for k < len(f) && strings.IndexByte("hlL", f[k]) >= 0 {
			k++
		}
		if k >= len(f) {
			out.WriteString(f[i:])
			break
		}
		conv := f[k]
		i = k
		if arg >= len(c.Args) {
			out.WriteString("<missing>")
			continue
		}
		for comp := 0; comp < vec; comp++ {
			if comp > 0 {
				out.WriteByte(',')
			}
			x := w.argBits(c, arg, comp, l)
			tag := c.ArgTags[arg]
			switch conv {
			case 'd', 'i':
				fmt.Fprintf(&out, "%"+spec+"d", signExt(x, tagBits(tag)))
			case 'u':
				fmt.Fprintf(&out, "%"+spec+"d", x)
			case 'o', 'x', 'X':
				fmt.Fprintf(&out, "%"+spec+string(conv), x)
			case 'c':
				out.WriteByte(byte(x))
			case 's':
				s, _ := w.cString(c.Spaces[arg], l, x)
				fmt.Fprintf(&out, "%"+spec+"s", s)
			case 'p':
				fmt.Fprintf(&out, "%#x", x)
			case 'f', 'F', 'e', 'E', 'g', 'G', 'a', 'A':
				v := tagToFloat(tag, x)
				if tag[0] != 'F' && conv != 'a' && conv != 'A' {
					v = math.Float64frombits(x)
				}
				out.WriteString(formatFloat(spec, conv, v))
			default:
				out.WriteByte('%')
				out.WriteByte(conv)
			}
		}
		arg++
	}
	return out.String()
}

// formatFloat formats v as C's printf does for the conversion conv with
// flags, width and precision spec. Go's fmt differs in three places, mended
// here: %g without a precision means 6 significant digits (Go: as many as
// needed), infinities and NaNs are inf and nan (INF, NAN for upper-case
// conversions; Go: +Inf, NaN), and %a's exponent has no leading zero (Go:
// p+00).
func formatFloat(spec string, conv byte, v float64) string {
	upper := conv == 'F' || conv == 'E' || conv == 'G' || conv == 'A'
	if math.IsInf(v, 0) || math.IsNaN(v) {
		s := "inf"
		if math.IsNaN(v) {
			s = "nan"
		}
		switch {
		case math.Signbit(v):
			s = "-" + s
		case strings.Contains(spec, "+"):
			s = "+" + s
		case strings.Contains(spec, " "):
			s = " " + s
		}
		if upper {
			s = strings.ToUpper(s)
		}
		// Only the width and the '-' flag apply ('0' pads numbers only).
		pad := strings.TrimLeft(spec, "-+ #0")
		if i := strings.IndexByte(pad, '.'); i >= 0 {
			pad = pad[:i]
		}
		if strings.Contains(spec, "-") {
			pad = "-" + pad
		}
		return fmt.Sprintf("%"+pad+"s", s)
	}
	switch conv {
	case 'F':
		return fmt.Sprintf("%"+spec+"f", v)
	case 'g', 'G':
		if !strings.Contains(spec, ".") {
			spec += ".6"
		}
	case 'a', 'A':
		verb := "x"
		if upper {
			verb = "X"
		}
		flags := spec[:len(spec)-len(strings.TrimLeft(spec, "-+ #0"))]
		rest := spec[len(flags):]
		width, prec := rest, ""
		if i := strings.IndexByte(rest, '.'); i >= 0 {
			width, prec = rest[:i], rest[i:]
		}
		s := fmt.Sprintf("%"+strings.ReplaceAll(strings.ReplaceAll(flags, "-", ""), "0", "")+prec+verb, v)
		// Go writes at least two exponent digits, C as few as needed.
		if i := strings.IndexAny(s, "pP"); i >= 0 && i+3 < len(s) && s[i+2] == '0' {
			s = s[:i+2] + s[i+3:]
		}
		w, _ := strconv.Atoi(width)
		for len(s) < w {
			switch {
			case strings.Contains(flags, "-"):
				s += " "
			case strings.Contains(flags, "0"):
				k := strings.IndexAny(s, "xX") + 1
				s = s[:k] + "0" + s[k:]
			default:
				s = " " + s
			}
		}
		return s
	}
	return fmt.Sprintf("%"+spec+string(conv), v)
}
