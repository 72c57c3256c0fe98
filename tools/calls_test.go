package tools

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/tent-tools/tent-tools/internal/golden"
)

// CallCase is one golden call of a tool on a fresh copy of the sample
// project. The CLI's tests run the same cases (testdata/calls.json) through
// `tent-tools call`, so the Go API and the CLI cannot drift apart.
type CallCase struct {
	Name  string          `json:"name"`
	Tool  string          `json:"tool"`
	Input json.RawMessage `json:"input"`
	// Show names a file whose content after the call goes into the golden.
	Show string `json:"show,omitempty"`
}

// LoadCallCases reads testdata/calls.json.
func loadCallCases(t testing.TB) []CallCase {
	t.Helper()
	b, err := os.ReadFile("testdata/calls.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []CallCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatalf("testdata/calls.json: %v", err)
	}
	return cases
}

// CallGolden renders a call's answer as its golden file holds it: the text
// answer and the data answer (or the error as JSON).
func callGolden(ans Answer, err error) (text string, data []byte) {
	var v any = ans.Data
	text = ans.Text
	if err != nil {
		v = ErrorData(err)
		text = err.Error() + "\n"
	}
	data, merr := JSON(v)
	if merr != nil {
		panic(merr)
	}
	return text, data
}

func TestCalls(t *testing.T) {
	for _, c := range loadCallCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			w, dir := openCopy(t, Options{})
			ans, err := Call(t.Context(), w, c.Tool, c.Input)
			text, data := callGolden(ans, err)
			var b bytes.Buffer
			b.WriteString("-- text --\n" + text + "-- json --\n")
			b.Write(data)
			if c.Show != "" {
				b.WriteString("-- " + c.Show + " --\n" + readFile(t, dir, c.Show))
			}
			golden.Check(t, "testdata/calls/"+c.Name+".golden", b.Bytes())
		})
	}
}
