package work

import (
	"os"
	"strconv"
	"testing"
)

var sink uint64

func BenchmarkWork(b *testing.B) {
	n, err := strconv.Atoi(os.Getenv("N"))
	if err != nil || n < 1 {
		b.Fatalf("N must be a positive number of steps, got %q", os.Getenv("N"))
	}
	for i := 0; i < b.N; i++ {
		sink ^= Chain(n)
	}
}
