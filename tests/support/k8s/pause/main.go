// The pause program of the test cluster's pod sandboxes (containerd's sandbox_image): it
// holds the pod's namespaces open until it is told to stop.
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	<-stop
}
