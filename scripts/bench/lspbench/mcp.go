package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// mcpCall is one measured MCP tool call.
type mcpCall struct {
	key   string
	title string // what the call does, beside the tool's name
	tool  string
	args  string
}

// mcpCalls are the calls of the MCP benchmark: what an agent asks of a
// project, the renames planned only (change's dryRun: nothing written,
// so every call plans the same rename).
var mcpCalls = []mcpCall{
	{"map", "", "map", `{}`},
	{"rename", "an ordinary table renamed, dryRun", "change", `{"ops": [{"op": "rename", "name": "accounts2", "to": "ledgers2"}], "dryRun": true}`},
	{"renameHub", "the hub table renamed, dryRun", "change", `{"ops": [{"op": "rename", "name": "accounts", "to": "members"}], "dryRun": true}`},
	{"search", "`JSON.stringify`", "search", `{"text": "JSON.stringify"}`},
	{"check", "", "check", `{}`},
}

// mcpSession is a `tent-tools mcp` process over stdio.
type mcpSession struct{ c *conn }

// openMCP starts the server on dir and makes the handshake.
func openMCP(ctx context.Context, tent, dir string) (*mcpSession, error) {
	c, err := start("tent-tools mcp", lines, dir, []string{tent, "mcp", "-C", dir}, func(string, json.RawMessage) any { return map[string]any{} })
	if err != nil {
		return nil, err
	}
	_, err = c.call(ctx, "initialize", map[string]any{
		"protocolVersion": "2025-06-18",
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "lspbench", "version": "1"},
	})
	if err == nil {
		err = c.notify("notifications/initialized", map[string]any{})
	}
	if err != nil {
		c.close()
		return nil, err
	}
	return &mcpSession{c: c}, nil
}

// call makes one tool call and answers how long it took and the bytes of
// its text and of its structuredContent; a tool error is an error.
func (m *mcpSession) call(ctx context.Context, call mcpCall) (time.Duration, int, int, error) {
	t0 := time.Now()
	raw, err := m.c.call(ctx, "tools/call", map[string]any{"name": call.tool, "arguments": json.RawMessage(call.args)})
	d := time.Since(t0)
	if err != nil {
		return 0, 0, 0, err
	}
	var res struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		Structured json.RawMessage `json:"structuredContent"`
		IsError    bool            `json:"isError"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return 0, 0, 0, fmt.Errorf("mcp %s: %w", call.tool, err)
	}
	text := 0
	for _, c := range res.Content {
		text += len(c.Text)
	}
	// check answers isError where it finds an error; the generated
	// project has none, so any isError is a failure.
	if res.IsError {
		first := ""
		if len(res.Content) > 0 {
			first = res.Content[0].Text
		}
		return 0, 0, 0, fmt.Errorf("mcp %s: a tool error: %.300s", call.tool, first)
	}
	if text == 0 {
		return 0, 0, 0, fmt.Errorf("mcp %s: an empty answer", call.tool)
	}
	return d, text, len(res.Structured), nil
}

func (m *mcpSession) close() { m.c.close() }
