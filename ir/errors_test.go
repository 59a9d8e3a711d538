package ir_test

//go:generate sh -c "for f in testdata/bad/*.spvasm; do spirv-as --target-env spv1.0 $DOLLAR{f} -o $DOLLAR{f%.spvasm}.spv || exit 1; done"
//go:generate sh -c "for f in testdata/run_*.spvasm; do spirv-as --target-env spv1.4 $DOLLAR{f} -o $DOLLAR{f%.spvasm}.spv || exit 1; done"

import (
	"errors"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/ir"
)

// buildBad builds testdata/bad/NAME.spv and returns the builder's error.
func buildBad(t *testing.T, name, entry string, opt ir.Options) error {
	t.Helper()
	m := decode(t, "bad/"+name+".spv")
	_, err := ir.Build(m, entry, opt)
	return err
}

// Modules the builder cannot lower, each in testdata/bad/NAME.spvasm: every
// one is refused with an *ir.Error saying what is wrong (and, for an
// instruction, which one), never a crash or an "internal error".
func TestBuildErrors(t *testing.T) {
	for _, c := range []struct {
		name, entry, want string
	}{
		{"addressing_Physical32", "", "addressing model Physical32 is not supported (Logical and Physical64 are)"},
		{"capability_Groups", "", "capability Groups is not supported by pocketgpu"},
		{"geometry_shader", "", `entry point "k" is a Geometry shader; pocketgpu runs kernels, compute, vertex and fragment shaders`},
		{"no_entry_points", "", "the module has no entry points"},
		{"two_entry_points", "", "the module has 2 entry points (first, second): name one"},
		{"two_entry_points", "third", `no entry point "third"; the module has ["first" "second"]`},
		{"entry_point_with_no_body", "", "(OpFunction): function k has no body (an import the module does not define)"},
		{"entry_point_not_a_function", "", "entry point function is missing"},
		{"int24", "", "(OpTypeInt): 24-bit integers are not supported (8, 16, 32 and 64 are)"},
		{"float8", "", "(OpTypeFloat): 8-bit floats are not supported (16, 32 and 64 are)"},
		{"vector_of_229_components", "", "(OpTypeVector): vector of 229 u64 is not supported (2 to 16 scalars are)"},
		{"matrix_of_scalars", "", "(OpTypeMatrix): matrix columns must be vectors"},
		{"array_length_not_constant", "", "(OpTypeArray): array length %8 is not a constant"},
		{"array_length_zero", "", "(OpTypeArray): array length 0 is out of range (1 to 16777216)"},
		{"row_major_matrix", "", "(OpTypeStruct): row-major matrices are not supported"},
		{"type_over_1GiB", "", "(OpTypeArray): type f32x4[16777216][5] is larger than 1073741824 bytes"},
		{"module_level_ext_inst", "", `(OpExtInst): module-level extended instruction from "OpenCL.std"`},
		{"program_scope_global_variable", "", "(OpVariable): program-scope __global variables (OpenCL 2.0) are not supported"},
		{"initializer_not_constant", "", "(OpVariable): variable initialiser %1 is not a constant"},
		{"constant_data_over_1GiB", "", "(OpVariable): program-scope constant data over 1073741824 bytes"},
		{"private_memory_over_1MiB", "", "each work-item needs 1200000 bytes of private memory; pocketgpu allows 1048576"},
		{"value_slots_over_the_limit", "", "the kernel needs 2097153 value slots per work-item; pocketgpu allows 1048576"},
		{"block_without_terminator", "", "(OpLabel): block %7 has no terminator"},
		{"instruction_outside_a_block", "", "(OpFAdd): instruction outside a block"},
		{"branch_outside_the_function", "", "(OpBranch): branch to %8, which is not a block of this function"},
		{"phi_missing_predecessor", "", "(OpPhi): OpPhi has no value for predecessor %12"},
		{"recursive_call", "", "(OpFunctionCall): recursive call to k: recursion is not allowed in kernels and shaders"},
		{"calls_nested_70_deep", "", "(OpFunctionCall): calls nested more than 64 deep"},
		{"call_with_too_few_arguments", "", "call passes 0 arguments, helper takes more"},
		{"load_through_a_value", "", "(OpLoad): load through a non-pointer"},
		{"store_to_a_builtin", "", "(OpStore): store to a builtin input or a resource variable"},
		{"struct_member_index_not_constant", "", "(OpAccessChain): struct member index must be a constant in range"},
		{"bitcast_changing_size", "", "(OpBitcast): bitcast from u32 to f32x2 changes the size"},
		{"fconvert_rtz_narrowing", "", "(OpFConvert): conversion F64 to F32 with rounding mode 1 is not supported (only round-to-nearest-even)"},
		{"atomic_on_a_short", "", "(OpAtomicIAdd): atomics on 2-byte values are not supported (4 and 8 are)"},
		{"transpose_of_a_vector", "", "(OpTranspose): OpTranspose needs a matrix"},
		{"unknown_ext_set", "", `(OpExtInst): extended instruction set "SPV_AMD_gcn_shader" is not supported`},
		{"interpolate_at_centroid", "", "(OpExtInst): GLSL.std.450 InterpolateAtCentroid is not supported"},
		{"unsupported_opcode", "", "(OpGenericPtrMemSemantics): OpGenericPtrMemSemantics is not supported"},
		{"image_texel_offset", "", "(OpImageSampleImplicitLod): the image operand ConstOffset (texel offsets, gathers and multisampled images) is not supported"},
		{"explicit_lod_without_a_lod", "", "(OpImageSampleExplicitLod): OpImageSampleExplicitLod needs a Lod or Grad operand"},
		{"derivative_in_a_vertex_shader", "", "(OpDPdx): OpDPdx is only available in fragment shaders"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := buildBad(t, c.name, c.entry, ir.Options{})
			var ie *ir.Error
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "internal error") {
				t.Errorf("Build: %v\nwant an *ir.Error saying %q", err, c.want)
			}
		})
	}
}
