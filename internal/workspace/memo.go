package workspace

import (
	"sync"

	"github.com/tent-tools/tent-tools/definitions"
)

// memo keeps what tools computed from one snapshot alone (the map's
// outline, folded to a budget), for the newest snapshot they were asked
// about: a long-lived face's call on a project that did not change costs
// a lookup, not the outline of every file again. A new snapshot drops
// them all; so does a memo grown past maxMemo answers.
type memo struct {
	mu      sync.Mutex
	ix      *definitions.Index
	answers map[string]any
}

// maxMemo bounds the answers kept for one snapshot (each a map's folded
// text and data, a few KB at the default budget).
const maxMemo = 32

// Memo answers what compute makes of the snapshot ix for key, computed
// once per snapshot: the answer kept where ix is the snapshot the last
// call asked about and key was computed on it, else compute's, kept. A
// key names everything the answer depends on besides ix (the tool and
// its input). compute runs without the memo's lock (two calls may both
// compute); its answer must not be changed by whoever receives it.
func (w *Workspace) Memo(ix *definitions.Index, key string, compute func() any) any {
	m := &w.memos
	m.mu.Lock()
	if m.ix == ix {
		if v, ok := m.answers[key]; ok {
			m.mu.Unlock()
			return v
		}
	}
	m.mu.Unlock()
	v := compute()
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.ix != ix {
		m.ix, m.answers = ix, map[string]any{}
	}
	if len(m.answers) >= maxMemo {
		clear(m.answers)
	}
	m.answers[key] = v
	return v
}
