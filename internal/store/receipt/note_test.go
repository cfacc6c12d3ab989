package receipt

import (
	"crypto/ed25519"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/store/ledger"
)

func mustSign(t *testing.T, r Receipt, seed byte) Receipt {
	t.Helper()
	s, err := Sign(r, testKey(seed), t0)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Two signers' receipts coexist; a signer's new receipt replaces its
// old one; other signers' lines are kept byte for byte, even bad ones;
// lines that are no receipt are dropped with a warning.
func TestMerge(t *testing.T) {
	alice := mustSign(t, sample(), 1)
	bob := mustSign(t, sample(), 2)
	note, warns, err := Merge(nil, alice)
	if err != nil || len(warns) != 0 {
		t.Fatal(err, warns)
	}
	note, _, _ = Merge(note, bob)
	if got := countReceipts(note); got != 2 {
		t.Fatalf("two signers: %d receipts in\n%s", got, note)
	}
	lines := strings.Split(strings.TrimSuffix(string(note), "\n"), "\n")
	if !strings.HasPrefix(lines[0], "tribunal: ") || !strings.HasPrefix(lines[1], "tribunal: ") || lines[2][0] != '{' {
		t.Errorf("layout: summaries first, then receipts:\n%s", note)
	}
	later := sample()
	later.Outcome = "accepted-again"
	note2, _, _ := Merge(note, mustSign(t, later, 1))
	if countReceipts(note2) != 2 || !strings.Contains(string(note2), "accepted-again") {
		t.Errorf("alice's second receipt should replace her first:\n%s", note2)
	}
	tampered := strings.Replace(string(note), `"score":0.86`, `"score":0.96`, 1)
	withJunk := tampered + "hello, I edited this note\n"
	note3, warns, _ := Merge([]byte(withJunk), mustSign(t, sample(), 3))
	if countReceipts(note3) != 3 || len(warns) != 1 || !strings.Contains(warns[0], "dropped note line") {
		t.Errorf("kept %d receipts, warnings %q:\n%s", countReceipts(note3), warns, note3)
	}
	if !strings.Contains(string(note3), `"score":0.96`) {
		t.Error("another signer's bad line must be kept for verify to report")
	}
}

func countReceipts(note []byte) int { return len(ParseNote(note)) }

// What git does to notes: rewriteMode concatenate joins two notes with a
// blank line; cat_sort_uniq sorts all lines. Both stay readable.
func TestParseNoteAfterGit(t *testing.T) {
	a, _, _ := Merge(nil, mustSign(t, sample(), 1))
	b, _, _ := Merge(nil, mustSign(t, sample(), 2))
	concatenated := string(a) + "\n" + string(b)
	for _, e := range ParseNote([]byte(concatenated)) {
		if e.Err != nil {
			t.Errorf("concatenated: %v", e.Err)
		}
	}
	merged, _, _ := Merge(a, mustSign(t, sample(), 2))
	all := strings.Split(strings.TrimSpace(concatenated), "\n")
	var kept []string
	for _, l := range all {
		if l != "" {
			kept = append(kept, l)
		}
	}
	if got := sortedUniq(kept); got != string(merged) {
		t.Errorf("cat_sort_uniq of the two notes differs from Merge:\n%s\nvs\n%s", got, merged)
	}
}

func sortedUniq(lines []string) string {
	seen := map[string]bool{}
	var out []string
	for _, l := range lines {
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	// byte order, as git's cat_sort_uniq (string_list_sort) sorts
	sort.Strings(out)
	return strings.Join(out, "\n") + "\n"
}

func TestCheck(t *testing.T) {
	alice := mustSign(t, sample(), 1)
	signers := allow(t, "alice@example.com", testKey(1))
	commit := Commit{ID: alice.Commit, Tree: alice.Tree}
	note := func(rs ...Receipt) []byte {
		var n []byte
		for _, r := range rs {
			n, _, _ = Merge(n, r)
		}
		return n
	}
	failed := sample()
	failed.Passed, failed.Outcome = false, "rejected"
	for _, tc := range []struct {
		name   string
		commit Commit
		note   []byte
		want   Status
	}{
		{"valid", commit, note(alice), Valid},
		{"no note", commit, nil, Missing},
		{"only a summary", commit, []byte("tribunal: accepted\n"), BadSignature},
		{"empty note", commit, []byte("\n"), Missing},
		{"another tree", Commit{ID: commit.ID, Tree: strings.Repeat("9", 40)}, note(alice), TreeMismatch},
		{"unknown signer", commit, note(mustSign(t, sample(), 2)), NotAllowed},
		{"rejected", commit, note(mustSign(t, failed, 1)), NotPassed},
		{"edited", commit, []byte(strings.Replace(string(note(alice)), `"score":0.86`, `"score":0.96`, 1)), BadSignature},
		{"summary edited", commit, []byte(strings.Replace(string(note(alice)), "accepted 0.86", "accepted 0.96", 1)), BadSignature},
		{"summary removed", commit, []byte(strings.SplitN(string(note(alice)), "\n", 2)[1]), Valid},
		{"valid beside a stranger's", commit, note(alice, mustSign(t, sample(), 2)), Valid},
		{"valid beside junk: the note was edited", commit, append(note(alice), "junk\n"...), BadSignature},
		{"stranger and junk: worst", commit, append(note(mustSign(t, sample(), 2)), "junk\n"...), BadSignature},
	} {
		if got := Check(tc.commit, tc.note, signers, anyBase); got.Status != tc.want {
			t.Errorf("%s: %s, want %s (%+v)", tc.name, got.Status, tc.want, got.Findings)
		}
	}
}

func allow(t testing.TB, principal string, keys ...ed25519.PrivateKey) Signers {
	t.Helper()
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(SignerLine(principal, k.Public().(ed25519.PublicKey)) + "\n")
	}
	s, _, err := ParseSigners("allowed_signers", []byte(b.String()), time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	return s.At(time.Now())
}

func TestParseSigners(t *testing.T) {
	key := ledger.SSHPublicKey(testKey(1).Public().(ed25519.PublicKey))
	for _, tc := range []struct {
		name, file string
		n          int
		warn, err  string
	}{
		{"one", "a@x " + key + "\n", 1, "", ""},
		{"comment and blank", "# who\n\na@x " + key + " laptop\n", 1, "", ""},
		{"git options", `a@x,b@x namespaces="git,file",valid-after="20260101" ` + key + "\n", 1, "", ""},
		{"quoted option with a space", `a@x namespaces="a b" ` + key + "\n", 1, "", ""},
		{"options in two fields", `a@x namespaces="git" valid-after="20260101" ` + key + "\n", 0, "", "f:1: the options are one field"},
		{"rsa skipped", "a@x ssh-rsa AAAAB3NzaC1yc2E\na@x " + key + "\n", 1, "f:1: key type ssh-rsa skipped", ""},
		{"too few fields", "a@x " + key + "\nbroken ssh-ed25519\n", 0, "", "f:2: want <principal> <key-type> <base64 key>, got 2 field(s)"},
		{"no key type", "a@x b@x AAAA\n", 0, "", "f:1: no key type"},
		{"bad base64", "a@x ssh-ed25519 !!!!\n", 0, "", "f:1: the key is not valid base64"},
		{"short key", "a@x ssh-ed25519 AAAAC3NzaC1lZDI1NTE5\n", 0, "", "f:1: the key is 15 bytes"},
	} {
		s, warns, err := ParseSigners("f", []byte(tc.file), time.UTC)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
			}
		case err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case s.Len() != tc.n:
			t.Errorf("%s: %d keys, want %d", tc.name, s.Len(), tc.n)
		case tc.warn != "" && (len(warns) != 1 || !strings.Contains(warns[0], tc.warn)):
			t.Errorf("%s: warnings %q, want %q", tc.name, warns, tc.warn)
		}
	}
}

// anyBase lets every judged base vouch: for tests of the other checks.
func anyBase(Receipt) string { return "" }
