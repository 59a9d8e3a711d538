package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/pocketgpu/pocketgpu/arch"
)

func init() { subcommands = append(subcommands, newSpecCmd) }

func newSpecCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "spec GPU",
		Short: "Print a GPU's full sheet: every parameter with its source, then the derived figures",
		Long: `spec prints every parameter of a GPU with its value, unit and source (a seed
section, an assumption with its reason, or the user file that set it), then the
figures derived from them: peak rates, resident threads, bandwidths.

GPU is ` + gpuArgHelp + `.`,
		Example: `  pocketgpu spec mali-g52
  pocketgpu spec 0x6221 --json
  pocketgpu spec examples/my-g52.yaml`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			g, err := resolveGPU(args[0])
			if err != nil {
				return err
			}
			if asJSON {
				return writeSpecJSON(cmd.OutOrStdout(), g)
			}
			return writeSpecText(cmd.OutOrStdout(), g)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON: id, family, parameters (value, unit, source, doc by path) and derived")
	return cmd
}

func origin(g *arch.GPU) string {
	switch {
	case g.Base != "" && g.File != "" && g.File != "preset "+g.ID:
		return fmt.Sprintf("from %s, based on preset %s", g.File, g.Base)
	case g.Base != "":
		return "embedded preset built on " + g.Base
	case g.File != "" && g.File != "preset "+g.ID:
		return "from " + g.File
	}
	return "embedded preset"
}

func writeSpecText(out io.Writer, g *arch.GPU) error {
	fmt.Fprintf(out, "%s: %s\nfamily %s, vendor %s, %s\n\n", g.ID, g.Name, g.Family, g.Vendor, origin(g))
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "PARAMETER\tVALUE\tUNIT\tSOURCE")
	for _, p := range g.Params() {
		unit := p.Unit
		if unit == "" {
			unit = "-"
		}
		text := p.Text
		if text == "" {
			text = `""`
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", p.Path, text, unit, p.Source)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(out)
	w = tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "DERIVED\tVALUE\tUNIT\tHOW")
	for _, it := range g.Derived().Items() {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", it.Name, fmtFloat(it.Value), it.Unit, it.Doc)
	}
	return w.Flush()
}

// specParam is one parameter in `spec --json`.
type specParam struct {
	Value  any    `json:"value"`
	Text   string `json:"text"`
	Unit   string `json:"unit"`
	Source string `json:"source"`
	Doc    string `json:"doc"`
}

// writeSpecJSON writes the sheet as JSON, with parameters keyed by path in
// schema order.
func writeSpecJSON(out io.Writer, g *arch.GPU) error {
	var buf bytes.Buffer
	put := func(key string, v any) error {
		k, _ := json.Marshal(key)
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		buf.Write(k)
		buf.WriteByte(':')
		buf.Write(b)
		return nil
	}
	buf.WriteByte('{')
	head := []struct {
		k string
		v any
	}{
		{"id", g.ID}, {"name", g.Name}, {"family", g.Family}, {"vendor", g.Vendor},
		{"soc", g.SoC}, {"base", g.Base}, {"file", g.File},
	}
	for _, h := range head {
		if err := put(h.k, h.v); err != nil {
			return err
		}
		buf.WriteByte(',')
	}
	buf.WriteString(`"parameters":{`)
	for i, p := range g.Params() {
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := put(p.Path, specParam{Value: p.Value, Text: p.Text, Unit: p.Unit, Source: p.Source, Doc: p.Doc}); err != nil {
			return err
		}
	}
	buf.WriteString(`},`)
	if err := put("derived", g.Derived()); err != nil {
		return err
	}
	buf.WriteByte('}')
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, buf.Bytes(), "", "  "); err != nil {
		return err
	}
	pretty.WriteByte('\n')
	_, err := out.Write(pretty.Bytes())
	return err
}
