package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/pocketgpu/pocketgpu/device"
	"github.com/pocketgpu/pocketgpu/internal/suggest"
)

// namedValue gives a flag's value the name its help shows ("--gpu GPU",
// "--global X[,Y[,Z]]") without the usage text having to repeat it, which
// is what pflag's back-quote convention forces. kind keeps the underlying
// type so that a bad value is explained in those terms.
type namedValue struct {
	pflag.Value
	name, kind string
}

func (v namedValue) Type() string { return v.name }

// nameArgs names the values of cmd's flags: pairs of flag and name.
func nameArgs(cmd *cobra.Command, pairs ...string) {
	for i := 0; i+1 < len(pairs); i += 2 {
		fl := cmd.Flags().Lookup(pairs[i])
		if fl == nil {
			panic("nameArgs: no flag --" + pairs[i]) // a programming error, found by any test
		}
		fl.Value = namedValue{Value: fl.Value, name: pairs[i+1], kind: fl.Value.Type()}
		if fl.DefValue == "[]" {
			fl.DefValue = "" // pflag would print "(default [])" for a list it no longer recognises
		}
	}
}

// flagKind is the Go type behind a flag's value.
func flagKind(fl *pflag.Flag) string {
	if nv, ok := fl.Value.(namedValue); ok {
		return nv.kind
	}
	return fl.Value.Type()
}

// wants says what a value of a flag's type looks like, in the user's terms
// ("" for types whose own error says it better).
func wants(kind string) string {
	switch kind {
	case "int", "int64", "int32":
		return "an integer"
	case "uint", "uint64", "uint32":
		return "a whole number (0, 1, 2 ...)"
	case "float64", "float32":
		return "a number"
	case "bool":
		return "true or false"
	case "duration":
		return "a duration like 30s or 5m"
	}
	return ""
}

// flagError turns pflag's errors (which quote strconv) into one line in the
// user's terms: `--regs "abc": want an integer`, `unknown flag --wg-szie
// (did you mean --wg-size?)`.
func flagError(cmd *cobra.Command, err error) error {
	var inv *pflag.InvalidValueError
	var missing *pflag.NotExistError
	var needs *pflag.ValueRequiredError
	switch {
	case errors.As(err, &inv):
		fl := inv.GetFlag()
		if w := wants(flagKind(fl)); w != "" {
			return badInputf("--%s %q: want %s", fl.Name, inv.GetValue(), w)
		}
		return badInputf("--%s %q: %v", fl.Name, inv.GetValue(), errors.Unwrap(inv))
	case errors.As(err, &missing):
		name := missing.GetSpecifiedName()
		if short := missing.GetSpecifiedShortnames(); short == name {
			return badInputf("unknown flag -%s; see %s --help", name, cmd.CommandPath())
		} else if short != "" {
			return badInputf("unknown flag -%s in -%s; see %s --help", name, short, cmd.CommandPath())
		}
		var names []string
		cmd.Flags().VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
		hint := suggest.DidYouMean(name, names)
		if hint != "" {
			hint = strings.Replace(hint, "mean ", "mean --", 1)
		}
		return badInputf("unknown flag --%s%s; see %s --help", name, hint, cmd.CommandPath())
	case errors.As(err, &needs):
		return badInputf("--%s needs a value", needs.GetSpecifiedName())
	}
	return badInput(err)
}

// refuseZero refuses an explicit 0 for flags whose absence means "unknown"
// or "the default" to the library: --wg-size 0 is a mistake, not a query.
func refuseZero(cmd *cobra.Command, names ...string) error {
	for _, n := range names {
		fl := cmd.Flags().Lookup(n)
		if fl != nil && fl.Changed && fl.Value.String() == "0" {
			return badInputf("--%s 0: want at least 1 (leave --%s out for the default)", n, n)
		}
	}
	return nil
}

// budgetValue is --max-instructions: a positive count, or "unlimited".
type budgetValue uint64

func (b *budgetValue) String() string {
	switch uint64(*b) {
	case 0:
		return ""
	case device.Unlimited:
		return "unlimited"
	}
	return strconv.FormatUint(uint64(*b), 10)
}

func (b *budgetValue) Set(s string) error {
	if strings.EqualFold(s, "unlimited") {
		*b = budgetValue(device.Unlimited)
		return nil
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n == 0 {
		return fmt.Errorf("want a positive number of warp instructions or unlimited")
	}
	*b = budgetValue(n)
	return nil
}

func (b *budgetValue) Type() string { return "N" }

// detailValue is --detail: how much of a timed launch runs in detail.
type detailValue device.Detail

func (v *detailValue) String() string { return device.Detail(*v).String() }
func (v *detailValue) Type() string   { return "MODE" }
func (v *detailValue) Set(s string) error {
	d, ok := device.ParseDetail(s)
	if !ok {
		return fmt.Errorf("%q: want auto or full", s)
	}
	*v = detailValue(d)
	return nil
}

// detailUsage is --detail's help.
const detailUsage = "auto: a launch that repeats an earlier one from the same cache state reuses its cycles and counters (exact); full: simulate every launch in detail"

// addDetailFlag adds --detail to cmd.
func addDetailFlag(cmd *cobra.Command, d *device.Detail) {
	cmd.Flags().Var((*detailValue)(d), "detail", detailUsage)
}
