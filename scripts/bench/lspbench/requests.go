package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// request is one kind of request, the same for every server: run makes
// it once (a didChange twice: the line in and out again), checks that the
// answer is a real one, and answers the times and what was answered.
type request struct {
	key   string
	title string
	short string // the plot's panel title
	run   func(ctx context.Context, s *lspServer) ([]time.Duration, string, error)
}

// requests are the measured requests, in the order of the table.
var requests = []request{
	{"body", "didChange → diagnostics, a function's body", "didChange → diagnostics: a body", changeRequest(bodyEdit)},
	{"table", "didChange → diagnostics, a table's column", "didChange → diagnostics: a table", changeRequest(tableEdit)},
	{"rename", "rename an ordinary table (planned)", "rename an ordinary table", renameRequest(ordinaryTable, "export const accounts2", "ledgers2")},
	{"renameHub", "rename the hub table (planned)", "rename the hub table", renameRequest(hubTable, "export const accounts", "members")},
	{"refsHub", "references of the hub table", "references of the hub table", referencesRequest},
	{"hover", "hover on a table", "hover on a table", hoverRequest},
	{"symbols", "documentSymbol of a functions file", "documentSymbol", symbolsRequest},
}

// wantCode is the code a server must report while an edit's line is in.
func wantCode(s *lspServer, e edit) string {
	if s.pull {
		return e.tsgo
	}
	return e.tent
}

func changeRequest(e edit) func(context.Context, *lspServer) ([]time.Duration, string, error) {
	return func(ctx context.Context, s *lspServer) ([]time.Duration, string, error) {
		code := wantCode(s, e)
		in, d1, err := s.change(ctx, e, true)
		if err != nil {
			return nil, "", err
		}
		if !slices.Contains(codes(in), code) {
			return nil, "", fmt.Errorf("%s: after the edit of %s the diagnostics hold no %s: %v", s.name, e.path, code, codes(in))
		}
		out, d2, err := s.change(ctx, e, false)
		if err != nil {
			return nil, "", err
		}
		if slices.Contains(codes(out), code) {
			return nil, "", fmt.Errorf("%s: after the edit of %s was taken back the diagnostics still hold %s", s.name, e.path, code)
		}
		return []time.Duration{d1, d2}, fmt.Sprintf("%d diagnostics, then %d", len(in), len(out)), nil
	}
}

func renameRequest(path, at, to string) func(context.Context, *lspServer) ([]time.Duration, string, error) {
	return func(ctx context.Context, s *lspServer) ([]time.Duration, string, error) {
		pos, err := s.position(path, at, len("export const "))
		if err != nil {
			return nil, "", err
		}
		raw, d, err := s.request(ctx, "textDocument/rename", path, pos, map[string]any{"newName": to})
		if err != nil {
			return nil, "", err
		}
		edits, files := editCount(raw)
		if edits == 0 {
			return nil, "", fmt.Errorf("%s: the rename in %s answered no edit: %.200s", s.name, path, raw)
		}
		return []time.Duration{d}, fmt.Sprintf("%d edits in %d files", edits, files), nil
	}
}

func referencesRequest(ctx context.Context, s *lspServer) ([]time.Duration, string, error) {
	pos, err := s.position(hubTable, "export const accounts", len("export const "))
	if err != nil {
		return nil, "", err
	}
	raw, d, err := s.request(ctx, "textDocument/references", hubTable, pos,
		map[string]any{"context": map[string]any{"includeDeclaration": true}})
	if err != nil {
		return nil, "", err
	}
	n := listLen(raw)
	if n < 2 {
		return nil, "", fmt.Errorf("%s: %d references of the hub table", s.name, n)
	}
	return []time.Duration{d}, fmt.Sprintf("%d locations", n), nil
}

func hoverRequest(ctx context.Context, s *lspServer) ([]time.Duration, string, error) {
	pos, err := s.position(ordinaryTable, "export const accounts2", len("export const "))
	if err != nil {
		return nil, "", err
	}
	raw, d, err := s.request(ctx, "textDocument/hover", ordinaryTable, pos, nil)
	if err != nil {
		return nil, "", err
	}
	var h struct {
		Contents json.RawMessage `json:"contents"`
	}
	if json.Unmarshal(raw, &h) != nil || len(h.Contents) < 3 {
		return nil, "", fmt.Errorf("%s: no hover on accounts2: %.200s", s.name, raw)
	}
	return []time.Duration{d}, fmt.Sprintf("%d bytes", len(h.Contents)), nil
}

func symbolsRequest(ctx context.Context, s *lspServer) ([]time.Duration, string, error) {
	raw, d, err := s.request(ctx, "textDocument/documentSymbol", ordinaryFns, nil, nil)
	if err != nil {
		return nil, "", err
	}
	n := listLen(raw)
	if n == 0 {
		return nil, "", fmt.Errorf("%s: no symbols in %s", s.name, ordinaryFns)
	}
	return []time.Duration{d}, fmt.Sprintf("%d symbols", n), nil
}
