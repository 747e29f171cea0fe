module duetkit.example/fidelity

go 1.22
