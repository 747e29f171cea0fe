// Package allocs is a constructed workload for duetkit's exact comparison of go's -benchmem
// figures: Work allocates two 64-byte objects per call, and one more when
// DUETKIT_EXTRA_ALLOC=1 (2 → 3 allocs/op, 128 → 192 B/op).
package allocs

import "os"

var extra = os.Getenv("DUETKIT_EXTRA_ALLOC") == "1"

// Escape to the heap through these, so each new is one allocation.
var sinkA, sinkB, sinkC *[64]byte

// Work allocates two objects, or three with DUETKIT_EXTRA_ALLOC=1, and sums a little.
func Work(n int) int {
	sinkA = new([64]byte)
	sinkB = new([64]byte)
	if extra {
		sinkC = new([64]byte)
	}
	total := 0
	for i := 0; i < n; i++ {
		total += i * i
	}
	sinkA[0] = byte(total)
	return total
}
