module duetkit.local/benchserver

go 1.22
