// A benchmark whose op runs four functions of known shares of the work
// (benchmarks/explain-programs.ts): parseRecords 40%, hashKeys 30%, encodeOutput 20%,
// validate 10%: the same loop body run 4, 3, 2 and 1 times unit steps per op.
// encodeExtraPercent is the constructed slowdown: the head made by the benchmark sets it to 50,
// so encodeOutput does 3 units an op instead of 2 (+10% of the whole).
package work

import "testing"

const encodeExtraPercent = 0
const unit = 20000

//go:noinline
func parseRecords(n int, s uint64) uint64 {
	for i := 0; i < n; i++ {
		s = s*0x9e3779b1 + (uint64(i) ^ (s >> 7))
	}
	return s
}

//go:noinline
func hashKeys(n int, s uint64) uint64 {
	for i := 0; i < n; i++ {
		s = s*0x85ebca6b + (uint64(i) ^ (s >> 7))
	}
	return s
}

//go:noinline
func encodeOutput(n int, s uint64) uint64 {
	for i := 0; i < n; i++ {
		s = s*0xc2b2ae35 + (uint64(i) ^ (s >> 7))
	}
	return s
}

//go:noinline
func validate(n int, s uint64) uint64 {
	for i := 0; i < n; i++ {
		s = s*0x27d4eb2f + (uint64(i) ^ (s >> 7))
	}
	return s
}

var sink uint64

func BenchmarkWork(b *testing.B) {
	s := uint64(1)
	for i := 0; i < b.N; i++ {
		s = parseRecords(4*unit, s)
		s = hashKeys(3*unit, s)
		s = encodeOutput(2*unit+2*unit*encodeExtraPercent/100, s)
		s = validate(1*unit, s)
	}
	sink = s
}
