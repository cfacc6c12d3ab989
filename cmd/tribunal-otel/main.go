// Command tribunal-otel sends tribunal's recorded tasks and judgements to an OpenTelemetry collector: tribunal-session runs it, from beside itself, for `export` and the live export after run and review, so that only this program links the OpenTelemetry SDK.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/tribunal-cc/tribunal/internal/present/otelexport/otelcli"
)

func main() {
	// Interrupted, the export stops where it is and says what was not
	// sent (exit 40), as it did inside tribunal-session.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	home := os.Getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	code := otelcli.Main(ctx, os.Args[1:], otelcli.Deps{Getenv: os.Getenv, Environ: os.Environ(), Home: home,
		Stdout: os.Stdout, Stderr: os.Stderr, Now: time.Now})
	stop()
	os.Exit(code)
}
