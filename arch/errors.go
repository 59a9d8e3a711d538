package arch

import (
	"fmt"
	"strings"
)

// ConfigError is an error in a GPU description that the user can fix. It
// names the file, the line when known, the parameter path and what is
// allowed.
type ConfigError struct {
	File string // file name, or "preset <id>"
	Line int    // 1-based; 0 when unknown
	Path string // parameter path such as "l2.size_kib"; "" for the whole file
	Msg  string
}

func (e *ConfigError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
		}
		b.WriteString(": ")
	}
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// UnknownGPUError reports a GPU name that is neither a preset id, a GPU ID
// nor a readable file.
type UnknownGPUError struct {
	Name    string
	Nearest []string // nearest preset ids by edit distance
}

func (e *UnknownGPUError) Error() string {
	msg := fmt.Sprintf("unknown GPU %q: not a preset id, a Panfrost GPU ID (like 7212 or 0x6221), an Adreno number (like 640) or a YAML file", e.Name)
	if len(e.Nearest) > 0 {
		msg += "; nearest presets: " + strings.Join(e.Nearest, ", ")
	}
	return msg
}
