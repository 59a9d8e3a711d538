package arch

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// mpRE finds Arm's "MPn" core count in a marketing name (Mali-G52 MP2).
var mpRE = regexp.MustCompile(`\bMP\d+\b`)

// maxNamedOverrides bounds how many changed parameters a derived name lists.
const maxNamedOverrides = 3

// deriveName names a user GPU built on a preset without a name of its own,
// so that output never shows the preset's name for a different GPU: the
// base's name with its SoC dropped and Arm's MPn core count updated, then
// what was changed — "Arm Mali-G52 MP4 (custom: base mali-g52, cores 4)".
// set holds the parameter paths the user's file gave.
func (g *GPU) deriveName(baseName string, set map[string]bool) string {
	var changed []string
	for p := range set {
		switch p {
		case "id", "name", "soc":
			continue
		}
		changed = append(changed, p)
	}
	if len(changed) == 0 {
		return baseName
	}
	// In the order the file gives them.
	sort.Slice(changed, func(i, j int) bool {
		oi, oj := g.origins[changed[i]], g.origins[changed[j]]
		if oi.line != oj.line {
			return oi.line < oj.line
		}
		return changed[i] < changed[j]
	})
	text := map[string]string{}
	for _, p := range g.Params() {
		text[p.Path] = p.Text
	}
	name := strings.TrimSpace(baseName)
	if i := strings.LastIndex(name, " ("); i > 0 && strings.HasSuffix(name, ")") {
		name = name[:i] // the SoC no longer describes this GPU
	}
	if set["cores"] && mpRE.MatchString(name) {
		name = mpRE.ReplaceAllString(name, fmt.Sprintf("MP%d", g.Cores))
	}
	parts := []string{"base " + g.Base}
	for i, p := range changed {
		if i == maxNamedOverrides {
			parts = append(parts, fmt.Sprintf("%d more", len(changed)-i))
			break
		}
		v, ok := text[p]
		if !ok || v == "" {
			parts = append(parts, p)
			continue
		}
		parts = append(parts, p+" "+v)
	}
	return name + " (custom: " + strings.Join(parts, ", ") + ")"
}
