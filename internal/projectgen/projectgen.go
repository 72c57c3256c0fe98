// Package projectgen writes large tent projects for benchmarks and tests,
// in the shape of testdata/projects/shop: N tables (the first, accounts, is
// the users table and is named from about N/2 places), a create and a list
// function per table, a flow per ten tables, a screen per five, lib helpers,
// test data with valid refs, project.ts and engine.ts. The same options
// always give the same bytes.
//
// The code is plain TypeScript that tsc accepts given a `tent` module
// declaration in which a builder's definition is contextually typed (so
// `(ctx, input) =>` needs no annotations), ctx.db rows are `any`, and
// table() returns a value with the `columns` it was given.
package projectgen

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
)

// Options say how large a project to make, and from which seed.
type Options struct {
	// Tables is the number of tables (at least 1: the users table).
	Tables int
	// Seed picks the refs, the optional columns and the test data values.
	Seed int64
}

// Generate returns the files of a project (slash-separated path -> bytes).
func Generate(opts Options) map[string][]byte {
	specs := plan(opts.Tables, opts.Seed)
	byName := make(map[string]*tableSpec, len(specs))
	for _, t := range specs {
		byName[t.name] = t
	}
	files := map[string][]byte{
		"project.ts":      []byte(projectTS),
		"engine.ts":       []byte(engineTS),
		".gitignore":      []byte(gitignore),
		"lib/money.ts":    []byte(libMoney),
		"lib/text.ts":     []byte(libText),
		"lib/validate.ts": []byte(libValidate),
		"lib/notify.ts":   []byte(libNotify),
		"lib/index.ts":    []byte(libIndex),
		"tables/index.ts": []byte(tablesIndex(specs)),
	}
	// Test data draws from its own stream, so changing how code is
	// rendered never changes the rows.
	rows := rand.New(rand.NewPCG(uint64(opts.Seed), 0xda7a))
	for _, t := range specs {
		files["tables/"+t.name+".ts"] = []byte(tableFile(t))
		files["functions/"+t.name+".ts"] = []byte(functionsFile(t))
		files["testdata/"+t.name+".json"] = []byte(testDataFile(rows, t, byName))
		if t.flowHead {
			files["flows/"+t.name+"Flow.ts"] = []byte(flowFile(t))
		}
		if t.screen {
			files["screens/"+t.name+".tsx"] = []byte(screenFile(t))
		}
	}
	return files
}

// Write writes files under dir, making folders as needed, in path order.
func Write(dir string, files map[string][]byte) error {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return fmt.Errorf("write project: %w", err)
		}
		if err := os.WriteFile(full, files[p], 0o644); err != nil {
			return fmt.Errorf("write project: %w", err)
		}
	}
	return nil
}
