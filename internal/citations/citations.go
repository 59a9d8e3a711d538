// Package citations checks that the repository's hardware citations resolve:
// every "seed NNN" names a document listed in docs/references.md, and every
// "seed NNN §Section" names a section listed under that document there.
//
// What counts as a citation (see Extract):
//
//   - "seed NNN" or "seeds NNN, NNN and NNN" (any case, three digits) cites
//     documents;
//   - a "§Name" whose name starts with a letter is a section of the nearest
//     seed cited before it, if that citation ends at most Window characters
//     earlier ("seed 000 §Memory Pipeline", "seed 000 (§Memory Pipeline",
//     "seed 000 §GPU Organization; §Power Management", "seed 000's figure
//     (§Shader Frontend)"). A "§" after the word "spec" or a version number
//     ("SPIR-V spec §2.3", "glTF 2.0 §GLB ...") cites another document, as
//     does a numbered section (§6.1.5); a lettered "§Name" with no seed
//     before it is reported, so that a section is never cited without its
//     document.
//
// Line breaks do not end a citation: before matching, each line after the
// first is joined to the one before with a single space, dropping its
// indentation and a leading comment marker (//, #, *), so a Go comment that
// wraps "§L2 Cache and System" onto "// Level" reads as one citation.
//
// A section matches when the text after "§" starts with the listed name
// (compared case-insensitively, with runs of white space as one space and
// typographic quotes as plain ones) and the name is not followed by a letter
// or digit; whatever follows ("(each EE 8-wide)", ": about 47 cycles") is the
// citing text's own gloss.
package citations

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Window is how far (in characters of joined text) a "§Name" may follow the
// seed citation it belongs to.
const Window = 200

// References maps a seed number ("000") to the section names listed for it.
type References map[string][]string

// ParseReferences reads the index of docs/references.md: a heading
// "### seed NNN" (level 2 to 4) starts a document, and each list item that
// starts with "§" under it ("- §Memory Pipeline — what it covers") names one
// of its sections; the name ends at " — " or the end of the line. Any other
// heading ends the document's list.
func ParseReferences(text string) (References, error) {
	refs := References{}
	heading := regexp.MustCompile(`^#{2,4}\s+seed\s+(\d{3})\s*$`)
	item := regexp.MustCompile(`^\s*[-*]\s+§(.+?)\s*(?:\s—\s.*)?$`)
	cur := ""
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		if m := heading.FindStringSubmatch(line); m != nil {
			if _, dup := refs[m[1]]; dup {
				return nil, fmt.Errorf("line %d: seed %s listed twice", i+1, m[1])
			}
			cur = m[1]
			refs[cur] = nil
			continue
		}
		if strings.HasPrefix(line, "#") {
			cur = ""
			continue
		}
		if m := item.FindStringSubmatch(line); m != nil {
			if cur == "" {
				return nil, fmt.Errorf("line %d: section %q outside a \"### seed NNN\" heading", i+1, m[1])
			}
			refs[cur] = append(refs[cur], m[1])
		}
	}
	if len(refs) == 0 {
		return nil, fmt.Errorf("no \"### seed NNN\" headings")
	}
	return refs, nil
}

// A Citation is one seed cited at one place.
type Citation struct {
	File    string // slash-separated path relative to the scanned root
	Line    int    // 1-based line of the seed number or of the "§"
	Seed    string // "000"
	Section string // the text after "§" (up to 80 characters), or "" for the document alone
}

func (c Citation) String() string {
	s := fmt.Sprintf("%s:%d: seed %s", c.File, c.Line, c.Seed)
	if c.Section != "" {
		s += " §" + shorten(c.Section)
	}
	return s
}

// A Problem is a citation that does not resolve, or a "§Name" that cites no
// seed.
type Problem struct {
	Citation
	Reason string
}

func (p Problem) String() string { return p.Citation.String() + ": " + p.Reason }

var (
	// seeds 000, 001 and 004 / seed 000 / Seed\n// 003
	mentionRE = regexp.MustCompile(`(?i)\bseeds?\s+(\d{3})\b((?:\s*(?:,|and|or|&|/)\s*(?:seeds?\s+)?\d{3}\b)*)`)
	numRE     = regexp.MustCompile(`\d{3}`)
	// What may stand right before a "§" that cites another document.
	otherSourceRE = regexp.MustCompile(`(?i)(\bspec(ification)?|\b\d+\.\d+)[\s(]*$`)
	// A placeholder ("seed 00N §Section", "seed NNN §Name") in messages and docs.
	placeholderRE = regexp.MustCompile(`(?i)\bseeds?\s+\d*N+[\s(]*$`)
)

// joined is a file's text with its lines joined (see the package comment)
// and, for each line, the offset in text where it starts.
type joined struct {
	text  string
	lines []int
}

func join(src string) joined {
	var b strings.Builder
	var j joined
	for i, line := range strings.Split(src, "\n") {
		line = strings.TrimRight(line, "\r")
		if i > 0 {
			line = strings.TrimLeft(line, " \t")
			for _, marker := range []string{"//", "#", "*"} {
				if strings.HasPrefix(line, marker) {
					line = strings.TrimLeft(line[len(marker):], " \t")
					break
				}
			}
			b.WriteByte(' ')
		}
		j.lines = append(j.lines, b.Len())
		b.WriteString(line)
	}
	j.text = b.String()
	return j
}

