package runner

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"strings"
	"sync"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/runner/jslib"
)

// The esbuild namespaces of the modules a bundle holds: the project's own
// files, and the modules the runner ships.
const (
	nsProject = "project"
	nsTent    = "tent"
)

// exportsGlobal is the global variable a bundle assigns its entry's exports to.
const exportsGlobal = "__tent_exports"

// Source gives the text of project files, by slash-separated path relative
// to the project root. A file that is not there answers ok == false.
type Source interface {
	ReadFile(path string) (src []byte, ok bool)
}

// bundle is one entry file bundled with every project file it imports, as
// an IIFE that assigns the entry's exports to exportsGlobal, with an inline
// source map.
type bundle struct {
	Entry string `json:"entry"`
	Code  string `json:"code"`
	// Inputs maps each module the bundle holds ("project:lib/money.ts") to
	// the content hash it was built from.
	Inputs map[string]string `json:"inputs"`
}

// fresh reports whether every input of b still has the content it was built from.
func (b *bundle) fresh(src Source) bool {
	for name, h := range b.Inputs {
		if h != inputHash(src, name) {
			return false
		}
	}
	return true
}

// heldBy reports whether every input of b is a shipped module or a file
// that the snapshot ss holds, so that b cannot go stale within it.
func (b *bundle) heldBy(ss snapshotSource) bool {
	for name := range b.Inputs {
		if p, ok := strings.CutPrefix(name, nsProject+":"); ok && !ss.holds(p) {
			return false
		}
	}
	return true
}

// inputHash is the content hash of a bundle input as it is now ("" when the
// file is gone).
func inputHash(src Source, name string) string {
	if p, ok := strings.CutPrefix(name, nsProject+":"); ok {
		text, ok := src.ReadFile(p)
		if !ok {
			return ""
		}
		return hashBytes(text)
	}
	if p, ok := strings.CutPrefix(name, nsTent+":"); ok {
		text, ok := jslib.Module(p)
		if !ok {
			return ""
		}
		return hashBytes([]byte(text))
	}
	return ""
}

// hashBytes is a short hex SHA-256 of b.
func hashBytes(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:12])
}

// buildBundle bundles the project file entry with esbuild. A file that does
// not build (a syntax error, an import of something that is neither 'tent',
// 'tent/ui' nor a project file) is a *diag.ToolError T1001 naming the
// first problem at its file and line.
func buildBundle(src Source, entry string) (*bundle, error) {
	var mu sync.Mutex
	inputs := map[string]string{}
	record := func(name string, text []byte) {
		mu.Lock()
		inputs[name] = hashBytes(text)
		mu.Unlock()
	}
	res := api.Build(api.BuildOptions{
		EntryPoints: []string{entry},
		Bundle:      true,
		Write:       false,
		Format:      api.FormatIIFE,
		GlobalName:  exportsGlobal,
		Platform:    api.PlatformNeutral,
		Target:      api.ES2017,
		Sourcemap:   api.SourceMapInline,
		// The app's sources stay out of the map: positions are all a stack needs.
		SourcesContent:  api.SourcesContentExclude,
		JSX:             api.JSXAutomatic,
		JSXImportSource: "tent/ui",
		Outfile:         "/bundle.js",
		LogLevel:        api.LogLevelSilent,
		Plugins:         []api.Plugin{projectPlugin(src, record)},
	})
	if len(res.Errors) > 0 {
		return nil, buildError(entry, res.Errors)
	}
	if len(res.OutputFiles) != 1 {
		return nil, fmt.Errorf("bundle %s: esbuild wrote %d files, want 1", entry, len(res.OutputFiles))
	}
	return &bundle{Entry: entry, Code: string(res.OutputFiles[0].Contents), Inputs: inputs}, nil
}

// buildError turns esbuild's messages into one tool error at the first
// message's place.
func buildError(entry string, msgs []api.Message) *diag.ToolError {
	m := msgs[0]
	where := entry
	if l := m.Location; l != nil {
		file := strings.TrimPrefix(l.File, nsProject+":")
		where = fmt.Sprintf("%s:%d:%d", file, l.Line, l.Column+1)
	}
	e := diag.Errorf(diag.T1001, "%s does not build: %s: %s", entry, where, m.Text)
	if len(msgs) > 1 {
		e.With("more", len(msgs)-1)
	}
	return e
}

