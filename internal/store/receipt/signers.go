package receipt

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"fmt"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/store/ledger"
)

// SignersFile is the allowed-signers file's place in a repository.
const SignersFile = ".tribunal/allowed_signers"

// Namespace is the namespace a receipt is signed in, as a line's
// namespaces="…" option sees it: a line limited to namespaces="git"
// allows its key to sign commits, not receipts.
const Namespace = "tribunal-receipt"

// Signers is an allowed-signers file: who may sign receipts for this
// project. Its lines follow ssh-keygen's ALLOWED SIGNERS format (git's
// gpg.ssh.allowedSignersFile), so one file can serve both: "<principals>
// [options] <key-type> <base64 key> [comment]", '#' comments and blank
// lines. Only ssh-ed25519 keys can sign receipts; a line with another key
// type is skipped with a warning. The options namespaces, valid-after and
// valid-before are honoured as `ssh-keygen -Y verify` honours them (see
// signeropts.go); cert-authority and any other option are refused: a
// line whose limits tribunal cannot apply must not allow more than its
// writer meant.
type Signers struct {
	byKey map[string][]signerLine // ledger public key form → its lines, in file order
	// at is the verify time the lines' validity windows are held to.
	at time.Time
}

type signerLine struct {
	principal string
	where     string // name:line, for reasons
	opts      signerOpts
}

// At is s checking validity windows against t, the verify time. Like
// `ssh-keygen -Y verify` without -Overify-time, tribunal uses the time of
// verification, not the receipt's signed_at: the signer writes signed_at,
// and a key past its valid-before must not vouch by back-dating it.
func (s Signers) At(t time.Time) Signers {
	s.at = t
	return s
}

// Allowed says whether key may sign a receipt now: the principal of the
// first of its lines whose options allow the receipt namespace and the
// verify time (as ssh-keygen takes the first line that matches), else
// why not ("" when no line lists the key at all).
func (s Signers) Allowed(key string) (principal, why string, ok bool) {
	lines := s.byKey[key]
	var whys []string
	for _, l := range lines {
		if reason := l.opts.refuses(Namespace, s.at); reason != "" {
			whys = append(whys, fmt.Sprintf("%s (%s): %s", l.where, l.principal, reason))
			continue
		}
		return l.principal, "", true
	}
	return "", strings.Join(whys, "; "), false
}

// Len is the number of Ed25519 keys the file allows.
func (s Signers) Len() int { return len(s.byKey) }

// ParseSigners reads an allowed-signers file; name is what its errors
// call it and loc the zone of times written without Z (ssh-keygen reads
// them in local time). A malformed line, or one with an option tribunal
// does not apply, is an error naming name:line: a trust list that does
// not say what its writer meant is not used at all.
func ParseSigners(name string, data []byte, loc *time.Location) (Signers, []string, error) {
	s := Signers{byKey: map[string][]signerLine{}}
	var warnings []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		principal, opts, typ, key, err := signerFields(line)
		if err != nil {
			return Signers{}, nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		o, err := parseSignerOpts(opts, loc)
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
		pk := ledger.PublicKeyString(k)
		s.byKey[pk] = append(s.byKey[pk], signerLine{principal: principal, where: fmt.Sprintf("%s:%d", name, n), opts: o})
	}
	if err := sc.Err(); err != nil {
		return Signers{}, nil, fmt.Errorf("%s: %w", name, err)
	}
	return s, warnings, nil
}

// signerFields splits a line into its principals, options, key type and
// key. As in ssh-keygen, the options are one field (commas between them,
// no space outside double quotes) between the principals and the key
// type.
func signerFields(line string) (principal, opts, typ, key string, err error) {
	fields, closed := quotedFields(line)
	if !closed {
		return "", "", "", "", fmt.Errorf("a double quote is not closed (missing end quote): %.80q", line)
	}
	if len(fields) < 3 {
		return "", "", "", "", fmt.Errorf("want <principal> <key-type> <base64 key>, got %d field(s): %.80q", len(fields), line)
	}
	for i := 1; i+1 < len(fields); i++ {
		if strings.HasPrefix(fields[i], "ssh-") || strings.HasPrefix(fields[i], "ecdsa-") || strings.HasPrefix(fields[i], "sk-") {
			if i > 2 {
				return "", "", "", "", fmt.Errorf("the options are one field, comma-separated with no space outside quotes; got %d fields before the key type: %.80q", i-1, line)
			}
			if i == 2 {
				opts = fields[1]
			}
			return fields[0], opts, fields[i], fields[i+1], nil
		}
	}
	return "", "", "", "", fmt.Errorf("no key type (ssh-ed25519, …) followed by a key: %.80q", line)
}

// quotedFields splits on spaces and tabs outside double quotes, as
// OpenSSH's sshkey_advance_past_options passes over options (\" inside
// quotes is a quote); false when a quote is left open.
func quotedFields(line string) ([]string, bool) {
	var out []string
	var cur strings.Builder
	quoted := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\\' && i+1 < len(line) && line[i+1] == '"':
			cur.WriteString(`\"`)
			i++
		case c == '"':
			quoted = !quoted
			cur.WriteByte(c)
		case (c == ' ' || c == '\t') && !quoted:
			if cur.Len() > 0 {
				out = append(out, cur.String())
				cur.Reset()
			}
		default:
			cur.WriteByte(c)
		}
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out, !quoted
}

// SignerLine is the allowed-signers line for key under principal: what
// `tribunal-session receipt --public-key` prints.
func SignerLine(principal string, key ed25519.PublicKey) string {
	return oneWord(principal) + " " + ledger.SSHPublicKey(key)
}
