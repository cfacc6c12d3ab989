package receipt

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"fmt"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/ledger"
)

// SignersFile is the allowed-signers file's place in a repository.
const SignersFile = ".tribunal/allowed_signers"

// Signers is an allowed-signers file: who may sign receipts for this
// project. Its lines follow git's gpg.ssh.allowedSignersFile, so one file
// can serve both: "<principal> [options] <key-type> <base64 key>
// [comment]", '#' comments and blank lines. Only ssh-ed25519 keys can
// sign receipts; a line with another key type is skipped with a warning.
// Options (namespaces="…", valid-after=…, cert-authority) are accepted
// and not interpreted: a receipt is not a git signature.
type Signers struct {
	byKey map[string]string // ledger public key form → principal
}

// Principal is the name the file gives key ("" when it is not allowed).
func (s Signers) Principal(key string) (string, bool) {
	p, ok := s.byKey[key]
	return p, ok
}

// Len is the number of Ed25519 keys the file allows.
func (s Signers) Len() int { return len(s.byKey) }

// ParseSigners reads an allowed-signers file; name is what its errors
// call it. A malformed line is an error naming name:line: a trust list
// that does not say what its writer meant is not used at all.
func ParseSigners(name string, data []byte) (Signers, []string, error) {
	s := Signers{byKey: map[string]string{}}
	var warnings []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		principal, typ, key, err := signerFields(line)
		if err != nil {
			return Signers{}, nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		if typ != ledger.SSHKeyType {
			warnings = append(warnings, fmt.Sprintf("%s:%d: key type %s skipped: receipts are signed with %s keys only", name, n, typ, ledger.SSHKeyType))
			continue
		}
		k, err := ledger.ParseSSHPublicKey(typ, key)
		if err != nil {
			return Signers{}, nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		s.byKey[ledger.PublicKeyString(k)] = principal
	}
	if err := sc.Err(); err != nil {
		return Signers{}, nil, fmt.Errorf("%s: %w", name, err)
	}
	return s, warnings, nil
}

// signerFields splits a line into its principal, key type and key,
// passing over the options between the principal and the key type (an
// option value may be quoted and hold spaces).
func signerFields(line string) (principal, typ, key string, err error) {
	fields := quotedFields(line)
	if len(fields) < 3 {
		return "", "", "", fmt.Errorf("want <principal> <key-type> <base64 key>, got %d field(s): %.80q", len(fields), line)
	}
	for i := 1; i+1 < len(fields); i++ {
		if strings.HasPrefix(fields[i], "ssh-") || strings.HasPrefix(fields[i], "ecdsa-") || strings.HasPrefix(fields[i], "sk-") {
			return fields[0], fields[i], fields[i+1], nil
		}
	}
	return "", "", "", fmt.Errorf("no key type (ssh-ed25519, …) followed by a key: %.80q", line)
}

// quotedFields splits on spaces and tabs outside double quotes.
func quotedFields(line string) []string {
	var out []string
	var cur strings.Builder
	quoted := false
	for _, c := range line {
		switch {
		case c == '"':
			quoted = !quoted
			cur.WriteRune(c)
		case (c == ' ' || c == '\t') && !quoted:
			if cur.Len() > 0 {
				out = append(out, cur.String())
				cur.Reset()
			}
		default:
			cur.WriteRune(c)
		}
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

// SignerLine is the allowed-signers line for key under principal: what
// `tribunal-session receipt --public-key` prints.
func SignerLine(principal string, key ed25519.PublicKey) string {
	return oneWord(principal) + " " + ledger.SSHPublicKey(key)
}
