// Package sums is a tiny workload for duetkit's format fixtures. DUETKIT_SLOW=1 makes it
// about twice as slow, so an end-to-end duet test can show a regression.
package sums

import (
	"os"
	"strings"
)

var slow = os.Getenv("DUETKIT_SLOW") == "1"

// SumSquares adds the squares below n (twice when slow).
func SumSquares(n int) int {
	rounds := 1
	if slow {
		rounds = 2
	}
	total := 0
	for r := 0; r < rounds; r++ {
		total = 0
		for i := 0; i < n; i++ {
			total += i * i
		}
	}
	return total
}

// Join builds a string of n words; it allocates, so -benchmem has something to show.
func Join(n int) string {
	parts := make([]string, 0, n)
	for i := 0; i < n; i++ {
		parts = append(parts, "w")
	}
	if slow {
		parts = append(parts, strings.Repeat("w", n))
	}
	return strings.Join(parts, " ")
}
