// Package mcp is the Model Context Protocol face of the project tools
// (docs/pages/mcp.md): every tool of the registry as an MCP tool, the docs
// pages and the map as resources, on the official Go SDK. Like the CLI it
// holds no rule of its own: a call becomes tools.Call on one project
// (stdio) or Handle.Tool on a host's workspace (streamable HTTP), and the
// answer comes back as text content plus structuredContent; an error is a
// result with isError and its code, never a protocol error.
//
// Architecture invariant: only this package imports the MCP SDK.
package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/docs"
	"github.com/tent-tools/tent-tools/tools"
)

// backend is where a server sends its calls: one project folder (stdio)
// or the workspace that the request's bearer token names (HTTP). ap
// answers for the person in this call.
type backend interface {
	call(ctx context.Context, from caller, name string, input json.RawMessage, ap tools.Approver) (tools.Answer, error)
}

// caller is what a request says of who sends it.
type caller struct {
	// extra holds the HTTP request's verified bearer token (nil on stdio).
	extra *sdk.RequestExtra
	// client is the name the MCP client gave itself, or "".
	client string
}

// callerOf reads a request's caller.
func callerOf[P sdk.Params](req *sdk.ServerRequest[P]) caller {
	c := caller{extra: req.Extra}
	if info := req.ClientInfo(); info != nil {
		c.client = info.Name
	}
	return c
}

// Options are what a server is made with.
type Options struct {
	// Yes answers yes wherever the person would be asked (a write that
	// the policy's ask names, a run that sends data out), as the CLI's
	// --yes does. Without it the person is asked through MCP elicitation
	// where the client offers it, and the answer is no where it does not.
	Yes bool
	// Version is the server's version, as initialize reports it.
	Version string

	// MaxSessions bounds the sessions one token holds at once in host
	// mode (NewHostHandler); 0 is DefaultMaxSessions. One more initialize
	// is refused, HTTP 429 with T9123.
	MaxSessions int
	// SessionIdle closes a host mode session that no request has reached
	// for that long; 0 is DefaultSessionIdle.
	SessionIdle time.Duration
	// Origins are the pages (their Origin header, "https://app.example")
	// whose requests host mode lets in; a request with another Origin is
	// refused 403, as MCP's transport asks; one without (not a browser)
	// is let in on its token.
	Origins []string
}

// The bounds of host mode where Options give none.
const (
	DefaultMaxSessions = 16
	DefaultSessionIdle = 30 * time.Minute
)

// newServer makes an MCP server whose tools and resources call b; calls
// run under calls, which stops them where their client is gone.
func newServer(b backend, opts Options, calls *inflight) *sdk.Server {
	version := opts.Version
	if version == "" {
		version = "dev"
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "tent-tools", Title: "tent-tools", Version: version}, &sdk.ServerOptions{
		Instructions: instructions,
		// No logging capability: the server sends no log messages.
		Capabilities: &sdk.ServerCapabilities{},
	})
	f := &face{b: b, opts: opts}
	for _, t := range tools.All() {
		s.AddTool(describe(t), f.toolHandler(t))
	}
	f.addResources(s)
	s.AddReceivingMiddleware(calls.middleware, f.unknownTools)
	return s
}

// instructions is what the server tells a client about itself.
const instructions = "Tools over one tent project (a folder of TypeScript and JSON describing a web app). " +
	"Start with map for the outline, read and search to look, edit/write/rename/remove/move to change " +
	"(each change is recorded as a point; undo puts it back), check for the findings, run to call a function " +
	"on the test database. The docs tool (and the tent://docs/ resources) explain the format and every tool."

// face is the state the handlers of one server share.
type face struct {
	b    backend
	opts Options
}

// describe is the MCP tool of a registry tool: its one input schema
// (Tool.InputSchema, the same the registry holds input to), its
// description, its output schema where its answer has a fixed shape, and
// its annotations.
func describe(t tools.Tool) *sdk.Tool {
	input := t.InputSchema()
	delete(input, "description") // the tool's description says it once
	mt := &sdk.Tool{
		Name:        t.Name,
		Description: description(t),
		InputSchema: marshalOnce(input),
		Annotations: annotations(t),
	}
	if out := outputSchema(t); out != nil {
		mt.OutputSchema = marshalOnce(out)
	}
	return mt
}

// marshalOnce writes a schema as JSON once, when the server is made, so
// that tools/list sends it as it is instead of walking a map each time.
func marshalOnce(schema map[string]any) json.RawMessage {
	b, err := json.Marshal(schema)
	if err != nil {
		panic(fmt.Sprintf("a tool's schema is no JSON: %v", err)) // built from Go types: cannot happen
	}
	return b
}

// description is a tool's one-line summary, and where its docs page is.
func description(t tools.Tool) string {
	d := t.Summary
	if _, ok := docs.Page(t.Name); ok {
		d += fmt.Sprintf(" (docs: tent://docs/%s)", t.Name)
	}
	return d
}

