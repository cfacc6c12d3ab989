package jcs

import (
	"crypto/sha256"
	"encoding/hex"
)

// SHA256 is the hex SHA-256 of in's canonical form: the one digest of a
// JSON document (a task's rubric) that a receipt pins and a trace carries,
// equal for documents that differ only in spacing or member order.
func SHA256(in []byte) (string, error) {
	c, err := Canonicalize(in)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(c)
	return hex.EncodeToString(sum[:]), nil
}
