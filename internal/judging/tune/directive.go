package tune

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/rubric"
)

// applyDirective makes one of the directive edits on the rubric object.
// The new text is checked here with the rubric's own rule, so that a
// proposal's bad directive is dropped naming the edit; the list's bounds
// (count, repeats) are the rubric's check of the whole candidate.
func applyDirective(obj map[string]any, e Edit) error {
	list, _ := obj["directives"].([]any)
	find := func() (int, error) {
		if i := slices.Index(list, any(e.Directive)); i >= 0 && e.Directive != "" {
			return i, nil
		}
		return -1, fmt.Errorf("no directive reads %q", e.Directive)
	}
	text := func() error {
		if why := rubric.DirectiveProblem(e.Text); why != "" {
			return fmt.Errorf("the directive's text %s", why)
		}
		return nil
	}
	switch e.Op {
	case "add_directive":
		if err := text(); err != nil {
			return err
		}
		obj["directives"] = append(list, e.Text)
	case "reword_directive":
		i, err := find()
		if err != nil {
			return err
		}
		if err := text(); err != nil {
			return err
		}
		list[i] = e.Text
	case "remove_directive":
		i, err := find()
		if err != nil {
			return err
		}
		list = slices.Delete(list, i, i+1)
		if len(list) == 0 {
			// No empty list left behind: the rubric reads as one that
			// never had directives.
			delete(obj, "directives")
			return nil
		}
		obj["directives"] = list
	default:
		return fmt.Errorf("unknown op %q (one of %s)", e.Op, strings.Join(Ops, ", "))
	}
	return nil
}

// Directives lists the surface's directives, for the proposer's prompt
// and the report.
func (s Surface) Directives() []string {
	var r struct {
		Directives []string `json:"directives"`
	}
	_ = json.Unmarshal(s.Raw, &r)
	return r.Directives
}
