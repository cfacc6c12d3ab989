//go:build !race

package ledger

// raceEnabled is false: the tamper sweeps run in full.
const raceEnabled = false
