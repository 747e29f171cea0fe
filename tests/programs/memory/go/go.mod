module duetkit.test/allocs

go 1.22
