package probe

import (
	"math"
	"strings"
)

func mathFloat32bits(v float32) uint32 { return math.Float32bits(v) }

// half converts a float32 to IEEE binary16 (round to nearest; the probe
// passes small exact values).
func half(v float32) uint16 {
	b := math.Float32bits(v)
	sign := uint16(b>>16) & 0x8000
	exp := int(b>>23&0xFF) - 127 + 15
	mant := b & 0x7FFFFF
	switch {
	case v == 0:
		return sign
	case exp <= 0:
		return sign // too small for the probe's purposes: zero
	case exp >= 31:
		return sign | 0x7C00
	}
	return sign | uint16(exp)<<10 | uint16(mant>>13)
}

// cString is a C string's bytes without the terminating NUL, trimmed.
func cString(b []byte) string {
	if i := strings.IndexByte(string(b), 0); i >= 0 {
		b = b[:i]
	}
	return strings.TrimSpace(string(b))
}

func containsWord(list, w string) bool {
	for _, f := range strings.Fields(list) {
		if f == w {
			return true
		}
	}
	return false
}
