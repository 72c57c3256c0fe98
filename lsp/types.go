package lsp

import (
	"encoding/json"
	"time"

	"go.lsp.dev/protocol"
)

// This file holds the protocol's types that go.lsp.dev/protocol v0.12.0
// (LSP 3.15) has wrong or lacks; where its own are right, they are used.

// initializeParams is the part of initialize the server reads. The
// library's type lacks positionEncodings and the 3.16 capabilities, so the
// request is read into this type.
type initializeParams struct {
	RootURI          string             `json:"rootUri"`
	RootPath         string             `json:"rootPath"`
	WorkspaceFolders []workspaceFolder  `json:"workspaceFolders"`
	Options          json.RawMessage    `json:"initializationOptions"`
	Capabilities     clientCapabilities `json:"capabilities"`
	WorkDoneToken    json.RawMessage    `json:"workDoneToken"`
}

type workspaceFolder struct {
	URI  string `json:"uri"`
	Name string `json:"name"`
}

// clientCapabilities are the capabilities the server negotiates.
type clientCapabilities struct {
	General struct {
		PositionEncodings []string `json:"positionEncodings"`
	} `json:"general"`
	Workspace struct {
		WorkspaceEdit struct {
			DocumentChanges    bool     `json:"documentChanges"`
			ResourceOperations []string `json:"resourceOperations"`
		} `json:"workspaceEdit"`
		DidChangeWatchedFiles struct {
			DynamicRegistration bool `json:"dynamicRegistration"`
		} `json:"didChangeWatchedFiles"`
	} `json:"workspace"`
	TextDocument struct {
		PublishDiagnostics struct {
			RelatedInformation     bool `json:"relatedInformation"`
			VersionSupport         bool `json:"versionSupport"`
			CodeDescriptionSupport bool `json:"codeDescriptionSupport"`
			DataSupport            bool `json:"dataSupport"`
		} `json:"publishDiagnostics"`
		CodeAction struct {
			ResolveSupport *struct {
				Properties []string `json:"properties"`
			} `json:"resolveSupport"`
			DataSupport bool `json:"dataSupport"`
		} `json:"codeAction"`
		DocumentSymbol struct {
			HierarchicalDocumentSymbolSupport bool `json:"hierarchicalDocumentSymbolSupport"`
		} `json:"documentSymbol"`
	} `json:"textDocument"`
	Window struct {
		WorkDoneProgress bool            `json:"workDoneProgress"`
		ShowMessage      json.RawMessage `json:"showMessage"`
	} `json:"window"`
}

// initOptions are the client's initializationOptions.
type initOptions struct {
	Caller string          `json:"caller,omitempty"`
	Agent  string          `json:"agent,omitempty"`
	Policy json.RawMessage `json:"policy,omitempty"`
	Yes    bool            `json:"yes,omitempty"`
	Writes string          `json:"writes,omitempty"`
	// DiagnosticDelay is how many milliseconds the diagnostics of a
	// didChange wait for more changes (nil: defaultDiagnosticDelay).
	DiagnosticDelay *int `json:"diagnosticDelay,omitempty"`
}

// defaultDiagnosticDelay is how long the diagnostics of a didChange wait
// for more changes: a burst of keystrokes is checked once, at its last
// version, and the wait is short enough not to be seen.
const defaultDiagnosticDelay = 50 * time.Millisecond

// maxDiagnosticDelay bounds initializationOptions.diagnosticDelay.
const maxDiagnosticDelay = 10 * time.Second

// The writers of initOptions.Writes.
const (
	writesClient = "client"
	writesServer = "server"
)

// changeEvent is one content change of didChange. The library's type has
// Range as a value, so a full-text change (no range) reads as an insert at
// 0:0; here it is a pointer: nil is the whole text.
type changeEvent struct {
	Range *protocol.Range `json:"range,omitempty"`
	Text  string          `json:"text"`
}

type didChangeParams struct {
	TextDocument   protocol.VersionedTextDocumentIdentifier `json:"textDocument"`
	ContentChanges []changeEvent                            `json:"contentChanges"`
}

// diagnostic is a Diagnostic of LSP 3.16 (codeDescription, data), which
// the library's 3.15 type lacks.
type diagnostic struct {
	Range              protocol.Range       `json:"range"`
	Severity           int                  `json:"severity"`
	Code               string               `json:"code"`
	CodeDescription    *codeDescription     `json:"codeDescription,omitempty"`
	Source             string               `json:"source"`
	Message            string               `json:"message"`
	RelatedInformation []relatedInformation `json:"relatedInformation,omitempty"`
	Data               *diagnosticData      `json:"data,omitempty"`
}

type codeDescription struct {
	Href string `json:"href"`
}

type relatedInformation struct {
	Location protocol.Location `json:"location"`
	Message  string            `json:"message"`
}

// diagnosticData is what a diagnostic carries for its quick fix: the
// certain fix, as the check gives it (byte offsets in Path).
type diagnosticData struct {
	Fix *fixData `json:"fix,omitempty"`
}

type fixData struct {
	Title string `json:"title"`
	Path  string `json:"path"`
	Start int    `json:"start"`
	End   int    `json:"end"`
	Text  string `json:"text"`
}

