package tools

import "context"

// CallPoint answers the point that the call of the id (Options.Call) made,
// as the history records it: 0 where it made none (it changed nothing, or
// never ran). It asks once the workspace is settled under the write lock,
// as a write would be, so that a change the call's process left cut short
// is finished first and no write runs beside the question: a face whose
// link to this engine dropped before a write's answer (package remote)
// answers the point or "not done" from it, never a guess.
func (w *Workspace) CallPoint(ctx context.Context, id string) (int, error) {
	view, release, err := w.state.Enter(ctx, "remote", true)
	if err != nil {
		return 0, err
	}
	defer release()
	hs, err := view.HistoryStore(ctx)
	if err != nil {
		return 0, err
	}
	n, _, err := hs.CallPoint(ctx, id)
	return n, err
}