// projectPlugin resolves every import of a bundle: 'tent', 'tent/ui' and
// 'tent/ui/jsx-runtime' to the runner's own modules, relative imports to
// project files read from src, and refuses everything else, so app code can
// reach no host module and no file outside the project.
func projectPlugin(src Source, record func(name string, text []byte)) api.Plugin {
	return api.Plugin{
		Name: "tent",
		Setup: func(b api.PluginBuild) {
			b.OnResolve(api.OnResolveOptions{Filter: ".*"}, func(args api.OnResolveArgs) (api.OnResolveResult, error) {
				if args.Kind == api.ResolveEntryPoint {
					// esbuild writes "./" before an entry that exists
					// beside the process's working folder.
					p := path.Clean(args.Path)
					if _, ok := src.ReadFile(p); !ok {
						return api.OnResolveResult{}, fmt.Errorf("no file %s", p)
					}
					return api.OnResolveResult{Path: p, Namespace: nsProject}, nil
				}
				if _, ok := jslib.Module(args.Path); ok {
					return api.OnResolveResult{Path: args.Path, Namespace: nsTent}, nil
				}
				if !strings.HasPrefix(args.Path, "./") && !strings.HasPrefix(args.Path, "../") {
					return api.OnResolveResult{}, fmt.Errorf("cannot import %q: app code may import only 'tent', 'tent/ui' and the project's own files", args.Path)
				}
				from := args.Importer
				if args.Namespace != nsProject {
					return api.OnResolveResult{}, fmt.Errorf("cannot import %q from %s", args.Path, from)
				}
				p, err := resolveRelative(src, from, args.Path)
				if err != nil {
					return api.OnResolveResult{}, err
				}
				return api.OnResolveResult{Path: p, Namespace: nsProject}, nil
			})
			b.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: nsProject}, func(args api.OnLoadArgs) (api.OnLoadResult, error) {
				text, ok := src.ReadFile(args.Path)
				if !ok {
					return api.OnLoadResult{}, fmt.Errorf("cannot read %s", args.Path)
				}
				record(nsProject+":"+args.Path, text)
				s := string(text)
				return api.OnLoadResult{Contents: &s, Loader: loaderFor(args.Path)}, nil
			})
			b.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: nsTent}, func(args api.OnLoadArgs) (api.OnLoadResult, error) {
				s, _ := jslib.Module(args.Path)
				record(nsTent+":"+args.Path, []byte(s))
				return api.OnLoadResult{Contents: &s, Loader: api.LoaderJS}, nil
			})
		},
	}
}

// resolveRelative finds the project file that the relative import spec
// names from the project file from, the way TypeScript would: the path
// itself, then with an extension, then as a folder's index; an import
// written with .js may name a .ts file. A path that leaves the project is refused.
func resolveRelative(src Source, from, spec string) (string, error) {
	base := path.Join(path.Dir(from), spec)
	if base == ".." || strings.HasPrefix(base, "../") {
		return "", fmt.Errorf("cannot import %q from %s: it leaves the project", spec, from)
	}
	var tries []string
	if ext := path.Ext(base); ext == ".js" || ext == ".jsx" || ext == ".mjs" {
		stem := strings.TrimSuffix(base, ext)
		tries = append(tries, stem+".ts", stem+".tsx")
	}
	tries = append(tries, base)
	for _, ext := range resolveExts {
		tries = append(tries, base+ext)
	}
	for _, ext := range resolveExts {
		tries = append(tries, base+"/index"+ext)
	}
	for _, p := range tries {
		if _, ok := src.ReadFile(p); ok {
			return p, nil
		}
	}
	return "", fmt.Errorf("cannot import %q from %s: no such project file", spec, from)
}

// resolveExts are the extensions an import may leave out, in the order tried.
var resolveExts = []string{".ts", ".tsx", ".js", ".jsx", ".mjs", ".json"}

// loaderFor picks esbuild's loader by a file's extension.
func loaderFor(p string) api.Loader {
	switch path.Ext(p) {
	case ".ts", ".mts":
		return api.LoaderTS
	case ".tsx":
		return api.LoaderTSX
	case ".jsx":
		return api.LoaderJSX
	case ".json":
		return api.LoaderJSON
	}
	return api.LoaderJS
}
