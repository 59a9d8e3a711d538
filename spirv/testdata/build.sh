#!/bin/sh
# Rebuilds the test modules from their sources (run from spirv/testdata).
# Needs clang-14, llvm-14, llvm-spirv-14 and spirv-tools (OpenCL C, spirv-as) and
# glslang-tools (GLSL); the .spv files are committed so go test needs none.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# OpenCL C through the DEVELOPERS.md pipeline (valid SPIR-V).
clang-14 -c -target spir64 -cl-std=CL1.2 -O2 -Xclang -disable-llvm-passes -emit-llvm kernels.cl -o "$tmp/k0.bc"
opt-14 -passes='function(sroa,early-cse,instcombine,simplifycfg,gvn,dce)' "$tmp/k0.bc" -o "$tmp/k.bc"
llvm-spirv-14 "$tmp/k.bc" -o kernels.spv
spirv-val kernels.spv

# Plain -O2 straight into llvm-spirv-14: blocks before their dominators
# (spirv-val rejects it; the decoder must accept it).
clang-14 -c -target spir64 -cl-std=CL1.2 -O2 -emit-llvm raw_o2.cl -o "$tmp/r.bc"
llvm-spirv-14 "$tmp/r.bc" -o raw_o2.spv
if spirv-val raw_o2.spv 2>/dev/null; then
	echo "raw_o2.spv validates: it no longer has a use before its definition" >&2
	exit 1
fi

# GLSL compute shader for Vulkan 1.1.
glslangValidator -V --target-env vulkan1.1 compute.comp -o compute.spv
spirv-val --target-env vulkan1.1 compute.spv

# Hand-written assembly for operand shapes the compilers do not emit
# (not valid for spirv-val: it only has to assemble).
spirv-as --target-env spv1.4 grammar.spvasm -o grammar.spv
