//go:build !race

package testcmds

// raceBuild is false in a binary built without -race.
const raceBuild = false
