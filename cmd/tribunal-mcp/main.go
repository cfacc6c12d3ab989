// Command tribunal-mcp serves tribunal's tools over the Model Context Protocol on stdio, each tool a child tribunal-session found beside it.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/tribunal-cc/tribunal/internal/mcpserver"
	"github.com/tribunal-cc/tribunal/internal/proc"
	"github.com/tribunal-cc/tribunal/internal/version"
)

func main() {
	os.Exit(run())
}

// run is main with the termination signals tribunal-session stops on
// ending the server (each running tool's child is killed with its call)
// and SIGPIPE notified, so that a client gone from stdout does not kill
// the server before its children are.
func run() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	return mcpserver.Main(ctx, mcpserver.Program{Args: os.Args[1:], Version: version.Version, Self: proc.Self(),
		Getenv: os.Getenv, Environ: os.Environ(), Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr})
}
