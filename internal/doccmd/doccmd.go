// Package doccmd finds the commands and output excerpts in the project's
// Markdown so a test can run every command as a reader would type it and
// check every excerpt against a fresh run.
//
// A document marks what the test checks with HTML comments, invisible when
// rendered, on the line before a fenced block:
//
//	<!-- excerpt: go run ./cmd/pocketgpu occupancy --gpu mali-g52 --regs 33 -->
//	<!-- excerpt exit=2: go run ./cmd/pocketgpu run examples/oob.cl ... -->
//	<!-- file: examples/my-g52.yaml -->
//
// An excerpt's lines must appear, in order, in the command's output (stdout,
// or stderr when the command is expected to fail); a file block must equal
// the file. Every line of a ```sh block is a command (continuation lines
// joined, comments dropped).
package doccmd

import (
	"fmt"
	"strconv"
	"strings"
)

// Block is a fenced code block.
type Block struct {
	Lang string
	// Indent is the fence's indentation (a block in a list item), removed
	// from Lines.
	Indent string
	Line   int // 1-based line of the opening fence
	Lines  []string
	// Marker is the marker comment on the line before the fence, if any.
	Marker *Marker
	// start and end index the body lines in the document's line slice.
	start, end int
}

// Marker is what a comment before a block asks for.
type Marker struct {
	Kind    string // "excerpt" or "file"
	Command string // excerpt: the command line
	Exit    int    // excerpt: the expected exit code
	Path    string // file: the file the block shows
}

// Command is one command line of a ```sh block.
type Command struct {
	Line int    // 1-based line where it starts
	Text string // continuation lines joined, comment removed
}

// Doc is a parsed Markdown document.
type Doc struct {
	Name   string
	lines  []string
	Blocks []Block
}

// Parse splits a Markdown document into its fenced blocks.
func Parse(name, text string) (*Doc, error) {
	d := &Doc{Name: name, lines: strings.Split(text, "\n")}
	for i := 0; i < len(d.lines); i++ {
		l := strings.TrimSpace(d.lines[i])
		if !strings.HasPrefix(l, "```") {
			continue
		}
		raw := d.lines[i]
		b := Block{Lang: strings.TrimSpace(strings.TrimPrefix(l, "```")), Line: i + 1, start: i + 1,
			Indent: raw[:len(raw)-len(strings.TrimLeft(raw, " \t"))]}
		if m, err := markerBefore(d.lines, i); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, i, err)
		} else {
			b.Marker = m
		}
		j := i + 1
		for ; j < len(d.lines) && strings.TrimSpace(d.lines[j]) != "```"; j++ {
		}
		if j == len(d.lines) {
			return nil, fmt.Errorf("%s:%d: code block never closed", name, i+1)
		}
		b.end = j
		for _, body := range d.lines[i+1 : j] {
			b.Lines = append(b.Lines, strings.TrimPrefix(body, b.Indent))
		}
		d.Blocks = append(d.Blocks, b)
		i = j
	}
	return d, nil
}

// markerBefore reads the marker comment on the line before line i.
func markerBefore(lines []string, i int) (*Marker, error) {
	if i == 0 {
		return nil, nil
	}
	l := strings.TrimSpace(lines[i-1])
	if !strings.HasPrefix(l, "<!--") || !strings.HasSuffix(l, "-->") {
		return nil, nil
	}
	body := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(l, "<!--"), "-->"))
	head, rest, ok := strings.Cut(body, ":")
	if !ok {
		return nil, nil
	}
	rest = strings.TrimSpace(rest)
	fields := strings.Fields(head)
	if len(fields) == 0 {
		return nil, nil
	}
	switch fields[0] {
	case "file":
		if len(fields) != 1 || rest == "" {
			return nil, fmt.Errorf("malformed marker %q: want <!-- file: PATH -->", l)
		}
		return &Marker{Kind: "file", Path: rest}, nil
	case "excerpt":
		m := &Marker{Kind: "excerpt", Command: rest}
		for _, f := range fields[1:] {
			v, ok := strings.CutPrefix(f, "exit=")
			n, err := strconv.Atoi(v)
			if !ok || err != nil {
				return nil, fmt.Errorf("malformed marker %q: want <!-- excerpt [exit=N]: COMMAND -->", l)
			}
			m.Exit = n
		}
		if rest == "" {
			return nil, fmt.Errorf("marker %q names no command", l)
		}
		return m, nil
	}
	return nil, nil
}

