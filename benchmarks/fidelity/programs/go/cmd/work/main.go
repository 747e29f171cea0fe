// Command work runs the fidelity chain once: work N (or N in the environment).
package main

import (
	"fmt"
	"os"
	"strconv"

	work "duetkit.example/fidelity"
)

func main() {
	arg := os.Getenv("N")
	if len(os.Args) > 1 {
		arg = os.Args[1]
	}
	n, err := strconv.Atoi(arg)
	if err != nil || n < 1 {
		fmt.Fprintln(os.Stderr, "usage: work N")
		os.Exit(2)
	}
	fmt.Println(work.Chain(n))
}
