package ledger

import (
	"testing"
	"time"
)

// BenchmarkAppend measures one append to a ledger that already has
// entries: key load, lock, head and tail read, sign, write, two fsyncs and
// the head's atomic replacement. This is what the Stop hook pays per
// verdict.
func BenchmarkAppend(b *testing.B) {
	f := fixture{path: b.TempDir() + "/ledger.jsonl", keyDir: b.TempDir() + "/keys"}
	rec := map[string]any{"outcome": "accept", "score": 0.82, "feedback": "fine"}
	for range 100 {
		if _, err := Append(f.path, f.keyDir, KindGate, Fields{TaskID: "t"}, rec, time.Now()); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := Append(f.path, f.keyDir, KindGate, Fields{TaskID: "t"}, rec, time.Now()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerifyEntry measures verification per entry.
func BenchmarkVerifyEntry(b *testing.B) {
	f := fixture{path: b.TempDir() + "/ledger.jsonl", keyDir: b.TempDir() + "/keys"}
	rec := map[string]any{"outcome": "accept", "score": 0.82, "feedback": "fine"}
	const n = 200
	for range n {
		if _, err := Append(f.path, f.keyDir, KindGate, Fields{TaskID: "t"}, rec, time.Now()); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := Verify(f.path); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/entry")
}
