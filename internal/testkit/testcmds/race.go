//go:build race

package testcmds

// raceBuild is true in a binary built with -race: the [race] condition.
const raceBuild = true
