package claude

import (
	"strings"
	"testing"
	"time"
)

func TestErrorMessages(t *testing.T) {
	long := strings.Repeat("é", 150) // 300 bytes
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"timeout", &TimeoutError{After: 60 * time.Second}, "claude did not finish within 1m0s and was killed"},
		{"exit without stderr", &ExitError{Code: 2}, "claude exited with status 2"},
		{"exit keeps the last stderr line", &ExitError{Code: 1, Stderr: "warming up\nError: invalid API key\n"},
			"claude exited with status 1: Error: invalid API key"},
		{"api error", &APIError{TerminalReason: "api_error", Message: "API Error: 500\nsecond line"},
			"claude reported an error (api_error): API Error: 500"},
		{"api error without details", &APIError{}, "claude reported an error"},
		{"control characters become spaces", &APIError{TerminalReason: "x\x1b[31m", Message: "A\x1b[2J\x1b]52;c;ZXZpbA==\x07\rB\u202eC"},
			"claude reported an error (x [31m): A [2J ]52;c;ZXZpbA==  B C"},
		{"stderr control characters", &ExitError{Code: 1, Stderr: "\x1b]0;title\x07boom"}, "claude exited with status 1:  ]0;title boom"},
		{"long message cut on a character boundary", &APIError{Message: long},
			"claude reported an error: " + strings.Repeat("é", 100) + "…"},
		{"odd cut", &APIError{Message: "x" + long}, "claude reported an error: x" + strings.Repeat("é", 99) + "…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("Error() = %q\nwant      %q", got, tt.want)
			}
		})
	}
}
