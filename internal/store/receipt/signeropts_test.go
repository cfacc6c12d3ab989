package receipt

import (
	"crypto/ed25519"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/store/ledger"
)

// optionCase is one allowed-signers line's options and what they make of
// a receipt verified at a time: refused outright (err), or allowed or not.
type optionCase struct {
	name, opts string
	at         string // RFC 3339 verify time
	err        string // a parse error containing this
	allowed    bool
}

// optionCases follow ssh-keygen(1) ALLOWED SIGNERS and OpenSSH's
// sshsigopt_parse / check_allowed_keys_line (issue 30 item 5: the options
// were accepted and silently ignored).
var optionCases = []optionCase{
	{name: "none", at: "2026-06-01T00:00:00Z", allowed: true},
	{name: "our namespace", opts: `namespaces="tribunal-receipt"`, at: "2026-06-01T00:00:00Z", allowed: true},
	{name: "git only", opts: `namespaces="git"`, at: "2026-06-01T00:00:00Z"},
	{name: "quoted comma list", opts: `namespaces="git,tribunal-receipt"`, at: "2026-06-01T00:00:00Z", allowed: true},
	{name: "wildcard", opts: `namespaces="tribunal-*"`, at: "2026-06-01T00:00:00Z", allowed: true},
	{name: "single-character wildcard", opts: `namespaces="tribunal-?eceipt"`, at: "2026-06-01T00:00:00Z", allowed: true},
	{name: "negated", opts: `namespaces="*,!tribunal-receipt"`, at: "2026-06-01T00:00:00Z"},
	{name: "negation of another", opts: `namespaces="*,!git"`, at: "2026-06-01T00:00:00Z", allowed: true},
	{name: "patterns are case-sensitive", opts: `namespaces="TRIBUNAL-RECEIPT"`, at: "2026-06-01T00:00:00Z"},
	{name: "empty namespaces", opts: `namespaces=""`, at: "2026-06-01T00:00:00Z"},
	{name: "option names are case-insensitive", opts: `NameSpaces="git"`, at: "2026-06-01T00:00:00Z"},
	{name: "valid-after passed", opts: `valid-after="20260101Z"`, at: "2026-06-01T00:00:00Z", allowed: true},
	{name: "valid-after to come", opts: `Valid-After="20260101Z"`, at: "2025-12-31T23:59:59Z"},
	{name: "valid-before passed", opts: `valid-before="20260101Z"`, at: "2026-06-01T00:00:00Z"},
	{name: "valid-before is inclusive", opts: `valid-before="20260101120000Z"`, at: "2026-01-01T12:00:00Z", allowed: true},
	{name: "one second after valid-before", opts: `valid-before="20260101120000Z"`, at: "2026-01-01T12:00:01Z"},
	{name: "valid-after is inclusive", opts: `valid-after="202601011200Z"`, at: "2026-01-01T12:00:00Z", allowed: true},
	{name: "UTC suffix", opts: `valid-after="20260101utc"`, at: "2025-12-31T23:00:00Z"},
	{name: "window and namespace", opts: `namespaces="git,tribunal-*",valid-after="20250101Z",valid-before="20270101Z"`, at: "2026-06-01T00:00:00Z", allowed: true},
	{name: "window and another namespace", opts: `valid-after="20250101Z",namespaces="file,git",valid-before="20270101Z"`, at: "2026-06-01T00:00:00Z"},
	{name: "escaped quote", opts: `namespaces="a\"b,tribunal-receipt"`, at: "2026-06-01T00:00:00Z", allowed: true},
	{name: "quoted space", opts: `namespaces="a b,tribunal-receipt"`, at: "2026-06-01T00:00:00Z", allowed: true},

	{name: "cert-authority", opts: `cert-authority`, err: "cert-authority: tribunal verifies receipts signed by plain keys"},
	{name: "cert-authority any case, among others", opts: `namespaces="git",CERT-AUTHORITY`, err: "cert-authority"},
	{name: "unknown flag", opts: `no-touch-required`, err: `unknown allowed-signers option "no-touch-required"`},
	{name: "unknown option", opts: `verify-required="yes"`, err: `unknown allowed-signers option "verify-required"`},
	{name: "unquoted value", opts: `valid-after=20260101`, err: "missing start quote"},
	{name: "no end quote", opts: `namespaces="git`, err: "missing end quote"},
	{name: "junk after the quote", opts: `namespaces="git"x`, err: "want a comma after its quoted value"},
	{name: "two namespaces", opts: `namespaces="git",namespaces="file"`, err: `multiple "namespaces" clauses`},
	{name: "two valid-before", opts: `valid-before="20260101Z",Valid-Before="20270101Z"`, err: `multiple "valid-before" clauses`},
	{name: "empty window", opts: `valid-after="20270101Z",valid-before="20260101Z"`, err: `"valid-before" time is before "valid-after"`},
	{name: "bad time", opts: `valid-after="2026-01-01"`, err: "want YYYYMMDD[Z]"},
	{name: "bad date", opts: `valid-after="20261301Z"`, err: `invalid "valid-after" time`},
}