// Commands lists the command lines of the document's ```sh blocks.
func (d *Doc) Commands() []Command {
	var cmds []Command
	for _, b := range d.Blocks {
		if b.Lang != "sh" {
			continue
		}
		var cur *Command
		for k, l := range b.Lines {
			if cur == nil {
				cur = &Command{Line: b.Line + 1 + k}
			}
			text := stripComment(l)
			cont := strings.HasSuffix(strings.TrimSpace(text), `\`)
			text = strings.TrimSuffix(strings.TrimSpace(text), `\`)
			cur.Text = strings.TrimSpace(cur.Text + " " + strings.TrimSpace(text))
			if cont {
				continue
			}
			if cur.Text != "" {
				cmds = append(cmds, *cur)
			}
			cur = nil
		}
		if cur != nil && cur.Text != "" {
			cmds = append(cmds, *cur)
		}
	}
	return cmds
}

// stripComment drops a shell comment: a # at the start or after a blank.
func stripComment(l string) string {
	for i := 0; i < len(l); i++ {
		if l[i] == '#' && (i == 0 || l[i-1] == ' ' || l[i-1] == '\t') {
			return l[:i]
		}
	}
	return l
}

// Split breaks a command line into words. It understands the single and
// double quotes the documents use, nothing more.
func Split(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				w.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unterminated quote in %q", s)
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}

// Match reports the first line of excerpt that is not found, in order, in
// output, comparing lines with trailing blanks removed; "..." lines in the
// excerpt stand for omitted output.
func Match(excerpt []string, output string) (missing string, ok bool) {
	out := trimmedLines(output)
	at := 0
	for _, e := range excerpt {
		e = strings.TrimRight(e, " \t")
		if e == "..." {
			continue
		}
		found := false
		for ; at < len(out); at++ {
			if out[at] == e {
				found = true
				at++
				break
			}
		}
		if !found {
			return e, false
		}
	}
	return "", true
}

// Refresh rewrites an excerpt from a new output: each excerpt line is
// replaced by the next output line with the same key (its label: the text
// up to a colon or a run of blanks), so an excerpt keeps its choice of
// lines while its figures follow the simulator.
func Refresh(excerpt []string, output string) ([]string, error) {
	out := trimmedLines(output)
	res := make([]string, 0, len(excerpt))
	at := 0
	for _, e := range excerpt {
		if strings.TrimSpace(e) == "..." {
			res = append(res, e)
			continue
		}
		i := find(out, at, e)
		if i < 0 {
			return nil, fmt.Errorf("no output line like %q", strings.TrimRight(e, " "))
		}
		res = append(res, out[i])
		at = i + 1
	}
	return res, nil
}

func find(out []string, at int, e string) int {
	e = strings.TrimRight(e, " \t")
	for _, key := range []string{e, Key(e), firstWord(e)} {
		for i := at; i < len(out); i++ {
			if strings.HasPrefix(out[i], key) {
				return i
			}
		}
	}
	return -1
}

// Key is a line's label: its leading blanks and the text up to and
// including the first colon, or up to the first run of two blanks.
func Key(l string) string {
	body := strings.TrimLeft(l, " \t")
	indent := l[:len(l)-len(body)]
	if i := strings.Index(body, "  "); i > 0 {
		body = body[:i]
	}
	if i := strings.Index(body, ":"); i > 0 {
		body = body[:i+1]
	}
	return indent + body
}

func firstWord(l string) string {
	body := strings.TrimLeft(l, " \t")
	indent := l[:len(l)-len(body)]
	if i := strings.IndexAny(body, " \t"); i > 0 {
		body = body[:i+1]
	}
	return indent + body
}

func trimmedLines(s string) []string {
	ls := strings.Split(s, "\n")
	for i, l := range ls {
		ls[i] = strings.TrimRight(l, " \t")
	}
	return ls
}

// Replace sets the body of block b to lines; Text then gives the document.
func (d *Doc) Replace(b Block, lines []string) {
	delta := len(lines) - (b.end - b.start)
	nl := append([]string(nil), d.lines[:b.start]...)
	for _, l := range lines {
		if l != "" {
			l = b.Indent + l
		}
		nl = append(nl, l)
	}
	nl = append(nl, d.lines[b.end:]...)
	d.lines = nl
	for i := range d.Blocks {
		switch {
		case d.Blocks[i].start == b.start:
			d.Blocks[i].end += delta
			d.Blocks[i].Lines = append([]string(nil), lines...)
		case d.Blocks[i].start > b.start:
			d.Blocks[i].start += delta
			d.Blocks[i].end += delta
		}
	}
}

// Text is the document, with any replacements.
func (d *Doc) Text() string { return strings.Join(d.lines, "\n") }
