package workspace

import "context"

// NewTurn starts a turn of an agent on the workspace and returns its
// number; a view With that Turn records its points in it. The workspaces
// handle calls it for Turn.
func (w *Workspace) NewTurn(ctx context.Context, caller, agent string) (int, error) {
	hs, err := w.HistoryStore(ctx)
	if err != nil {
		return 0, err
	}
	return hs.NewTurn(ctx, caller, agent, w.Now())
}
