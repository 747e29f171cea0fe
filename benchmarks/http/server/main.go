// A test server with a known behaviour, for checking the http driver against theory
// (BENCHMARKS.md, "Services under load"). It listens on 127.0.0.1:$PORT and answers every
// path except /healthz according to -mode:
//
//	fixed: at once (the floor: client, kernel and HTTP overhead only)
//	mm1:   an M/M/1 queue: exponential service times at rate -mu per second, one request at a
//	       time, first come first served. Each request's departure is computed in virtual time
//	       (max(arrival, previous departure) + service) and the answer is sent then: the handler
//	       sleeps until 1.5 ms before it (Go's sleep overshoots by about 0.6 ms) and yields in a
//	       loop for the rest, so answers leave within microseconds of their departure.
//
// PORTS="p1,p2,..." listens on several ports, each with a queue of its own: replicas in one
// process, whose goroutines take turns on one CPU instead of competing as processes.
//
//	stall: at once, except that the first -stall-for of every -stall-every the server stalls:
//	       requests that arrive then are answered when the stall ends.
package main

import (
	"flag"
	"math/rand"
	"net/http"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"
)

// until returns at t: a sleep for all but the last 1.5 ms, then a loop that yields.
func until(t time.Time) {
	if d := time.Until(t) - 1500*time.Microsecond; d > 0 {
		time.Sleep(d)
	}
	for time.Now().Before(t) {
		runtime.Gosched()
	}
}

func main() {
	mode := flag.String("mode", "fixed", "fixed | mm1 | stall")
	mu := flag.Float64("mu", 200, "mm1: service rate, requests per second")
	seed := flag.Int64("seed", 1, "mm1: seed of the service times")
	every := flag.Duration("stall-every", 5*time.Second, "stall: period")
	stallFor := flag.Duration("stall-for", time.Second, "stall: length of each stall")
	flag.Parse()
	started := time.Now()
	ports := strings.Split(os.Getenv("PORTS"), ",")
	if os.Getenv("PORTS") == "" {
		ports = []string{os.Getenv("PORT")}
	}
	errors := make(chan error)
	for i, port := range ports {
		var lock sync.Mutex
		var lastDeparture time.Time
		rng := rand.New(rand.NewSource(*seed + int64(i)))
		mux := http.NewServeMux()
		mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
		mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
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
				until(departure)
			case "stall":
				phase := now.Sub(started) % *every
				if phase < *stallFor {
					time.Sleep(*stallFor - phase)
				}
			}
			w.Write([]byte("ok"))
		})
		server := &http.Server{Addr: "127.0.0.1:" + port, Handler: mux}
		go func() { errors <- server.ListenAndServe() }()
	}
	err := <-errors
	os.Stderr.WriteString(err.Error() + "\n")
	os.Exit(1)
}
