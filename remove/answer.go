package remove

import (
	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/diag"
)

// Answer is remove's answer as data (docs/pages/remove.md): what was removed (a
// name or a path), where the removal was stated, the files deleted, and
// the places left that still name it. Point is the point the apply
// recorded; nil (JSON null) until points exist.
type Answer struct {
	Removed string        `json:"removed"`
	Stated  []change.Line `json:"stated"`
	Deleted []string      `json:"deleted"`
	Left    []change.Site `json:"left"`
	Point   *int          `json:"point"`
	// More, in an agent's bounded answer, says what Stated and Left left
	// out beyond their budgets and how to ask for it.
	More []diag.More `json:"more,omitempty"`
}

// NewAnswer makes the answer of a planned removal.
func NewAnswer(s *change.Set) (*Answer, error) {
	st, err := s.Stated()
	if err != nil {
		return nil, err
	}
	a := &Answer{Removed: s.Target, Stated: st, Deleted: s.Deletes, Left: s.Left}
	if a.Stated == nil {
		a.Stated = []change.Line{}
	}
	if a.Deleted == nil {
		a.Deleted = []string{}
	}
	if a.Left == nil {
		a.Left = []change.Site{}
	}
	return a, nil
}
