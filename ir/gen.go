package ir

//go:generate go run ./internal/opgen -ir op_gen.go -emu ../emu/alu_gen.go