// addResources offers every docs page as tent://docs/NAME and the map as
// tent://map.
func (f *face) addResources(s *sdk.Server) {
	for _, topic := range docs.Topics() {
		uri := "tent://docs/" + topic
		s.AddResource(&sdk.Resource{
			URI:         uri,
			Name:        "docs/" + topic,
			Title:       docs.Title(topic),
			Description: "the docs page " + topic,
			MIMEType:    "text/markdown",
		}, func(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			page, ok := docs.Page(topic)
			if !ok {
				return nil, sdk.ResourceNotFoundError(req.Params.URI)
			}
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: page}}}, nil
		})
	}
	s.AddResource(&sdk.Resource{
		URI:         "tent://map",
		Name:        "map",
		Title:       "The map of the project",
		Description: "the outline of the project, as the map tool answers it",
		MIMEType:    "text/plain",
	}, func(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
		ans, err := f.b.call(ctx, callerOf(req), "map", nil, nil)
		if err != nil {
			// A resource has no isError: the read fails with the tool's
			// error, its code first ("T3101: ...").
			return nil, fmt.Errorf("%s", errorText(err))
		}
		return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: "tent://map", MIMEType: "text/plain", Text: ans.Text}}}, nil
	})
}

// toolHandler turns one MCP call of t into a call of the backend and its
// answer (or error) into a result. It never answers a protocol error for
// anything the tool says: a bad input, a refusal and a fault are all
// results with isError.
func (f *face) toolHandler(t tools.Tool) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (res *sdk.CallToolResult, err error) {
		defer func() {
			if r := recover(); r != nil {
				res, err = errorResult(fmt.Errorf("tool %s failed: %v", t.Name, r)), nil
			}
		}()
		ap := newPersonApprover(f.opts.Yes, canElicit(req), req.Params.InputResponses)
		stop := startProgress(ctx, req, t.Name)
		ans, callErr := f.b.call(ctx, callerOf(req), t.Name, req.Params.Arguments, ap)
		stop()
		if asks := ap.unanswered(); len(asks) > 0 && callErr != nil {
			// The person is to be asked: the client asks them and calls
			// again with their answer (multi round-trip; the SDK asks
			// through elicitation/create itself for older clients). The
			// call wrote nothing: a question is asked before any write.
			return &sdk.CallToolResult{InputRequests: asks}, nil
		}
		if callErr != nil {
			return errorResult(callErr), nil
		}
		return answerResult(ans)
	}
}

// unknownTools answers a call of a tool the registry lacks as the registry
// does (T9101, the tools there are), a result with isError, where the SDK
// would answer a protocol error (-32602) with no code.
func (f *face) unknownTools(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		call, ok := req.(*sdk.CallToolRequest)
		if method != "tools/call" || !ok || call.Params == nil {
			return next(ctx, method, req)
		}
		if _, known := tools.Lookup(call.Params.Name); known {
			return next(ctx, method, req)
		}
		return f.toolHandler(tools.Tool{Name: call.Params.Name})(ctx, call)
	}
}

// canElicit reports whether the client of a request said it can ask its
// user (the elicitation capability, of the session or of the request).
func canElicit(req *sdk.CallToolRequest) bool {
	caps := req.ClientCapabilities()
	return caps != nil && caps.Elicitation != nil
}

// answerResult is a tool's answer as an MCP result: its text for the
// model, its data as structuredContent, and a picture (an answer with a
// "png", as shot's) also as image content.
func answerResult(ans tools.Answer) (*sdk.CallToolResult, error) {
	res := &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: ans.Text}}}
	if ans.Data == nil {
		return res, nil
	}
	data, err := json.Marshal(ans.Data)
	if err != nil {
		return errorResult(fmt.Errorf("the answer cannot be written as JSON: %w", err)), nil
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(data, &obj) != nil || obj == nil {
		// structuredContent is an object; an answer that is not one
		// stays in the text only.
		return res, nil
	}
	res.StructuredContent = json.RawMessage(data)
	if png, ok := pictureOf(obj); ok {
		res.Content = append(res.Content, &sdk.ImageContent{Data: png, MIMEType: "image/png"})
	}
	return res, nil
}

// errorResult is a tool's error as an MCP result: isError, the text
// "T9106: message", and {"error": {"code", "message", ...}} as
// structuredContent.
func errorResult(err error) *sdk.CallToolResult {
	data, jerr := json.Marshal(tools.ErrorData(err))
	res := &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: errorText(err)}}}
	if jerr == nil {
		res.StructuredContent = json.RawMessage(data)
	}
	return res
}

// errorText is an error as a model reads it: "T9106: message" for a tool
// error, the message for a fault.
func errorText(err error) string {
	var te *diag.ToolError
	if errors.As(err, &te) {
		return te.Error()
	}
	return err.Error()
}
