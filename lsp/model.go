package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/jsonrpc2"

	"github.com/tent-tools/tent-tools/model"
)

// This file is the visual editor's protocol (docs/pages/lsp.md, "A visual
// editor"): tent/model answers the app as data, tent/apply edits it by
// operations. Both are thin: the snapshot, the feature (package model,
// the change tool's operations), the answer in the protocol's words.

// tentModel answers the model of the buffers' snapshot, with the
// workspace's version and the findings the diagnostics show. The JSON of
// an unchanged snapshot is kept (model.Cache): a warm request costs a
// comparison.
func (s *server) tentModel(ctx context.Context, req jsonrpc2.Request) (any, error) {
	var p struct{}
	if raw := req.Params(); len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, paramsError(req.Method(), err)
		}
	}
	ix, err := s.index(ctx)
	if err != nil {
		return nil, err
	}
	ws, enc := s.workspace()
	version, err := ws.Version(ctx)
	if err != nil {
		return nil, err
	}
	opts := model.Options{Version: version, Findings: model.CountFindings(s.findings(ctx, ix))}
	if enc == encUTF8 {
		opts.Encoding = model.UTF8
	}
	data, err := s.models.JSON(ix, opts)
	if err != nil {
		return nil, err
	}
	return json.RawMessage(data), nil
}
