package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
)

// TestWireMessage: the messages the server's streams write are the
// library's, byte for byte in meaning, for every kind of message.
func TestWireMessage(t *testing.T) {
	must := func(m jsonrpc2.Message, err error) jsonrpc2.Message {
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	big := map[string]any{"name": "<a & b>", "list": []int{1, 2, 3}, "text": strings.Repeat("é\"\n", 10)}
	tests := []struct {
		name string
		msg  jsonrpc2.Message
	}{
		{"response", must(jsonrpc2.NewResponse(jsonrpc2.NewNumberID(7), big, nil))},
		{"response null", must(jsonrpc2.NewResponse(jsonrpc2.NewNumberID(8), nil, nil))},
		{"response string id", must(jsonrpc2.NewResponse(jsonrpc2.NewStringID("a\"b"), []string{"x"}, nil))},
		{"error", must(jsonrpc2.NewResponse(jsonrpc2.NewNumberID(9), nil, &jsonrpc2.Error{Code: -32803, Message: "T1001 no"}))},
		{"call", must(jsonrpc2.NewCall(jsonrpc2.NewNumberID(3), "window/showMessageRequest", big))},
		{"call no params", must(jsonrpc2.NewCall(jsonrpc2.NewStringID("s"), "shutdown", nil))},
		{"notification", must(jsonrpc2.NewNotification("textDocument/publishDiagnostics", big))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := wireMessage(nil, tt.msg)
			if err != nil {
				t.Fatal(err)
			}
			want, err := json.Marshal(tt.msg) // the library's encoding
			if err != nil {
				t.Fatal(err)
			}
			if !json.Valid(got) {
				t.Fatalf("not JSON: %s", got)
			}
			var g, w any
			json.Unmarshal(got, &g)
			json.Unmarshal(want, &w)
			if !reflect.DeepEqual(g, w) {
				t.Errorf("wireMessage:\n%s\nthe library:\n%s", got, want)
			}
		})
	}
}

// pipe is a stream in memory: it reads r and writes w.
type pipe struct {
	r io.Reader
	w bytes.Buffer
}

func (p *pipe) Read(b []byte) (int, error)  { return p.r.Read(b) }
func (p *pipe) Write(b []byte) (int, error) { return p.w.Write(b) }
func (*pipe) Close() error                  { return nil }

// TestFrameStream: messages written (small, big, and encoded answers of
// both sizes) read back through the library's own framing as they went.
func TestFrameStream(t *testing.T) {
	ctx := context.Background()
	out := &pipe{r: strings.NewReader("")}
	s := newFrameStream(out)
	big := strings.Repeat("x", 3*bigResult)
	note, _ := jsonrpc2.NewNotification("tent/changed", map[string]any{"big": big})
	small, _ := jsonrpc2.NewResponse(jsonrpc2.NewNumberID(1), []int{1, 2}, nil)
	if _, err := s.Write(ctx, small); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Write(ctx, note); err != nil {
		t.Fatal(err)
	}
	encoded := []string{`{"a":1}`, `{"big":"` + big + `"}`, `{"tag":"x","big":"` + big + `"}`}
	parts := []encodedResult{{[]byte(encoded[0])}, {[]byte(encoded[1])}, {[]byte(`{"tag":"x",`), []byte(`"big":"` + big + `"}`)}}
	for i, p := range parts {
		if _, err := s.writeResult(ctx, jsonrpc2.NewNumberID(int32(10+i)), p); err != nil {
			t.Fatal(err)
		}
	}
	in := jsonrpc2.NewStream(&pipe{r: &out.w})
	read := func() jsonrpc2.Message {
		m, _, err := in.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	if r := read().(*jsonrpc2.Response); string(r.Result()) != `[1,2]` {
		t.Errorf("small response: %s", r.Result())
	}
	if n := read().(*jsonrpc2.Notification); n.Method() != "tent/changed" || !bytes.Contains(n.Params(), []byte(big)) {
		t.Errorf("big notification: %s", n.Method())
	}
	for i, e := range encoded {
		r := read().(*jsonrpc2.Response)
		if r.ID() != jsonrpc2.NewNumberID(int32(10+i)) || string(r.Result()) != e {
			t.Errorf("encoded answer %d: id %v, %.40s", i, r.ID(), r.Result())
		}
	}
	if _, _, err := in.Read(ctx); !errors.Is(err, io.EOF) {
		t.Errorf("after the messages: %v", err)
	}
}
