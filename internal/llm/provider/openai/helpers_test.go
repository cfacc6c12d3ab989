package openai

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// startHandler serves h on a loopback port for the rest of the test.
func startHandler(t *testing.T, h http.Handler) string {
	t.Helper()
	s := httptest.NewServer(h)
	t.Cleanup(func() {
		s.CloseClientConnections()
		s.Close()
	})
	return s.URL
}
