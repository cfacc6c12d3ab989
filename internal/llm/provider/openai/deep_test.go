package openai

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/llm/provider"
)

// An endpoint answering 12 MB of nested brackets is an answer that is not
// JSON, not a crash: gjson's validation recursed once per level and
// overflowed the stack.
func TestDeepAnswerIsNotJSON(t *testing.T) {
	body := strings.Repeat("[", 12<<20)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(body))
	}))
	defer srv.Close()
	env := map[string]string{"TEST_KEY": "sk-secret"}
	var sl sleeps
	r := Runner(Options{Getenv: func(k string) string { return env[k] }, Sleep: sl.sleep},
		provider.Spec{Provider: "openai", Model: "m", BaseURL: srv.URL + "/v1", APIKeyEnv: "TEST_KEY"})
	if _, err := r.Run(context.Background(), call()); err == nil || !strings.Contains(err.Error(), "not JSON") {
		t.Fatalf("got %v, want the answer refused as not JSON", err)
	}
}
