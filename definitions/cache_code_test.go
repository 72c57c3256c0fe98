package definitions

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/tent-tools/tent-tools/internal/projectgen"
)

// lazyProjects are every sample project, broken files and a generated
// one, each as the files a build reads.
func lazyProjects(t *testing.T) map[string]map[string][]byte {
	t.Helper()
	out := map[string]map[string][]byte{}
	dirs, err := os.ReadDir(filepath.Join("..", "testdata", "projects"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		root := filepath.Join("..", "testdata", "projects", d.Name())
		files := map[string][]byte{}
		err := filepath.WalkDir(root, func(p string, e os.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			src, err := os.ReadFile(p)
			files[filepath.ToSlash(rel)] = src
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		out[d.Name()] = files
	}
	out["broken"] = map[string][]byte{
		"tables/a.ts":      []byte("import { table, text } from 'tent'\nexport const a = table({ columns: { x: text(), y: ref('b'), ...more }, was: ['old'] })\n"),
		"tables/c.ts":      []byte("import { table } from 'tent'\nexport const c = table({ columns: { z: text( } })\n"),
		"lib/util.ts":      []byte("import * as h from './h'\nimport { g as k } from './h'\nexport function f(ctx) { h.send(ctx); k(); { const k = 1; k() } return ctx.db.a.insert({ x: 1 }) }\n// a comment naming a\n"),
		"lib/h.ts":         []byte("export function send(ctx) { return ctx.mail.send({}) }\nexport function g() { var g = 1; function inner() { g() } }\nexport { send as s }\n"),
		"screens/home.tsx": []byte("import { screen } from 'tent/ui'\nimport { f } from '../lib/util'\nexport const home = screen({ path: '/', load: (ctx) => f(ctx), view: () => <div>{'a'}</div> })\n"),
		"testdata/a.json":  []byte(`[{"id": "1", "x": "one", "y": 2}]`),
	}
	out["generated"] = projectgen.Generate(projectgen.Options{Tables: 40, Seed: 11})
	return out
}

// TestLazyAnswersAsFull holds a build without IdentRefs and words
// (Options.Lazy, a one-shot check's) to a full one: the same files, uses
// and findings; its cache record marks them not read, and the index a
// later process loads from it answers every definition's and column's
// places, code sites and references as the full build does, reading
// them from the texts (a lookup of one name only those whose text holds
// it); a save after all are read writes the very bytes the full build's
// save writes.
func TestLazyAnswersAsFull(t *testing.T) {
	ctx := context.Background()
	for name, files := range lazyProjects(t) {
		t.Run(name, func(t *testing.T) {
			full := FromFilesWith(ctx, files, Options{DropTrees: true, CacheRecords: true})
			lazy := FromFilesWith(ctx, files, Options{DropTrees: true, CacheRecords: true, Lazy: true})
			stamps := stampsOf(full)
			want := saved(t, full, stamps)
			data := saved(t, lazy, stamps)
			if bytes.Equal(data, want) && len(full.Definitions()) > 0 {
				t.Fatal("the lazy build's cache holds what the full one's does: nothing was left out")
			}
			loaded, _, err := LoadCache(ctx, data)
			if err != nil {
				t.Fatal(err)
			}
			for _, ix := range []*Index{lazy, loaded} {
				for _, f := range ix.Files() {
					if f.Lang != LangJSON && f.Src != nil && len(f.Definitions)+len(f.Imports) > 0 && f.lazy == nil {
						t.Fatalf("%s: read whole", f.Path)
					}
				}
			}
			// Before anything reads the IdentRefs or words.
			if again := saved(t, loaded, stamps); !bytes.Equal(again, data) {
				t.Errorf("the loaded lazy index saves other bytes")
			}
			// A lookup of one name reads the files whose text holds it.
			if name == "generated" {
				var table string
				for _, d := range full.Definitions() {
					if d.Table != nil {
						table = d.Name // the last, an ordinary one
					}
				}
				if len(loaded.Places(table)) < 2 || len(full.CodeSites(table)) == 0 {
					t.Fatalf("%s: too few places to tell", table)
				}
				loaded.CodeSites(table)
				unread := 0
				for _, f := range loaded.Files() {
					if f.lazy != nil && !f.lazy.done.Load() {
						unread++
					}
				}
				if unread < len(loaded.Files())/2 {
					t.Errorf("the lookups of %s read all but %d of %d files", table, unread, len(loaded.Files()))
				}
			}
			for _, d := range full.Definitions() {
				targets := []string{d.Name}
				if d.Table != nil {
					for _, c := range d.Table.Columns {
						targets = append(targets, d.Name+"."+c.Schema.Name)
					}
				}
				for _, target := range targets {
					if got, want := loaded.Places(target), full.Places(target); !reflect.DeepEqual(got, want) {
						t.Errorf("places of %s:\n got %v\nwant %v", target, got, want)
					}
					if got, want := loaded.CodeSites(target), full.CodeSites(target); !reflect.DeepEqual(got, want) {
						t.Errorf("code sites of %s:\n got %v\nwant %v", target, got, want)
					}
				}
				if got, want := loaded.References(d.Name), full.References(d.Name); got != want {
					t.Errorf("references of %s: %d, want %d", d.Name, got, want)
				}
			}
			if len(full.Definitions()) > 0 && !loaded.Completes() {
				t.Error("the lookups read no file's IdentRefs")
			}
			for _, f := range loaded.Files() {
				f.IdentRefs() // the files no lookup read
			}
			if got := saved(t, loaded, stamps); !bytes.Equal(got, want) {
				t.Errorf("the loaded lazy index, read, saves other bytes than the full build (%d, want %d)", len(got), len(want))
			}
			// The built lazy index, its files read by several at once,
			// then every file compared whole.
			var wg sync.WaitGroup
			for range 4 {
				wg.Go(func() {
					for _, f := range lazy.Files() {
						f.IdentRefs()
						f.Words()
					}
				})
			}
			wg.Wait()
			for i, f := range full.Files() {
				if why := sameValue(reflect.ValueOf(lazy.Files()[i]), reflect.ValueOf(f), f.Path); why != "" {
					t.Errorf("%s", why)
				}
			}
			if got := saved(t, lazy, stamps); !bytes.Equal(got, want) {
				t.Errorf("the lazy build, read, saves other bytes than the full build")
			}
		})
	}
}
