package secretfiles

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// TestBuiltinPatterns pins the documented built-in list (docs/security.md
// §2.3): what it leaves out, and the look-alikes it keeps.
func TestBuiltinPatterns(t *testing.T) {
	for _, c := range []struct {
		path string
		out  bool
	}{
		{".env", true},
		{"app/.env", true},
		{".env.local", true},
		{".env.production", true},
		{"prod.env", true},
		{".envrc", true},
		{".env.example", false},
		{"web/.env.sample", false},
		{".env.template", false},
		{".env.dist", false},
		{"example.env", false},
		{"environment.go", false},
		{"env/config.go", false},
		{"id_rsa", true},
		{"secrets/id_ed25519", true},
		{"deploy/id_ecdsa", true},
		{"id_dsa", true},
		{"id_ed25519_sk", true},
		{"id_ed25519.pub", false},
		{"id_rsa.pub", false},
		{"tls/server.pem", true},
		{"server.key", true},
		{"cert.p12", true},
		{"cert.pfx", true},
		{"AuthKey_ABC.p8", true},
		{"putty.ppk", true},
		{"android/release.jks", true},
		{"release.keystore", true},
		{"vault.kdbx", true},
		{".npmrc", true},
		{"pkg/.pypirc", true},
		{".netrc", true},
		{"_netrc", true},
		{".git-credentials", true},
		{".pgpass", true},
		{".htpasswd", true},
		{".aws/credentials", true},
		{"credentials", true},
		{"credentials.json", true},
		{"credentials-prod.json", true},
		{"gcp-credentials.json", true},
		{"client_secret_123.apps.googleusercontent.com.json", true},
		{"service-account.json", true},
		{"config/secrets.yml", true},
		{"secrets.json", true},
		{"home/.docker/config.json", true},
		{".docker/config.json", true},
		{"docker/config.json", false},
		{"infra/terraform.tfstate", true},
		{"terraform.tfstate.backup", true},
		{".ssh/known_hosts", true},
		{"home/.ssh/config", true},
		{".gnupg/pubring.kbx", true},
		{"internal/credentials/provider.go", false},
		{"internal/secrets/redact.go", false},
		{"keys.go", false},
		{"main.go", false},
		{"README.md", false},
		{"key", false},
		{"monkey.keynote/x", false},
		{"sub/", false},
		{".ssh/", true},
	} {
		if got := (Rule{}).MatchName(c.path); got != c.out {
			t.Errorf("MatchName(%q) = %v, want %v", c.path, got, c.out)
		}
	}
}

// TestUserPatterns: the settings' patterns add to the built-in list, in
// each of the three forms, and a template the built-in list keeps is left
// out when a pattern names it.
func TestUserPatterns(t *testing.T) {
	r, warnings := New([]string{"*.secret", "private/", "config/prod.json", "deploy/**/token", "/top.txt", ".env.example"})
	if len(warnings) != 0 {
		t.Fatalf("warnings: %v", warnings)
	}
	for _, c := range []struct {
		path string
		out  bool
	}{
		{"a/b/db.secret", true},
		{"private/notes.txt", true},
		{"x/private/y/z", true},
		{"private", false},
		{"config/prod.json", true},
		{"sub/config/prod.json", false},
		{"deploy/token", true},
		{"deploy/a/b/token", true},
		{"deploy/a/b/token2", false},
		{"top.txt", true},
		{"sub/top.txt", false},
		{".env.example", true},
		{".env.sample", false},
		{".env", true},
		{"main.go", false},
	} {
		if got := r.MatchName(c.path); got != c.out {
			t.Errorf("MatchName(%q) = %v, want %v", c.path, got, c.out)
		}
	}
}

