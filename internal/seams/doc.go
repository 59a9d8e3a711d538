// Package seams holds tests that keep the code's seams where the
// hardware's are: only the family packages under isa/ and their registry
// branch on a GPU family; everything else reads parameters.
package seams
