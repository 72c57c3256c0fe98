package lsp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync"

	"go.lsp.dev/jsonrpc2"

	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/model"
	"github.com/tent-tools/tent-tools/tools"
)

// This file is the visual editor's protocol (docs/pages/lsp.md, "A visual
// editor"): tent/model answers the app as data, tent/apply edits it by
// operations. Both are thin: the snapshot, the feature (package model,
// the change tool's operations), the answer in the protocol's words.

// tentModel answers the model of the buffers' snapshot, with the
// workspace's version and the findings the diagnostics show. The JSON of
// an unchanged snapshot is kept (model.Cache) with its tag, so a warm
// request costs a comparison and no encoding (encodedResult); a client
// that names the tag of the model it holds (since) is answered that it
// is unchanged, a few bytes, where the whole answer is megabytes.
func (s *server) tentModel(ctx context.Context, req jsonrpc2.Request) (any, error) {
	var p struct {
		Since string `json:"since"`
	}
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
	ans := s.answer.of(data)
	if p.Since != "" && p.Since == ans.tag {
		return encodedResult{ans.unchanged(version)}, nil
	}
	return encodedResult{ans.head, ans.body}, nil
}

// modelAnswer is the last tent/model answered: the model's JSON as
// model.Cache keeps it, its tag (a digest of those bytes: equal tags,
// equal models), and the answer in two parts, the model's JSON object
// opened with its tag, and the rest of the model's JSON (not a copy).
type modelAnswer struct {
	src  []byte
	tag  string
	head []byte
	body []byte
}

// unchanged is the answer to a client that holds the model already.
func (a *modelAnswer) unchanged(version int) []byte {
	return fmt.Appendf(nil, `{"version":%d,"tag":%q,"unchanged":true}`, version, a.tag)
}

// modelAnswers keeps the last modelAnswer of a session.
type modelAnswers struct {
	mu   sync.Mutex
	last *modelAnswer
}

// of answers the model data with its tag, made again only where data is
// not the bytes of the last call (model.Cache hands out the same bytes
// for the same snapshot).
func (m *modelAnswers) of(data []byte) *modelAnswer {
	m.mu.Lock()
	defer m.mu.Unlock()
	if a := m.last; a != nil && len(a.src) == len(data) && (len(data) == 0 || &a.src[0] == &data[0]) {
		return a
	}
	sum := sha256.Sum256(data)
	a := &modelAnswer{src: data, tag: hex.EncodeToString(sum[:16])}
	// The model is a JSON object: the tag goes first in it.
	a.head = fmt.Appendf(nil, `{"tag":%q,`, a.tag)
	a.body = bytes.TrimPrefix(data, []byte("{"))
	if string(a.body) == "}" {
		a.head = a.head[:len(a.head)-1] // an empty object: no comma
	}
	m.last = a
	return a
}

// tentApplyResult is the answer of tent/apply: the change tool's, with
// the edit the client applies (its own writes, in client mode, or its
// open buffers brought to the new disk text, in server mode).
type tentApplyResult struct {
	Version int            `json:"version"`
	Point   *int           `json:"point"`
	Changed []change.Line  `json:"changed"`
	Left    []change.Site  `json:"left"`
	Edit    *workspaceEdit `json:"edit,omitempty"`
}

// tentApply applies the operations of the change tool. Where the server
// writes, it is the tool's call (one point) and the edit brings the open
// buffers along; where the client writes, the operations are planned on
// the buffers and judged (the person asked where ask says so), and the
// edit is the change, whose saves become one point, as for a rename. A
// dry run answers the edit and writes nothing, records nothing.
func (s *server) tentApply(ctx context.Context, req jsonrpc2.Request) (any, error) {
	var in tools.ChangeInput
	if err := tools.DecodeInput(req.Params(), &in); err != nil {
		return nil, err
	}
	ws, _ := s.workspace()
	if s.writes() == writesServer && !in.DryRun {
		raw, err := json.Marshal(in)
		if err != nil {
			return nil, err
		}
		ans, err := tools.Call(ctx, ws, "change", raw)
		if err != nil {
			return nil, err
		}
		a := ans.Data.(*tools.ChangeAnswer)
		return tentApplyResult{Version: a.Version, Point: a.Point, Changed: a.Changed, Left: a.Left, Edit: s.syncOpenDocuments(ctx)}, nil
	}
	// Planned on the disk as it is now and the buffers.
	ix, err := ws.Index(ctx)
	if err != nil {
		return nil, err
	}
	res, err := ws.PlanOps(ctx, ix, in)
	if err != nil {
		return nil, err
	}
	var edit *workspaceEdit
	if in.DryRun {
		edit, _ = s.editOf(ix, res.Set)
	} else if edit, err = s.clientWrite(ctx, ix, res.Set); err != nil {
		return nil, err
	}
	changed, err := res.Set.Changed()
	if err != nil {
		return nil, err
	}
	version, err := ws.Version(ctx)
	if err != nil {
		return nil, err
	}
	return tentApplyResult{Version: version, Changed: changed, Left: res.Set.Left, Edit: edit}, nil
}
