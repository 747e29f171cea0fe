package sums

import "testing"

var sink int

func BenchmarkSumSquares(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += SumSquares(1000)
	}
}

func BenchmarkJoin(b *testing.B) {
	for _, n := range []int{10, 100} {
		b.Run(map[int]string{10: "n=10", 100: "n=100"}[n], func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				sink += len(Join(n))
			}
			// A custom metric, reported the way Go's ReportMetric documents.
			b.ReportMetric(float64(n), "words/op")
		})
	}
}
