package remote

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/tools"
)

// maxFrame bounds one frame: a tool's largest input (tools.MaxInput) or
// answer, escaped, with room for the frame around it.
const maxFrame = 4*tools.MaxInput + 1<<20

// frameWriter writes frames, one JSON object a line, from any goroutine.
type frameWriter struct {
	mu sync.Mutex
	w  io.Writer
}

// write writes v as one frame. Text is kept as it is ("<", ">" and "&"
// are not escaped), as the faces print answers.
func (f *frameWriter) write(v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("remote: encode a frame: %w", err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	_, err := f.w.Write(b.Bytes())
	return err
}

// frameReader reads frames, one a line.
type frameReader struct {
	r *bufio.Reader
}

func newFrameReader(r io.Reader) *frameReader {
	return &frameReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// errFrameTooLarge is a line longer than maxFrame.
var errFrameTooLarge = errors.New("remote: a frame over the size bound")

// line reads one line without its end.
func (f *frameReader) line() ([]byte, error) {
	var buf []byte
	for {
		part, more, err := f.r.ReadLine()
		if err != nil {
			return nil, err
		}
		buf = append(buf, part...)
		if len(buf) > maxFrame {
			return nil, errFrameTooLarge
		}
		if !more {
			return buf, nil
		}
	}
}

// read reads the next frame into v.
func (f *frameReader) read(v any) error {
	line, err := f.line()
	if err != nil {
		return err
	}
	if err := json.Unmarshal(line, v); err != nil {
		return fmt.Errorf("remote: a frame that is no JSON of the protocol (%.80q): %w", line, err)
	}
	return nil
}

// marshalData marshals an answer's data (or an error's fact) as the faces
// print it: "<", ">" and "&" kept as they are.
func marshalData(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// toWire turns a tool's error into its frame: its code, message and facts.
func toWire(err error) *wireError {
	var te *diag.ToolError
	if !errors.As(err, &te) {
		return &wireError{Message: err.Error()}
	}
	w := &wireError{Code: te.Code, Message: te.Message}
	for k, v := range te.Data {
		raw, merr := marshalData(v)
		if merr != nil {
			continue // a fact that cannot travel stays behind; the code and message do
		}
		if w.Data == nil {
			w.Data = map[string]json.RawMessage{}
		}
		w.Data[k] = raw
	}
	return w
}

// fromWire makes the error a frame carried: a *diag.ToolError whose facts
// are the JSON they were (so that every face prints them as the far side
// would have), or a plain error where it had no code.
func fromWire(w *wireError) error {
	if w.Code == "" {
		return errors.New(w.Message)
	}
	te := &diag.ToolError{Code: w.Code, Message: w.Message}
	for k, v := range w.Data {
		if te.Data == nil {
			te.Data = map[string]any{}
		}
		te.Data[k] = v
	}
	return te
}
