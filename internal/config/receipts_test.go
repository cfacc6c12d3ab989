package config

import "testing"

// The receipts' notes ref is the user's to choose: a repository's
// settings cannot redirect where receipts are written or looked for.
func TestReceiptsRefOnlyFromTheUser(t *testing.T) {
	for _, layer := range []int{4, 5} {
		e := newEnv(t)
		e.tribunal(layer, `{"receipts":{"notes_ref":"refs/notes/planted"}}`)
		if got := e.load().ReceiptsRef(); got != "" {
			t.Errorf("layer %d: ReceiptsRef = %q, want the default", layer, got)
		}
		if !e.hasWarning("repository settings may not choose where receipts are written", "tribunal.receipts.notes_ref") {
			t.Errorf("layer %d: no warning, got %q", layer, e.warnings)
		}
	}
	e := newEnv(t)
	e.tribunal(2, `{"receipts":{"notes_ref":" refs/notes/team "}}`)
	if got := e.load().ReceiptsRef(); got != "refs/notes/team" {
		t.Errorf("user settings: ReceiptsRef = %q", got)
	}
	if got := newEnv(t).load().ReceiptsRef(); got != "" {
		t.Errorf("unset: ReceiptsRef = %q", got)
	}
}
