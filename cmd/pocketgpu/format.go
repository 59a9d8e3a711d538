package main

import (
	"fmt"
	"math"
	"strconv"
)

// One rounding rule for every text table: whole numbers print whole (never
// in scientific notation), numbers of 1000 or more round to whole, smaller
// fractions keep four significant digits without trailing zeros, and
// percentages keep one decimal. JSON output keeps full precision.

// formatNumber prints v by the rule above: 966512.5 -> 966513, 60.375 -> 60.38,
// 0.0123456 -> 0.01235.
func formatNumber(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "-"
	case v == math.Trunc(v) || math.Abs(v) >= 1000:
		return strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	}
	digits := 3 - int(math.Floor(math.Log10(math.Abs(v))))
	return trimFloat(strconv.FormatFloat(v, 'f', min(max(digits, 1), 12), 64))
}

// formatPct prints a percentage (already times 100) with one decimal.
func formatPct(pct float64) string {
	if math.IsNaN(pct) || math.IsInf(pct, 0) {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", pct)
}
