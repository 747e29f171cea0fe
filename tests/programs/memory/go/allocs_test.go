package allocs

import "testing"

var sink int

func BenchmarkWork(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		sink += Work(200)
	}
}
