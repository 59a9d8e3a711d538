package kernel

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// KernelMeta is what clang records about a kernel beyond its SPIR-V: its
// arguments as written (clGetKernelArgInfo) and its attributes
// (clGetKernelInfo CL_KERNEL_ATTRIBUTES). llvm-spirv-14 keeps only the
// names, so the OpenCL C pipelines read it from the LLVM IR.
type KernelMeta struct {
	Args []ArgMeta
	// Attributes are the kernel's attributes as OpenCL C spells them,
	// space separated: reqd_work_group_size(X,Y,Z) and the like.
	Attributes string
	// ReqdWorkGroupSize is reqd_work_group_size, or zeros.
	ReqdWorkGroupSize [3]int
}

// ArgMeta is one kernel argument as declared.
type ArgMeta struct {
	AddrSpace int    // 0 private (a value), 1 global, 2 constant, 3 local
	Access    string // none, read_only, write_only, read_write
	Type      string // the type name, e.g. "float*", "pair_t"
	TypeQual  string // const, restrict, volatile, pipe: space separated
	Name      string
}

var (
	kernelDef = regexp.MustCompile(`(?m)^define [^\n]*\bspir_kernel\b[^\n]*? @([A-Za-z_$.][\w$.]*)\([^\n]*$`)
	mdRef     = regexp.MustCompile(`!(kernel_arg_\w+|reqd_work_group_size|work_group_size_hint|vec_type_hint) !(\d+)`)
	mdNode    = regexp.MustCompile(`(?m)^!(\d+) = (?:distinct )?!\{(.*)\}$`)
	mdString  = regexp.MustCompile(`!"((?:[^"\\]|\\.)*)"|i32 (-?\d+)|<(\d+) x (\w+)>|\b(i8|i16|i32|i64|half|float|double) (?:undef|poison)`)
)

// parseMeta reads the kernels' metadata from textual LLVM IR.
func parseMeta(ll string) map[string]*KernelMeta {
	nodes := map[string]string{}
	for _, m := range mdNode.FindAllStringSubmatch(ll, -1) {
		nodes[m[1]] = m[2]
	}
	out := map[string]*KernelMeta{}
	for _, def := range kernelDef.FindAllStringSubmatch(ll, -1) {
		km := &KernelMeta{}
		fields := map[string][]string{}
		var wants []string
		for _, r := range mdRef.FindAllStringSubmatch(def[0], -1) {
			fields[r[1]] = mdItems(nodes[r[2]])
			wants = append(wants, r[1])
		}
		n := len(fields["kernel_arg_addr_space"])
		for i := 0; i < n; i++ {
			at := func(k string) string {
				if v := fields[k]; i < len(v) {
					return v[i]
				}
				return ""
			}
			as, _ := strconv.Atoi(at("kernel_arg_addr_space"))
			km.Args = append(km.Args, ArgMeta{AddrSpace: as, Access: at("kernel_arg_access_qual"),
				Type: at("kernel_arg_type"), TypeQual: at("kernel_arg_type_qual"), Name: at("kernel_arg_name")})
		}
		var attrs []string
		for _, k := range wants {
			v := fields[k]
			switch k {
			case "reqd_work_group_size", "work_group_size_hint":
				if len(v) == 3 {
					attrs = append(attrs, fmt.Sprintf("%s(%s,%s,%s)", k, v[0], v[1], v[2]))
					if k == "reqd_work_group_size" {
						for j := range km.ReqdWorkGroupSize {
							km.ReqdWorkGroupSize[j], _ = strconv.Atoi(v[j])
						}
					}
				}
			case "vec_type_hint":
				if len(v) >= 1 {
					attrs = append(attrs, "vec_type_hint("+v[0]+")")
				}
			}
		}
		km.Attributes = strings.Join(attrs, " ")
		out[def[1]] = km
	}
	return out
}

// mdItems lists a metadata node's strings and integers; a vector type
// hint (<4 x float> undef, i32 1) becomes its OpenCL C name.
func mdItems(node string) []string {
	var out []string
	ms := mdString.FindAllStringSubmatch(node, -1)
	for i, m := range ms {
		switch {
		case m[3] != "":
			signed := i+1 < len(ms) && ms[i+1][2] == "1"
			return []string{clTypeName(m[4], signed) + m[3]}
		case m[5] != "":
			signed := i+1 < len(ms) && ms[i+1][2] == "1"
			return []string{clTypeName(m[5], signed)}
		case m[2] != "":
			out = append(out, m[2])
		default:
			out = append(out, m[1])
		}
	}
	return out
}

// clTypeName is the OpenCL C name of an LLVM scalar type.
func clTypeName(llvm string, signed bool) string {
	name := map[string]string{"i8": "char", "i16": "short", "i32": "int", "i64": "long", "half": "half", "float": "float", "double": "double"}[llvm]
	if !signed && strings.HasPrefix(llvm, "i") {
		name = "u" + name
	}
	return name
}

// readMeta disassembles a bitcode file and reads its kernels' metadata.
func (w *work) readMeta(bc string) (map[string]*KernelMeta, error) {
	ll := filepath.Join(w.tmp, "meta.ll")
	if err := w.quiet("llvm-dis-14", bc, "-o", ll); err != nil {
		return nil, err
	}
	text, err := os.ReadFile(ll)
	if err != nil {
		return nil, fmt.Errorf("compiling %s: %w", w.name, err)
	}
	return parseMeta(string(text)), nil
}

// quiet runs a tool whose output is not a diagnostic of the user's code.
func (w *work) quiet(tool string, args ...string) error {
	saved := w.warnings
	w.warnings = nil
	defer func() { w.warnings = saved }()
	return w.run(tool, args...)
}
