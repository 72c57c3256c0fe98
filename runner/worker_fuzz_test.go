package runner

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
)

// fuzzSource makes the body of a function from the fuzzer's choices: deep
// nesting for the parsers (esbuild's on the file, goja's through eval),
// huge literals, BigInt arithmetic, regular expressions, or the fuzzer's
// text as code.
func fuzzSource(kind uint8, n uint32, text string) string {
	n %= 1 << 20
	switch kind % 8 {
	case 0: // nesting in the file itself, for esbuild
		open := "[({"
		var b strings.Builder
		b.WriteString("return ")
		for i := range int(n % 200000) {
			b.WriteByte(open[i%3])
		}
		b.WriteString("0")
		for i := int(n%200000) - 1; i >= 0; i-- {
			b.WriteByte("])}"[i%3])
		}
		return b.String()
	case 1: // nesting through eval, for goja's parser
		return "return (0, eval)(" + strconv.Quote(text) + ".repeat(" + strconv.Itoa(int(n)) + ") + '1')"
	case 2: // a huge literal
		return "return " + strconv.Quote(strings.Repeat(text, int(n%(1<<16)))) + ".length"
	case 3: // BigInt powers and shifts
		return "return String(BigInt(" + strconv.Itoa(int(n%1000)) + ") ** BigInt(" + strconv.Itoa(int(n)) + ") << BigInt(" + strconv.Itoa(int(n>>4)) + "))"
	case 4: // a BigInt loop
		return "let x = BigInt(" + strconv.Itoa(int(n%97)+2) + "); for (let i = 0; i < " + strconv.Itoa(int(n%64)) + "; i++) x *= x; return x.toString().length"
	case 5: // a regular expression built from the fuzzer's text
		return "return new RegExp(" + strconv.Quote(text) + ".repeat(" + strconv.Itoa(int(n%100000)) + ")).test(" + strconv.Quote(text) + ".repeat(" + strconv.Itoa(int(n%1000)) + "))"
	case 6: // a builtin over a long text
		return "return " + strconv.Quote(text) + ".repeat(" + strconv.Itoa(int(n)) + ").normalize('NFKD').length"
	}
	return text // the fuzzer's own code
}

// FuzzWorker feeds generated JavaScript to a worker: whatever the code,
// the run answers (a result or a coded error: T1001 it does not build,
// T4003, T4004, T4005, T4013), and the next run is answered as before.
func FuzzWorker(f *testing.F) {
	f.Add(uint8(0), uint32(150000), "")
	f.Add(uint8(1), uint32(300000), "[")
	f.Add(uint8(1), uint32(1000), "-")
	f.Add(uint8(2), uint32(60000), "ab")
	f.Add(uint8(3), uint32(1<<20-1), "")
	f.Add(uint8(4), uint32(20), "")
	f.Add(uint8(5), uint32(5000), "(?=a")
	f.Add(uint8(6), uint32(1000), "\uFDFA")
	f.Add(uint8(7), uint32(0), "return [1, 2, 3].map((x) => x * 2)")
	f.Add(uint8(7), uint32(0), "while (true) {}")
	root := project(f, "run-hostile")
	base := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if strings.HasPrefix(rel, ".tent") {
			return nil
		}
		b, err := os.ReadFile(p)
		base[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		f.Fatal(err)
	}
	r := newRunner(f, root, Config{TimeLimit: time.Second})
	ctx := context.Background()
	allowed := []string{diag.T1001, diag.T4003, diag.T4004, diag.T4005, diag.T4013}
	f.Fuzz(func(t *testing.T, kind uint8, n uint32, text string) {
		files := make(map[string][]byte, len(base)+1)
		for k, v := range base {
			files[k] = v
		}
		body := fuzzSource(kind, n, text)
		files["functions/fuzzed.ts"] = []byte("import { fn } from 'tent'\n\nexport const fuzzed = fn({\n  run: (ctx) => {\n" + body + "\n  },\n})\n")
		ix := definitions.FromFiles(ctx, files)
		if ix.Definition("fuzzed") == nil {
			return // the text broke the definition itself: nothing to run
		}
		_, err := r.Run(ctx, ix, Request{Name: "fuzzed"})
		if err != nil {
			te, ok := err.(*diag.ToolError)
			if !ok || !slices.Contains(allowed, te.Code) {
				t.Fatalf("kind %d n %d: %v; want a result or one of %v", kind, n, err, allowed)
			}
		}
		if _, err := r.Run(ctx, ix, Request{Name: "sum", Input: []byte(`{"a":1,"b":2}`)}); err != nil {
			t.Fatalf("the run after kind %d n %d: %v", kind, n, err)
		}
	})
}
