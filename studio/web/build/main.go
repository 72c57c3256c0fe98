// Command build bundles the page of tent-tools studio: the TypeScript of
// studio/web/src and the libraries studio/web/node_modules holds (npm ci, as
// package-lock.json pins them) into studio/web/dist, with esbuild's Go API,
// so no node is needed to build the bundle and none to build the binary (the
// bundle is committed; package studio embeds it).
//
//	go run ./studio/web/build          # writes studio/web/dist
//	go run ./studio/web/build -check   # exits 1 where dist differs from a fresh build
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"

	"github.com/evanw/esbuild/pkg/api"
)

func main() {
	check := flag.Bool("check", false, "compare studio/web/dist with a fresh build instead of writing it")
	dir := flag.String("dir", webDir(), "the studio/web folder")
	flag.Parse()
	files, err := bundle(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "build:", err)
		os.Exit(1)
	}
	dist := filepath.Join(*dir, "dist")
	if *check {
		if diff := compare(dist, files); len(diff) > 0 {
			for _, d := range diff {
				fmt.Fprintln(os.Stderr, "build:", d)
			}
			os.Exit(1)
		}
		return
	}
	if err := write(dist, files); err != nil {
		fmt.Fprintln(os.Stderr, "build:", err)
		os.Exit(1)
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Printf("%8d  dist/%s\n", len(files[n]), n)
	}
}

// webDir is studio/web, found from this file's place in the module.
func webDir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "studio/web"
	}
	return filepath.Dir(filepath.Dir(file))
}

// bundle builds the page from dir/src: app.js and app.css from main.tsx,
// layout.js (the layout worker) from layoutworker.ts, and index.html as
// written. It answers the files by their names in dist.
func bundle(dir string) (map[string][]byte, error) {
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@dagrejs", "dagre", "package.json")); err != nil {
		return nil, fmt.Errorf("%s/node_modules lacks the page's libraries: run npm ci there (.ci/setup.d/70-studio-web.sh)", dir)
	}
	src := filepath.Join(dir, "src")
	res := api.Build(api.BuildOptions{
		AbsWorkingDir: dir,
		EntryPointsAdvanced: []api.EntryPoint{
			{InputPath: filepath.Join(src, "main.tsx"), OutputPath: "app"},
			{InputPath: filepath.Join(src, "layoutworker.ts"), OutputPath: "layout"},
		},
		Outdir:            filepath.Join(dir, "dist"),
		Bundle:            true,
		Write:             false,
		Format:            api.FormatIIFE,
		Target:            api.ES2020,
		Platform:          api.PlatformBrowser,
		JSX:               api.JSXAutomatic,
		JSXImportSource:   "preact",
		MinifyWhitespace:  true,
		MinifyIdentifiers: true,
		MinifySyntax:      true,
		LegalComments:     api.LegalCommentsEndOfFile,
		Charset:           api.CharsetUTF8,
		LogLevel:          api.LogLevelSilent,
	})
	if len(res.Errors) > 0 {
		msgs := api.FormatMessages(res.Errors, api.FormatMessagesOptions{Kind: api.ErrorMessage})
		return nil, fmt.Errorf("esbuild: %d errors:\n%s", len(res.Errors), bytes.Join(toBytes(msgs), nil))
	}
	files := map[string][]byte{}
	for _, f := range res.OutputFiles {
		rel, err := filepath.Rel(filepath.Join(dir, "dist"), f.Path)
		if err != nil {
			return nil, err
		}
		files[filepath.ToSlash(rel)] = f.Contents
	}
	html, err := os.ReadFile(filepath.Join(src, "index.html"))
	if err != nil {
		return nil, err
	}
	files["index.html"] = html
	return files, nil
}

func toBytes(ss []string) [][]byte {
	out := make([][]byte, len(ss))
	for i, s := range ss {
		out[i] = []byte(s)
	}
	return out
}

// compare lists how dist differs from files: a file missing, extra or other.
func compare(dist string, files map[string][]byte) []string {
	var diff []string
	have := map[string]bool{}
	entries, _ := os.ReadDir(dist)
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		have[e.Name()] = true
		want, ok := files[e.Name()]
		got, err := os.ReadFile(filepath.Join(dist, e.Name()))
		switch {
		case !ok:
			diff = append(diff, fmt.Sprintf("dist/%s is no output of the build", e.Name()))
		case err != nil:
			diff = append(diff, err.Error())
		case !bytes.Equal(got, want):
			diff = append(diff, fmt.Sprintf("dist/%s differs from a fresh build (%d bytes, fresh %d): run go run ./studio/web/build", e.Name(), len(got), len(want)))
		}
	}
	for n := range files {
		if !have[n] {
			diff = append(diff, fmt.Sprintf("dist/%s is missing: run go run ./studio/web/build", n))
		}
	}
	sort.Strings(diff)
	return diff
}

// write replaces dist's files with files.
func write(dist string, files map[string][]byte) error {
	if err := os.MkdirAll(dist, 0o755); err != nil {
		return err
	}
	entries, _ := os.ReadDir(dist)
	for _, e := range entries {
		if _, ok := files[e.Name()]; !ok && !e.IsDir() {
			if err := os.Remove(filepath.Join(dist, e.Name())); err != nil {
				return err
			}
		}
	}
	for n, b := range files {
		if err := os.WriteFile(filepath.Join(dist, n), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
