package arch

import (
	"errors"
	"strings"
	"testing"
)

// Bad execution parameters (op expansions, latencies, the barrier's, the instruction cache,
// code-size fields) are refused with the file, line and path.
func TestExecutionParseErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		line int
		path string
		msg  string
	}{
		{"expansion with rate", "base: adreno-615\nops:\n  int8_add: {rate: 1}\n", 3, "ops.int8_add.rate", "replaces pipes, rate"},
		{"expansion not emulated", "base: adreno-615\nops:\n  int8_add: {emulated: false}\n", 3, "ops.int8_add.emulated", "set emulated: true"},
		{"expansion unknown class", "base: adreno-615\nops:\n  int8_add: {expands_to: [int32_addd]}\n", 3, "ops.int8_add.expands_to[0]", "did you mean int32_add?"},
		{"expansion of expansion", "base: adreno-615\nops:\n  int8_add: {expands_to: [int8_mul]}\n", 3, "ops.int8_add.expands_to[0]", "itself expanded"},
		{"expansion to itself", "base: adreno-615\nops:\n  int8_add: {expands_to: [int8_add]}\n", 3, "ops.int8_add.expands_to[0]", "itself expanded"},
		{"expansion to unsupported", "base: adreno-615\nops:\n  int8_add: {expands_to: [fp64_add]}\n", 3, "ops.int8_add.expands_to[0]", "cannot execute"},
		{"no alu latency", "base: mali-g52\nexecution: {alu_latency_cycles: null}\n", 2, "execution.alu_latency_cycles", "required"},
		{"latency range", "base: mali-g52\nexecution: {sfu_latency_cycles: 0}\n", 2, "execution.sfu_latency_cycles", "0 is out of range"},
		{"no barrier latency", "base: powervr-gx6250\nexecution: {barrier_latency_cycles: null}\n", 2, "execution.barrier_latency_cycles", "required"},
		{"barrier latency zero", "base: adreno-640\nexecution: {barrier_latency_cycles: 0}\n", 2, "execution.barrier_latency_cycles", "0 is out of range"},
		{"barrier latency range", "base: mali-g52\nexecution: {barrier_latency_cycles: 20000}\n", 2, "execution.barrier_latency_cycles", "20000 is out of range; allowed: 1 to 10000"},
		{"icache line", "base: mali-g52\ninstruction_cache: {line_bytes: 48}\n", 2, "instruction_cache.line_bytes", "not a power of two"},
		{"icache smaller than line", "base: mali-g52\ninstruction_cache: {size_kib: 1, line_bytes: 2048}\n", 2, "instruction_cache.size_kib", "smaller than one 2048-byte line"},
		{"buffer not smaller", "base: mali-g52\ninstruction_cache: {engine_buffer_bytes: 8192}\n", 2, "instruction_cache.engine_buffer_bytes", "not smaller than the 8 KiB cache"},
		{"refill without buffer", "base: adreno-640\ninstruction_cache: {buffer_refill_cycles: 4}\n", 2, "instruction_cache.buffer_refill_cycles", "engine_buffer_bytes"},
		{"old icache field", "base: mali-g52\nbifrost: {icache_kib: 8}\n", 2, "bifrost.icache_kib", "unknown field"},
		{"quadword tag", "base: mali-g52\nbifrost: {quadword_tag_bits: 64, quadword_bits: 64}\n", 2, "bifrost.quadword_tag_bits", "leaves nothing"},
		{"uniform port", "base: mali-g52\nbifrost: {uniform_port_bits: 16}\n", 2, "bifrost.uniform_port_bits", "out of range"},
		{"adreno repeat", "base: adreno-640\nadreno: {repeat_max: 0}\n", 2, "adreno.repeat_max", "0 is out of range"},
		{"midgard align", "base: mali-t760\nmidgard: {bundle_align_bits: 100}\n", 2, "midgard.bundle_align_bits", "not a power of two"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.src), "my.yaml")
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("got %v, want *ConfigError", err)
			}
			if ce.Line != tt.line || ce.Path != tt.path || !strings.Contains(ce.Msg, tt.msg) {
				t.Errorf("got %s (line %d path %q); want line %d path %q message containing %q", err, ce.Line, ce.Path, tt.line, tt.path, tt.msg)
			}
		})
	}
}

// An emulated class given with expands_to becomes its sequence; other
// classes are themselves; a user file can turn emulation into a native cost.
func TestOpSequence(t *testing.T) {
	tests := []struct {
		gpu, class string
		want       []string
	}{
		{"adreno-615", "int8_add", []string{"int32_add", "int32_logic"}},
		{"adreno-615", "int8_mul", []string{"int32_mul", "int32_logic"}},
		{"adreno-530", "int8_add", []string{"int32_add", "int32_logic"}},
		{"adreno-640", "int8_add", []string{"int8_add"}},
		{"mali-g52", "int8_add", []string{"int8_add"}},
		{"mali-g52", "int64_add", []string{"int64_add"}},
	}
	for _, tt := range tests {
		g := mustLookup(t, tt.gpu)
		if got := g.OpSequence(tt.class); strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Errorf("%s %s: %v, want %v", tt.gpu, tt.class, got, tt.want)
		}
		if _, c := g.IssueCycles(tt.class, 0, 1); len(tt.want) > 1 && c != 0 {
			t.Errorf("%s %s: an expanded class has no cost of its own, got %v", tt.gpu, tt.class, c)
		}
	}
	g, err := Parse([]byte("base: adreno-615\nops:\n  int8_add: {expands_to: null, emulated: false, pipes: [alu], rate: 2}\n"), "native.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got := g.OpSequence("int8_add"); len(got) != 1 || got[0] != "int8_add" {
		t.Errorf("native override: %v", got)
	}
	if _, c := g.IssueCycles("int8_add", 64, 1); c != 1 {
		t.Errorf("native override costs %v, want 1 (64 threads on 32 lanes at rate 2)", c)
	}
}