func TestBadPatterns(t *testing.T) {
	for _, p := range []string{"", " ", "/", "!.env", "a//b", "../x", "[", "a/**/**/**/**/**/b"} {
		r, warnings := New([]string{p})
		if len(warnings) != 1 || len(r.extra) != 0 {
			t.Errorf("New(%q): warnings %v, %d patterns kept; want one warning, none kept", p, warnings, len(r.extra))
		}
		if Parse(p) == nil {
			t.Errorf("Parse(%q) = nil, want an error", p)
		}
	}
	for _, s := range Builtin {
		if err := Parse(s); err != nil {
			t.Errorf("built-in %q: %v", s, err)
		}
	}
}

func TestLooksLikePrivateKey(t *testing.T) {
	for _, c := range []struct {
		name string
		head string
		want bool
	}{
		{"openssh", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n", true},
		{"rsa", "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n", true},
		{"pkcs8", "-----BEGIN PRIVATE KEY-----\nMIIE\n", true},
		{"encrypted", "-----BEGIN ENCRYPTED PRIVATE KEY-----\n", true},
		{"ec after params", "-----BEGIN EC PARAMETERS-----\nBggq\n-----END EC PARAMETERS-----\n-----BEGIN EC PRIVATE KEY-----\n", true},
		{"inside json", `{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\nMIIE"}`, true},
		{"pgp", "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQdG\n", true},
		{"putty", "PuTTY-User-Key-File-3: ssh-ed25519\n", true},
		{"certificate", "-----BEGIN CERTIFICATE-----\nMIID\n-----END CERTIFICATE-----\n", false},
		{"public key", "-----BEGIN PUBLIC KEY-----\nMIIB\n", false},
		{"pgp public", "-----BEGIN PGP PUBLIC KEY BLOCK-----\n", false},
		{"label across lines", "-----BEGIN CERT\nPRIVATE KEY-----\n", false},
		{"unterminated", "-----BEGIN PRIVATE KEY", false},
		{"prose", "this code parses a PRIVATE KEY block\n", false},
		{"empty", "", false},
	} {
		if got := LooksLikePrivateKey([]byte(c.head)); got != c.want {
			t.Errorf("%s: LooksLikePrivateKey = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestSplit reads the heads of files the names do not catch and keeps
// the order of both lists.
func TestSplit(t *testing.T) {
	root := t.TempDir()
	testkit.WriteFile(t, filepath.Join(root, "a.go"), "package a\n")
	testkit.WriteFile(t, filepath.Join(root, "deploy/key-material"), "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n")
	testkit.WriteFile(t, filepath.Join(root, "big.txt"), strings.Repeat("x", SniffBytes)+"-----BEGIN PRIVATE KEY-----\n")
	testkit.WriteFile(t, filepath.Join(root, ".env"), "TOKEN=1\n")
	paths := []string{".env", "a.go", "big.txt", "deploy/key-material", "nested/"}
	keep, out := Rule{}.Split(paths, func(rel string) []byte { return Head(filepath.Join(root, rel)) })
	if want := []string{"a.go", "big.txt", "nested/"}; !slices.Equal(keep, want) {
		t.Errorf("keep = %q, want %q", keep, want)
	}
	if want := []string{".env", "deploy/key-material"}; !slices.Equal(out, want) {
		t.Errorf("left out = %q, want %q", out, want)
	}
}

func TestDescribe(t *testing.T) {
	if got := Describe(nil); got != "" {
		t.Errorf("Describe(nil) = %q", got)
	}
	if got, want := Describe([]string{".env"}), "left out 1 untracked file that looks like a secret: .env"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := Describe([]string{".env", "secrets/id_ed25519"}), "left out 2 untracked files that look like secrets: .env, secrets/id_ed25519"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	var many []string
	for i := 0; i < 12; i++ {
		many = append(many, "k"+string(rune('a'+i))+".pem")
	}
	many[0] = "evil\nname.pem"
	got := Describe(many)
	if !strings.HasSuffix(got, ", and 2 more") || strings.Contains(got, "\n") || !strings.Contains(got, "evil name.pem") {
		t.Errorf("Describe(12 names) = %q", got)
	}
}
