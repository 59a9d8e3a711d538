package emu

// The handlers of ir's generated operations, from the table that gives ir
// their constants (ir/gen.go).
//go:generate go run ../ir/internal/opgen -pkg emu -o alu_gen.go