func TestSignerOptions(t *testing.T) {
	key := ledger.SSHPublicKey(testKey(1).Public().(ed25519.PublicKey))
	pub := ledger.PublicKeyString(testKey(1).Public().(ed25519.PublicKey))
	for _, tc := range optionCases {
		t.Run(tc.name, func(t *testing.T) {
			s, _, err := ParseSigners("f", []byte("p@x "+tc.opts+" "+key+"\n"), time.UTC)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.HasPrefix(err.Error(), "f:1: ") {
					t.Fatalf("err = %v, want f:1: …%q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			at, _ := time.Parse(time.RFC3339, tc.at)
			p, why, ok := s.At(at).Allowed(pub)
			if ok != tc.allowed || (ok && p != "p@x") || (!ok && !strings.HasPrefix(why, "f:1 (p@x): ")) {
				t.Errorf("allowed = %v %q (%s), want %v", ok, p, why, tc.allowed)
			}
		})
	}
}

// TestSignerOptionsLocalTime: a time without Z is in the verifier's zone,
// as ssh-keygen reads it.
func TestSignerOptionsLocalTime(t *testing.T) {
	key := testKey(1).Public().(ed25519.PublicKey)
	zone := time.FixedZone("UTC+2", 2*3600)
	s, _, err := ParseSigners("f", []byte(`p valid-after="202601011200" `+ledger.SSHPublicKey(key)+"\n"), zone)
	if err != nil {
		t.Fatal(err)
	}
	for at, want := range map[string]bool{"2026-01-01T09:59:59Z": false, "2026-01-01T10:00:00Z": true} {
		tm, _ := time.Parse(time.RFC3339, at)
		if _, _, ok := s.At(tm).Allowed(ledger.PublicKeyString(key)); ok != want {
			t.Errorf("at %s: allowed %v, want %v", at, ok, want)
		}
	}
}

// TestSignerLinesInOrder: as ssh-keygen does, the first line of a key that
// allows the receipt decides; lines that do not say why.
func TestSignerLinesInOrder(t *testing.T) {
	key := testKey(1).Public().(ed25519.PublicKey)
	line := ledger.SSHPublicKey(key)
	file := "git-only namespaces=\"git\" " + line + "\nold valid-before=\"20250101Z\" " + line + "\nnow " + line + "\n"
	s, _, err := ParseSigners("f", []byte(file), time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	if p, _, ok := s.At(now).Allowed(ledger.PublicKeyString(key)); !ok || p != "now" {
		t.Errorf("principal %q, %v; want the third line's", p, ok)
	}
	s, _, _ = ParseSigners("f", []byte(file[:strings.LastIndex(file, "now ")]), time.UTC)
	_, why, ok := s.At(now).Allowed(ledger.PublicKeyString(key))
	if ok || !strings.Contains(why, `f:1 (git-only): its namespaces="git" does not allow "tribunal-receipt"`) || !strings.Contains(why, "f:2 (old): the key has expired") {
		t.Errorf("allowed %v: %s", ok, why)
	}
}

// TestSignerOptionsAgreeWithSSHKeygen checks every case tribunal accepts
// against `ssh-keygen -Y verify` on the same line, with -Overify-time at
// the case's time and a signature in tribunal's namespace: the same
// verdict. Lines tribunal refuses are refused outright (exit 2), which
// is stricter than ssh-keygen's skipping them, so they are not compared.
func TestSignerOptionsAgreeWithSSHKeygen(t *testing.T) {
	sshKeygen, err := exec.LookPath("ssh-keygen")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("ssh-keygen is not installed, and CI must run this test")
		}
		t.Skip("ssh-keygen is not installed")
	}
	dir := t.TempDir()
	keyFile, data := filepath.Join(dir, "key"), filepath.Join(dir, "data")
	var said []byte
	run := func(stdin string, args ...string) error {
		cmd := exec.Command(sshKeygen, args...)
		cmd.Env = append(os.Environ(), "TZ=UTC")
		cmd.Stdin = strings.NewReader(stdin)
		var err error
		said, err = cmd.CombinedOutput()
		return err
	}
	if err := run("", "-q", "-t", "ed25519", "-N", "", "-f", keyFile); err != nil {
		t.Fatalf("%v: %s", err, said)
	}
	os.WriteFile(data, []byte("a receipt\n"), 0o600)
	if err := run("", "-Y", "sign", "-f", keyFile, "-n", Namespace, data); err != nil {
		t.Fatalf("%v: %s", err, said)
	}
	pubLine, _ := os.ReadFile(keyFile + ".pub")
	f := strings.Fields(string(pubLine))
	k, err := ledger.ParseSSHPublicKey(f[0], f[1])
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range optionCases {
		if tc.err != "" {
			continue
		}
		line := "p " + tc.opts + " " + f[0] + " " + f[1] + "\n"
		s, _, err := ParseSigners("f", []byte(line), time.UTC)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		at, _ := time.Parse(time.RFC3339, tc.at)
		_, _, ours := s.At(at).Allowed(ledger.PublicKeyString(k))
		signers := filepath.Join(dir, "allowed_signers")
		os.WriteFile(signers, []byte(line), 0o600)
		theirs := run("a receipt\n", "-Y", "verify", "-f", signers, "-I", "p", "-n", Namespace, "-s", data+".sig",
			"-Overify-time="+at.UTC().Format("20060102150405")+"Z") == nil
		if ours != theirs {
			t.Errorf("%s: tribunal allows %v, ssh-keygen %v (line %q): %s", tc.name, ours, theirs, line, said)
		}
	}
}
