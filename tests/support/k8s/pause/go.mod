module duetkit.local/pause

go 1.22
