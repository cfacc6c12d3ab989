//go:build race

package ledger

// raceEnabled thins the exhaustive tamper sweeps, which test no
// concurrency and run ten times slower under the race detector.
const raceEnabled = true