func (j joined) lineOf(off int) int {
	return sort.Search(len(j.lines), func(i int) bool { return j.lines[i] > off })
}

// Extract finds the citations in one file's text: one per seed number, the
// first "§Name" after a seed completing that seed's citation and any further
// ones ("; §Power Management") adding citations of the same seed. Lettered
// "§Name"s that follow no seed come back as problems.
func Extract(file, src string) ([]Citation, []Problem) {
	j := join(src)
	t := j.text
	type mention struct {
		end  int // offset just past the last seed number
		cite int // index in cites of the last number's citation
		used bool
	}
	var cites []Citation
	var mentions []mention
	for _, m := range mentionRE.FindAllStringSubmatchIndex(t, -1) {
		for _, n := range numRE.FindAllStringIndex(t[m[2]:m[1]], -1) {
			at := m[2] + n[0]
			cites = append(cites, Citation{File: file, Line: j.lineOf(at), Seed: t[at : at+3]})
		}
		mentions = append(mentions, mention{end: m[1], cite: len(cites) - 1})
	}
	var problems []Problem
	for off := 0; ; {
		i := strings.Index(t[off:], "§")
		if i < 0 {
			break
		}
		at := off + i
		off = at + len("§")
		name := t[off:]
		if r, _ := utf8.DecodeRuneInString(name); !unicode.IsLetter(r) {
			continue // §2.3, or §\S.* in a regular expression: not a seed section
		}
		before := t[max(0, at-40):at]
		if otherSourceRE.MatchString(before) || placeholderRE.MatchString(before) {
			continue
		}
		if len(name) > 100 {
			name = strings.ToValidUTF8(name[:100], "")
		}
		c := Citation{File: file, Line: j.lineOf(at), Section: name}
		k := sort.Search(len(mentions), func(k int) bool { return mentions[k].end > at }) - 1
		if k < 0 || at-mentions[k].end > Window {
			problems = append(problems, Problem{c, "a section with no seed before it; write \"seed NNN §Section\""})
			continue
		}
		m := &mentions[k]
		c.Seed = cites[m.cite].Seed
		if !m.used {
			m.used = true
			cites[m.cite].Section = c.Section
			continue
		}
		cites = append(cites, c)
	}
	sort.SliceStable(cites, func(a, b int) bool { return cites[a].Line < cites[b].Line })
	return cites, problems
}

// Normalize makes section text comparable: typographic quotes become plain
// ones, runs of white space one space, letters lower case.
func Normalize(s string) string {
	s = strings.NewReplacer("’", "'", "‘", "'", "“", `"`, "”", `"`, "\u00a0", " ").Replace(s)
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// Resolve says what is wrong with a citation, or returns "" and the section
// it names ("" for a document-only citation).
func (r References) Resolve(c Citation) (section, problem string) {
	sections, ok := r[c.Seed]
	if !ok {
		return "", fmt.Sprintf("seed %s is not in docs/references.md", c.Seed)
	}
	if c.Section == "" {
		return "", ""
	}
	text := Normalize(c.Section)
	best := ""
	for _, s := range sections {
		n := Normalize(s)
		if !strings.HasPrefix(text, n) || len(n) <= len(Normalize(best)) {
			continue
		}
		if rest := text[len(n):]; rest != "" {
			if r, _ := utf8.DecodeRuneInString(rest); unicode.IsLetter(r) || unicode.IsDigit(r) {
				continue
			}
		}
		best = s
	}
	if best == "" {
		return "", fmt.Sprintf("no section of seed %s starts this text (docs/references.md lists: %s)", c.Seed, strings.Join(sections, "; "))
	}
	return best, ""
}

// Check resolves every citation and returns the problems.
func (r References) Check(cites []Citation) []Problem {
	var out []Problem
	for _, c := range cites {
		if _, p := r.Resolve(c); p != "" {
			out = append(out, Problem{c, p})
		}
	}
	return out
}

// Scanned says which files Scan reads: Go, Markdown, YAML and kernel and
// shader sources, except docs/references.md (the index itself), fuzz corpora
// (testdata/fuzz) and this package, whose comments and tests show the syntax
// with made-up and deliberately bad citations.
func Scanned(rel string) bool {
	switch {
	case rel == "docs/references.md",
		strings.Contains("/"+rel, "/testdata/fuzz/"),
		strings.HasPrefix(rel, "internal/citations/"):
		return false
	}
	switch filepath.Ext(rel) {
	case ".go", ".md", ".yaml", ".yml", ".cl", ".comp", ".vert", ".frag":
		return true
	}
	return false
}

// Scan extracts the citations of every scanned file under root, skipping
// hidden directories (.git, .ci).
func Scan(root string) ([]Citation, []Problem, error) {
	var cites []Citation
	var problems []Problem
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !Scanned(rel) {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		c, p := Extract(rel, string(data))
		cites = append(cites, c...)
		problems = append(problems, p...)
		return nil
	})
	return cites, problems, err
}

func shorten(s string) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n >= 60 || strings.ContainsRune("()\"|`", r) {
			break
		}
		b.WriteRune(r)
		n++
	}
	return strings.TrimSpace(b.String())
}
