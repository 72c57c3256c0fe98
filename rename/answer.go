package rename

import "github.com/tent-tools/tent-tools/change"

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
