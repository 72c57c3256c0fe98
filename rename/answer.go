package rename

import (
	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/diag"
)

// Answer is rename's answer as data (docs/pages/rename.md). Point is the point the
// apply recorded; nil (JSON null) until points exist or where nothing was
// applied.
type Answer struct {
	Name    string        `json:"name"`
	To      string        `json:"to"`
	Was     []string      `json:"was"`
	Changed []change.Line `json:"changed"`
	Left    []change.Site `json:"left"`
	Point   *int          `json:"point"`
	// More, in an agent's bounded answer, says what Changed and Left
	// left out beyond their budgets and how to ask for it.
	More []diag.More `json:"more,omitempty"`
}

// NewAnswer makes the answer of a planned rename.
func NewAnswer(s *change.Set) (*Answer, error) {
	changed, err := s.Changed()
	if err != nil {
		return nil, err
	}
	a := &Answer{Name: s.Target, To: s.To, Was: s.Was, Changed: changed, Left: s.Left}
	if a.Was == nil {
		a.Was = []string{}
	}
	if a.Changed == nil {
		a.Changed = []change.Line{}
	}
	if a.Left == nil {
		a.Left = []change.Site{}
	}
	return a, nil
}