type publishDiagnosticsParams struct {
	URI         string       `json:"uri"`
	Version     *int32       `json:"version,omitempty"`
	Diagnostics []diagnostic `json:"diagnostics"`
}

// prepareRenameResult is prepareRename's answer of LSP 3.16 ({range,
// placeholder}); the library's answer is a bare Range.
type prepareRenameResult struct {
	Range       protocol.Range `json:"range"`
	Placeholder string         `json:"placeholder"`
}

// workspaceEdit is a WorkspaceEdit whose documentChanges may hold file
// operations: the library's DocumentChanges is []TextDocumentEdit, which
// cannot carry RenameFile or DeleteFile.
type workspaceEdit struct {
	Changes         map[string][]protocol.TextEdit `json:"changes,omitempty"`
	DocumentChanges []documentChange               `json:"documentChanges,omitempty"`
}

// documentChange is one of TextDocumentEdit, CreateFile, RenameFile and
// DeleteFile: exactly one field is set, and it marshals as that one.
type documentChange struct {
	Edit   *textDocumentEdit
	Create *fileOperation
	Rename *fileOperation
	Delete *fileOperation
}

// MarshalJSON writes the one operation the change holds.
func (c documentChange) MarshalJSON() ([]byte, error) {
	switch {
	case c.Edit != nil:
		return json.Marshal(c.Edit)
	case c.Create != nil:
		return json.Marshal(c.Create)
	case c.Rename != nil:
		return json.Marshal(c.Rename)
	default:
		return json.Marshal(c.Delete)
	}
}

type textDocumentEdit struct {
	TextDocument optionalVersionedID `json:"textDocument"`
	Edits        []protocol.TextEdit `json:"edits"`
}

// optionalVersionedID is a document and its version (null: a file the
// client has not open).
type optionalVersionedID struct {
	URI     string `json:"uri"`
	Version *int32 `json:"version"`
}

// fileOperation is CreateFile ("create", URI), RenameFile ("rename",
// OldURI, NewURI) or DeleteFile ("delete", URI).
type fileOperation struct {
	Kind    string          `json:"kind"`
	URI     string          `json:"uri,omitempty"`
	OldURI  string          `json:"oldUri,omitempty"`
	NewURI  string          `json:"newUri,omitempty"`
	Options *fileOpsOptions `json:"options,omitempty"`
}

type fileOpsOptions struct {
	Overwrite      bool `json:"overwrite,omitempty"`
	IgnoreIfExists bool `json:"ignoreIfExists,omitempty"`
}

// codeAction is a CodeAction of LSP 3.16 (data, resolved lazily; the
// library's edit cannot carry file operations).
type codeAction struct {
	Title       string          `json:"title"`
	Kind        string          `json:"kind"`
	Diagnostics []diagnostic    `json:"diagnostics,omitempty"`
	IsPreferred bool            `json:"isPreferred,omitempty"`
	Edit        *workspaceEdit  `json:"edit,omitempty"`
	Command     *command        `json:"command,omitempty"`
	Data        json.RawMessage `json:"data,omitempty"`
}

type command struct {
	Title     string `json:"title"`
	Command   string `json:"command"`
	Arguments []any  `json:"arguments,omitempty"`
}

// codeActionParams are codeAction's parameters with the diagnostics as
// the server sent them (with data).
type codeActionParams struct {
	TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
	Range        protocol.Range                  `json:"range"`
	Context      struct {
		Diagnostics []diagnostic `json:"diagnostics"`
		Only        []string     `json:"only"`
	} `json:"context"`
}

// tentCallParams are tent/call's parameters.
type tentCallParams struct {
	Tool  string          `json:"tool"`
	Input json.RawMessage `json:"input"`
}

// tentCallResult is tent/call's answer: the tool's text and data.
type tentCallResult struct {
	Text string `json:"text"`
	Data any    `json:"data"`
}

// tentReference is one place of tent/references: a location, and for a
// code site its mark (likely, maybe) and why.
type tentReference struct {
	Location protocol.Location `json:"location"`
	Kind     string            `json:"kind"`           // "place" or "code site"
	Mark     string            `json:"mark,omitempty"` // likely, maybe (code sites)
	Why      string            `json:"why,omitempty"`
}

// tentChanged is the tent/changed notification.
type tentChanged struct {
	Point       *int     `json:"point"`
	Files       []string `json:"files"`
	Definitions []string `json:"definitions"`
	Version     int      `json:"version"` // the version tent/model answers after the change
}

// progressParams is $/progress with its token as sent (number or string).
type progressParams struct {
	Token json.RawMessage `json:"token"`
	Value any             `json:"value"`
}

type progressBegin struct {
	Kind        string `json:"kind"`
	Title       string `json:"title"`
	Message     string `json:"message,omitempty"`
	Cancellable bool   `json:"cancellable"`
	Percentage  *int   `json:"percentage,omitempty"`
}

type progressReport struct {
	Kind       string `json:"kind"`
	Message    string `json:"message,omitempty"`
	Percentage *int   `json:"percentage,omitempty"`
}

type progressEnd struct {
	Kind    string `json:"kind"`
	Message string `json:"message,omitempty"`
}
