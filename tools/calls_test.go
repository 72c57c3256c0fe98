package tools

import (
	"bytes"
	"testing"

	"github.com/tent-tools/tent-tools/internal/golden"
)

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
	for _, c := range golden.Calls(t, "testdata/calls.json") {
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
