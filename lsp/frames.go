package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/coder/websocket"
	"go.lsp.dev/jsonrpc2"
)

// This file writes the messages of the server: each answer is encoded
// once. go.lsp.dev/jsonrpc2 encodes a result when it makes the response
// (NewResponse) and again, validating and escaping it, when its stream
// writes the message (Response.MarshalJSON inside json.Marshal): three
// passes over every answer, 95 ms of a 3.8 MB tent/model. The streams
// here write a message from the bytes the library made already, and an
// answer encoded before the reply (encodedResult: tent/model's kept
// JSON) without the library touching it at all.

// encodedResult is an answer that is JSON already (valid and compact, as
// encoding/json makes it), in parts that follow each other (so that a
// kept answer is not copied to be framed with a head of its own): the
// server writes them into its frame as they are.
type encodedResult [][]byte

// joined is the answer in one piece, for a stream that takes a value.
func (r encodedResult) joined() json.RawMessage { return bytes.Join(r, nil) }

// resultWriter is a stream that writes an encoded answer itself; both
// the server's streams are (frameStream, wsStream).
type resultWriter interface {
	writeResult(ctx context.Context, id jsonrpc2.ID, result encodedResult) (int64, error)
}

// wireMessage appends the JSON of msg to b, reusing the bytes the library
// encoded its result or params into. An error response, which is small,
// is encoded by the library's own MarshalJSON.
func wireMessage(b []byte, msg jsonrpc2.Message) ([]byte, error) {
	switch m := msg.(type) {
	case *jsonrpc2.Response:
		if m.Err() != nil {
			data, err := json.Marshal(m)
			if err != nil {
				return b, fmt.Errorf("marshal response: %w", err)
			}
			return append(b, data...), nil
		}
		b, err := responseHead(b, m.ID())
		if err != nil {
			return b, err
		}
		return append(orNull(b, m.Result()), '}'), nil
	case *jsonrpc2.Call:
		b = append(b, `{"jsonrpc":"2.0","id":`...)
		id, err := json.Marshal(idOf(m.ID()))
		if err != nil {
			return b, fmt.Errorf("marshal id: %w", err)
		}
		b = append(b, id...)
		return requestTail(b, m.Method(), m.Params()), nil
	case *jsonrpc2.Notification:
		b = append(b, `{"jsonrpc":"2.0"`...)
		return requestTail(b, m.Method(), m.Params()), nil
	}
	return b, fmt.Errorf("a message of type %T", msg)
}

// idOf is an id to encode: its MarshalJSON takes a pointer.
func idOf(id jsonrpc2.ID) *jsonrpc2.ID { return &id }

// responseHead appends a response's JSON up to its result.
func responseHead(b []byte, id jsonrpc2.ID) ([]byte, error) {
	data, err := json.Marshal(&id)
	if err != nil {
		return b, fmt.Errorf("marshal id: %w", err)
	}
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, data...)
	return append(b, `,"result":`...), nil
}

// requestTail appends a request's method and params and closes it.
func requestTail(b []byte, method string, params []byte) []byte {
	b = append(b, `,"method":`...)
	b = strconv.AppendQuote(b, method) // a method is ASCII: Go's quoting is JSON's
	if len(params) > 0 {
		b = append(b, `,"params":`...)
		b = append(b, params...)
	}
	return append(b, '}')
}

// orNull appends raw, or null where it is empty.
func orNull(b, raw []byte) []byte {
	if len(raw) == 0 {
		return append(b, "null"...)
	}
	return append(b, raw...)
}

// frameStream is the LSP base protocol over a byte stream (stdio): each
// message after its Content-Length header. Reading is the library's;
// writing is wireMessage's, under a lock of its own, since writeResult
// writes beside the connection's writes.
type frameStream struct {
	in  jsonrpc2.Stream // reads the frames
	out io.Writer

	mu   sync.Mutex
	buf  []byte // the last small message's body, for its room
	head []byte // the frame being written, its header first
}

func newFrameStream(rw io.ReadWriteCloser) *frameStream {
	return &frameStream{in: jsonrpc2.NewStream(rw), out: rw}
}

// bigResult is the size from which an encoded answer is written apart
// from its head, not copied behind it.
const bigResult = 64 << 10

func (s *frameStream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	return s.in.Read(ctx)
}

func (s *frameStream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	body, err := wireMessage(s.buf[:0], msg)
	if err != nil {
		return 0, err
	}
	s.buf = body[:0]
	if cap(s.buf) > bigResult {
		s.buf = nil // a big message's buffer is not kept
	}
	return s.frame(body, nil, nil)
}

func (s *frameStream) writeResult(ctx context.Context, id jsonrpc2.ID, result encodedResult) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	head, err := responseHead(nil, id)
	if err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	parts := append(append([][]byte{head}, result...), []byte{'}'})
	return s.frame(parts...)
}

// frame writes the header and the parts of one message's body: in one
// write where it is small, else the header and each part (a big answer
// is not copied behind its header).
func (s *frameStream) frame(parts ...[]byte) (int64, error) {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	s.head = append(strconv.AppendInt(append(s.head[:0], "Content-Length: "...), int64(n), 10), "\r\n\r\n"...)
	writes := [][]byte{s.head}
	if n < bigResult {
		for _, p := range parts {
			s.head = append(s.head, p...)
		}
		writes = [][]byte{s.head}
	} else {
		writes = append(writes, parts...)
	}
	for _, w := range writes {
		if _, err := s.out.Write(w); err != nil {
			return 0, fmt.Errorf("write message: %w", err)
		}
	}
	if cap(s.head) > bigResult {
		s.head = nil
	}
	return int64(n), nil
}

func (s *frameStream) Close() error { return s.in.Close() }

// writeResult writes an encoded answer as one WebSocket message, its
// parts in turn (the library frames them), not copied into one buffer.
func (s *wsStream) writeResult(ctx context.Context, id jsonrpc2.ID, result encodedResult) (int64, error) {
	head, err := responseHead(nil, id)
	if err != nil {
		return 0, err
	}
	w, err := s.c.Writer(ctx, websocket.MessageText)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, p := range append(append([][]byte{head}, result...), []byte{'}'}) {
		if _, err := w.Write(p); err != nil {
			w.Close()
			return 0, fmt.Errorf("write message: %w", err)
		}
		n += len(p)
	}
	if err := w.Close(); err != nil {
		return 0, fmt.Errorf("write message: %w", err)
	}
	return int64(n), nil
}
