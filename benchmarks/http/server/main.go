// A test server with a known behaviour, for checking the http driver against theory
// (BENCHMARKS.md, "Services under load"). It listens on 127.0.0.1:$PORT and answers every
// path except /healthz according to -mode:
//
//	fixed: at once (the floor: client, kernel and HTTP overhead only)
//	mm1:   an M/M/1 queue: exponential service times at rate -mu per second, one request at a
//	       time, first come first served. Each request's departure is computed in virtual time
//	       (max(arrival, previous departure) + service) and the answer is sent then, so timer
//	       error never accumulates and the server needs no CPU to "serve".
//	stall: at once, except that the first -stall-for of every -stall-every the server stalls:
//	       requests that arrive then are answered when the stall ends.
package main

import (
	"flag"
	"math/rand"
	"net/http"
	"os"
	"sync"
	"time"
)

func main() {
	mode := flag.String("mode", "fixed", "fixed | mm1 | stall")
	mu := flag.Float64("mu", 200, "mm1: service rate, requests per second")
	seed := flag.Int64("seed", 1, "mm1: seed of the service times")
	every := flag.Duration("stall-every", 5*time.Second, "stall: period")
	stallFor := flag.Duration("stall-for", time.Second, "stall: length of each stall")
	flag.Parse()
	started := time.Now()
	var lock sync.Mutex
	var lastDeparture time.Time
	rng := rand.New(rand.NewSource(*seed))
	http.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		now := time.Now()
		switch *mode {
		case "mm1":
			lock.Lock()
			service := time.Duration(rng.ExpFloat64() / *mu * float64(time.Second))
			start := now
			if lastDeparture.After(start) {
				start = lastDeparture
			}
			departure := start.Add(service)
			lastDeparture = departure
			lock.Unlock()
			time.Sleep(time.Until(departure))
		case "stall":
			phase := now.Sub(started) % *every
			if phase < *stallFor {
				time.Sleep(*stallFor - phase)
			}
		}
		w.Write([]byte("ok"))
	})
	server := &http.Server{Addr: "127.0.0.1:" + os.Getenv("PORT")}
	if err := server.ListenAndServe(); err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
}
