package ir

// The generated operations' constants; emu generates their handlers from
// the same table (emu/gen.go).
//go:generate go run ./internal/opgen -pkg ir -o op_gen.go
