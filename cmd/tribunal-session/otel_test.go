package main

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/tribunal-cc/tribunal/internal/testkit/testcmds"
	"github.com/tribunal-cc/tribunal/internal/testkit/testtier"
)

// TestOTelScripts runs testdata/otel against a real Jaeger (the otel
// tier): tribunal-session exports over OTLP/HTTP, live and backfilled, and
// the scripts read the traces back through Jaeger's query API.
func TestOTelScripts(t *testing.T) {
	testtier.Require(t, testtier.OTel)
	bin := testcmds.JaegerBin(os.Getenv)
	if fi, err := os.Stat(bin); err != nil || fi.IsDir() {
		testtier.Missing(t, testtier.OTel, "jaeger "+testcmds.JaegerVersion+" at "+bin, "scripts/build-jaeger.sh builds it")
	}
	otlp, query := testcmds.StartJaeger(t, bin)
	p := testcmds.Params("testdata/otel", *update)
	p.Setup = func(env *testscript.Env) error {
		if err := testcmds.Setup(env); err != nil {
			return err
		}
		env.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", otlp)
		env.Setenv("JAEGER_QUERY", query)
		return nil
	}
	testscript.Run(t, p)
}
