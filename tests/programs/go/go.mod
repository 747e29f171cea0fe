module example.com/duetkit-bench-go

go 1.21
