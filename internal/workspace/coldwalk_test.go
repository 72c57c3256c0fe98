package workspace

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/internal/sample"
)

// TestColdWalkBuildsAsBuild holds the index a cold call builds from
// ColdStamps' walk (definitions.Walked: no walk of its own) to a fresh
// Build's, which walks: the same files, .gitignore texts and answers, in
// a folder of .gitignore files at several depths (folder rules, file
// rules, a negation), links to a file, to a folder and out of the
// project, the folders no walk enters, the framework's files and test
// data. Where a .gitignore is a link (which the stat walk does not read
// as Build does) the build walks itself, and still answers the same.
func TestColdWalkBuildsAsBuild(t *testing.T) {
	ctx := context.Background()
	files := map[string]string{
		"project.ts":                 "import { project } from 'tent'\n\nexport default project({ name: 'walk' })\n",
		".gitignore":                 "dist/\n*.gen.ts\n!keep.gen.ts\n",
		"tables/orders.ts":           "import { table, text, ref } from 'tent'\n\nexport const orders = table({\n  columns: {\n    title: text(),\n    buyer: ref('users'),\n  },\n})\n",
		"tables/users.ts":            "import { table, text } from 'tent'\n\nexport const users = table({ columns: { name: text() } })\n",
		"tables/skip.gen.ts":         "export const x = 1\n",
		"tables/keep.gen.ts":         "import { table, text } from 'tent'\n\nexport const kept = table({ columns: { name: text() } })\n",
		"lib/.gitignore":             "private/\nsecret.ts\n",
		"lib/util.ts":                "export function up(s: string) { return s.toUpperCase() }\n",
		"lib/secret.ts":              "export const secret = nope(\n",
		"lib/private/hidden.ts":      "export const hidden = 1\n",
		"lib/deep/a/b/c.ts":          "import { up } from '../../../util'\nexport const c = up('c')\n",
		"lib/deep/a/.gitignore":      "b/c.ts\n",
		"lib/deep/a/b/d.TS":          "export const d = 1\n",
		"dist/out.ts":                "export const out = 1\n",
		"node_modules/pkg/index.ts":  "export const pkg = 1\n",
		"testdata/orders.json":       "[{\"id\": \"o1\", \"title\": \"one\", \"buyer\": \"u1\"}]\n",
		"testdata/users.json":        "[{\"id\": \"u1\", \"name\": \"Ann\"}]\n",
		"tent.d.ts":                  "declare module 'tent' {}\n",
		"functions/broken.ts":        "import { fn } from 'tent'\nexport const broken = fn({ run: (ctx) => { ctx.db.nope.all( } })\n",
		"functions/uses.ts":          "import { fn } from 'tent'\nimport { up } from '../lib/util'\nexport const uses = fn({ run: async (ctx) => up((await ctx.db.orders.get('o1'))!.titel) })\n",
		"outside/elsewhere/other.ts": "export const other = 1\n",
	}
	for _, linkedRules := range []bool{false, true} {
		name := "rules read by the walk"
		if linkedRules {
			name = "a .gitignore that is a link"
		}
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, "proj")
			sample.Write(t, dir, files)
			// What lies outside the project: a link there is no project
			// file the build reads.
			if err := os.Rename(filepath.Join(dir, "outside"), filepath.Join(root, "outside")); err != nil {
				t.Fatal(err)
			}
			for link, to := range map[string]string{
				"functions/alias.ts": "uses.ts",
				"lib/linked":         "deep",
				"tables/out.ts":      "../../outside/elsewhere/other.ts",
			} {
				if err := os.Symlink(to, filepath.Join(dir, link)); err != nil {
					t.Fatal(err)
				}
			}
			if linkedRules {
				p := filepath.Join(dir, "lib", ".gitignore")
				if err := os.Rename(p, filepath.Join(dir, "lib", "rules.txt")); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink("rules.txt", p); err != nil {
					t.Fatal(err)
				}
			}
			want, err := definitions.Build(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			w, err := New(dir, Options{ChecksOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			if w.ColdStamps(ctx) == nil {
				t.Fatal("ColdStamps took no walk")
			}
			if got := w.scannedWalk != nil; got == linkedRules {
				t.Fatalf("the walk kept for the build: %v, want %v", got, !linkedRules)
			}
			ix, err := w.Index(ctx)
			if err != nil {
				t.Fatal(err)
			}
			paths := func(ix *definitions.Index) []string {
				var out []string
				for _, f := range ix.SortedFiles() {
					out = append(out, f.Path)
				}
				return out
			}
			if got, want := paths(ix), paths(want); !slices.Equal(got, want) {
				t.Fatalf("the cold build holds %v, a Build %v", got, want)
			}
			for _, p := range []string{"functions/alias.ts", "lib/util.ts", "tables/keep.gen.ts", "lib/deep/a/b/d.TS"} {
				if ix.File(p) == nil {
					t.Errorf("the index lacks %s", p)
				}
			}
			gotRules, wantRules := ix.IgnoreFiles(), want.IgnoreFiles()
			if len(gotRules) != len(wantRules) {
				t.Fatalf("the cold build follows %d .gitignore files, a Build %d", len(gotRules), len(wantRules))
			}
			for p, src := range wantRules {
				if string(gotRules[p]) != string(src) {
					t.Errorf("the cold build's %s is %q, a Build's %q", p, gotRules[p], src)
				}
			}
			for _, p := range []string{"lib/private/x.ts", "tables/a.gen.ts", "dist/y.ts", "lib/deep/a/b/c.ts"} {
				if ix.Indexes(p) != want.Indexes(p) {
					t.Errorf("Indexes(%s) is %v, a Build's %v", p, ix.Indexes(p), want.Indexes(p))
				}
			}
			if got, want := answersOf(t, ix), answersOf(t, want); got != want {
				t.Fatalf("the cold build answers otherwise than a Build at %s", firstDiff(got, want))
			}
			if !strings.Contains(answersOf(t, ix), "T2506") {
				t.Error("the project's finding (a row's unknown column) is missing: the test checks nothing")
			}
		})
	}
}
