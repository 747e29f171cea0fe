// Package work is the fidelity benchmark's Go program: the same dependent xorshift chain as
// work.c, so +1% work is 1% more steps (benchmarks/fidelity.ts). As a command:
// `go run ./cmd/work N`; as a Go benchmark: BenchmarkWork with the steps in $N.
package work

// Chain runs n steps of the xorshift chain and returns the final state.
func Chain(n int) uint64 {
	x := uint64(88172645463325252)
	for i := 0; i < n; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}
