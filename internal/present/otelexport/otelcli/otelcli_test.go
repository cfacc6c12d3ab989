package otelcli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/present/otelexport/otelconf"
)

// TestMainAnswers holds tribunal-otel's own answers: what it is asked that is
// not an export, export's help and usage errors in tribunal-session's
// words, and the live form's contract (one task; warnings, never an error
// status). Sending is tested through tribunal-session (cmd's export tests
// and the otel tier).
func TestMainAnswers(t *testing.T) {
	for _, tc := range []struct {
		name           string
		args           []string
		env            map[string]string
		code           int
		stdout, stderr string
	}{
		{"nothing", nil, nil, 2, "", "tribunal: error: tribunal-otel: say what to do: export\ntribunal: hint: tribunal-session export -h\n"},
		{"unknown", []string{"run"}, nil, 2, "", `tribunal: error: tribunal-otel: unknown command "run" (it has one: export)`},
		{"version", []string{"--version"}, nil, 0, "tribunal-otel ", ""},
		{"help", []string{"export", "--otlp", "-h"}, nil, 0, otelconf.ExportHelp, ""},
		{"mistyped flag", []string{"export", "--otpl"}, nil, 2, "",
			"tribunal: error: export: unknown flag --otpl (did you mean --otlp?)\ntribunal: hint: tribunal-session export -h\n"},
		{"the hidden flag is never offered", []string{"export", "--liv"}, nil, 2, "", "tribunal: error: export: unknown flag --liv\n"},
		{"no --otlp", []string{"export"}, nil, 2, "", "say where to: --otlp"},
		{"live names one task", []string{"export", "--otlp", "--live"}, nil, 2, "", "--live sends one --task"},
		{"live with no collector is silent", otelconf.LiveArgs("01JQ2000000000000000000000"), nil, 0, "", ""},
		{"live with a bad endpoint warns", otelconf.LiveArgs("01JQ2000000000000000000000"),
			map[string]string{otelconf.EnvEndpoint: "127.0.0.1:4318"}, 0, "",
			"tribunal: warning: task 01JQ2000000000000000000000: traces not exported: OTEL_EXPORTER_OTLP_ENDPOINT=\"127.0.0.1:4318/v1/traces\" is not an http:// or https:// URL\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			env := map[string]string{"HOME": home, "ONLOOKER_DIR": home}
			for k, v := range tc.env {
				env[k] = v
			}
			var out, errb bytes.Buffer
			code := Main(context.Background(), tc.args, Deps{Getenv: func(k string) string { return env[k] }, Home: home, Stdout: &out, Stderr: &errb})
			if code != tc.code || !strings.HasPrefix(out.String(), tc.stdout) || (tc.stdout == "") != (out.Len() == 0) {
				t.Errorf("exit %d, stdout %q; want exit %d, stdout %q", code, out.String(), tc.code, tc.stdout)
			}
			if tc.stderr == "" && errb.Len() != 0 || !strings.Contains(errb.String(), tc.stderr) {
				t.Errorf("stderr %q, want %q", errb.String(), tc.stderr)
			}
		})
	}
}
