package tools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/tent-tools/tent-tools/internal/sample"
	"github.com/tent-tools/tent-tools/tools"
)

// ExampleCall is the README's Go snippet, on a copy of the sample.
func ExampleCall() {
	dir, err := os.MkdirTemp("", "tent-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	if err := sample.CopyTo("../testdata/projects/shop", dir); err != nil {
		panic(err)
	}
	ctx := context.Background()

	w, err := tools.Open(dir, tools.Options{})
	if err != nil {
		panic(err)
	}
	defer w.Close()
	ans, err := tools.Call(ctx, w, "edit", json.RawMessage(`{"path": "project.ts", "find": "The shop:", "with": "The store:"}`))
	if err != nil {
		panic(err)
	}
	text := ans.Text                // for a model to read: what was edited, the lines around, the point
	data, _ := tools.JSON(ans.Data) // the JSON answer
	first, _, _ := strings.Cut(text, "\n")
	fmt.Println(first)
	fmt.Println(strings.Contains(text, "The store: people buy"), strings.Contains(string(data), `"project.ts"`))
	// Output:
	// edited project.ts (1 replacement)
	// true true
}
