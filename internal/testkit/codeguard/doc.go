// Package codeguard holds no code: its tests keep the code base's shape
// within the house rules (functions of at most 80 lines; hook binaries link
// only the packages of their path; records imports only the bottom
// packages).
package codeguard
