package testcmds

import (
	"testing"
	"time"
)

func TestScrubberApply(t *testing.T) {
	now := time.Now().UTC()
	tests := []struct {
		name     string
		s        scrubber
		in, want string
	}{
		{"variables longest first", scrubber{vars: []string{"P=/w/onlooker/tribunal/ab12", "WORK=/w"}},
			"Artifacts: /w/onlooker/tribunal/ab12/x and /w/repo", "Artifacts: $P/x and $WORK/repo"},
		{"ids numbered by first appearance", scrubber{ids: true},
			"01M8Y42BA82NK7QQ8W1D639AP4 01M8Y42BC7T5QGD96R0EY0SDWS 01M8Y42BA82NK7QQ8W1D639AP4",
			"<id1> <id2> <id1>"},
		{"uuids in any case are one id", scrubber{ids: true},
			"3f2a9c1b-7777-4444-8888-00000000000a / 3F2A9C1B-7777-4444-8888-00000000000A", "<id1> / <id1>"},
		{"hashes numbered apart from ids", scrubber{ids: true, hashes: true},
			"01M8Y42BA82NK7QQ8W1D639AP4 fingerprint 39233f90b5f7ac379209f7e00056d0a2856de388ae96f46a77445ebf28cdfc85 commit 4930185d2e4c0a1b9f8e7d6c5b4a39281706f5e4 9c1e, git diff f8448ced74ae",
			"<id1> fingerprint <hash1> commit <hash2> 9c1e, git diff <hash3>"},
		{"ids off", scrubber{}, "01M8Y42BA82NK7QQ8W1D639AP4", "01M8Y42BA82NK7QQ8W1D639AP4"},
		{"lower-case prefix is not an id", scrubber{ids: true}, "01m8y42ba8", "01m8y42ba8"},
		{"this run's times", scrubber{times: true},
			"started " + now.Format("2006-01-02 15:04Z") + "; at " + now.Format(time.RFC3339Nano) + "; at " + now.Format("2006-01-02T15:04:05") + "; key.old." + now.Format("20060102T150405.000000000Z") + ".old; on 2026-05-24",
			"started <time>; at <time>; at <time>; key.old.<time>.old; on 2026-05-24"},
		{"ages under an hour", scrubber{times: true},
			"(just now, session good) (12 min ago) (4 d ago) (2 h ago)", "(<age>, session good) (<age>) (4 d ago) (2 h ago)"},
		{"a fixture's fixed times stay", scrubber{times: true},
			"2020-01-01 00:00Z 2026-05-24T10:00:00.123Z", "2020-01-01 00:00Z 2026-05-24T10:00:00.123Z"},
		{"durations", scrubber{dur: true},
			"took 0.6 s, 304 ms, 1m2.5s, 340ms; 3 scores, 5 min ago, main.go:12, 0.75", "took <dur>, <dur>, <dur>, <dur>; 3 scores, 5 min ago, main.go:12, 0.75"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.s.idNames = map[string]string{}
			if got := tt.s.apply(tt.in); got != tt.want {
				t.Errorf("apply(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
