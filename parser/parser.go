// Package parser reads TypeScript and TSX with tree-sitter. Parsing never
// fails: it returns a tree and the syntax errors in it, as byte spans with
// a short message, which the index turns into T1001 findings.
//
// A tree-sitter parser is not safe for concurrent use, so parsers come
// from a pool, one per goroutine at a time. A *sitter.Tree is not safe for
// concurrent use either (it caches its nodes in a map): walk one tree from
// one goroutine at a time. Trees free their C memory in a finalizer; Close
// them early only where nothing else can hold them.
package parser

import (
	"context"
	"path"
	"runtime"
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"
	"golang.org/x/sync/errgroup"
)

// Grammar is one of the two grammars a project file is parsed with.
type Grammar int

// The grammars: TSX for .tsx files, TypeScript for everything else.
const (
	TypeScript Grammar = iota
	TSX
)

// grammars holds the language and the symbol names of each grammar,
// made once.
var grammars = [2]struct {
	once  sync.Once
	lang  *sitter.Language
	names Names
	pool  sync.Pool
}{}

func (g Grammar) init() {
	gr := &grammars[g]
	gr.once.Do(func() {
		if g == TSX {
			gr.lang = tsx.GetLanguage()
		} else {
			gr.lang = typescript.GetLanguage()
		}
		n := int(gr.lang.SymbolCount())
		gr.names = make(Names, n)
		for i := range n {
			gr.names[i] = gr.lang.SymbolName(sitter.Symbol(i))
		}
		lang := gr.lang
		gr.pool.New = func() any {
			p := sitter.NewParser()
			p.SetLanguage(lang)
			return p
		}
	})
}

// GrammarOf chooses the grammar by the file's extension: TSX for .tsx,
// TypeScript otherwise.
func GrammarOf(filePath string) Grammar {
	if strings.EqualFold(path.Ext(filePath), ".tsx") {
		return TSX
	}
	return TypeScript
}

// Language returns the tree-sitter language of the grammar.
func (g Grammar) Language() *sitter.Language {
	g.init()
	return grammars[g].lang
}

// Names returns the node type names of the grammar, by symbol.
func (g Grammar) Names() Names {
	g.init()
	return grammars[g].names
}

// Names maps a grammar's symbols to node type names. Names.Type(n) equals
// n.Type() without the allocation and the C string copy of every call,
// which matters when a walk looks at every node of a large project.
type Names []string

// Type returns the type name of n, such as "call_expression" or "(".
func (ns Names) Type(n *sitter.Node) string {
	s := int(n.Symbol())
	if s < len(ns) {
		return ns[s]
	}
	return n.Type()
}

// Parse parses src as TypeScript, or TSX where path ends in .tsx. The tree
// is nil only when ctx is done before the parse starts.
func Parse(ctx context.Context, filePath string, src []byte) (*sitter.Tree, []SyntaxError) {
	return parse(ctx, GrammarOf(filePath), nil, src)
}

func parse(ctx context.Context, g Grammar, old *sitter.Tree, src []byte) (*sitter.Tree, []SyntaxError) {
	g.init()
	gr := &grammars[g]
	if ctx.Err() != nil {
		return nil, nil
	}
	p := gr.pool.Get().(*sitter.Parser)
	// The parse is given no context that can be cancelled: for one that
	// can, the binding starts a goroutine that may set the parser's
	// cancellation flag after the parse has ended (its select may pick the
	// cancel over the parse's end when both are ready), and a pooled parser
	// so flagged failed every later parse: its files silently lost their
	// definitions. A parse of even a large file takes well under a second;
	// a done ctx is seen before the next file.
	tree, err := p.ParseCtx(context.Background(), old, src)
	if err != nil {
		// No cancellation flag and no operation limit are set, so this
		// cannot happen; the parser is dropped rather than trusted again.
		return nil, nil
	}
	gr.pool.Put(p)
	return tree, Errors(tree.RootNode(), src)
}

// Source is one file to parse.
type Source struct {
	Path string
	Src  []byte
}

// Result is the parse of one Source.
type Result struct {
	Tree   *sitter.Tree
	Errors []SyntaxError
}

// ParseAll parses the sources in parallel, at most GOMAXPROCS at a time,
// and returns their results in the same order. Results of sources not
// reached before ctx is done have a nil Tree.
func ParseAll(ctx context.Context, srcs []Source) []Result {
	out := make([]Result, len(srcs))
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, s := range srcs {
		if ctx.Err() != nil {
			break
		}
		g.Go(func() error {
			out[i].Tree, out[i].Errors = Parse(ctx, s.Path, s.Src)
			return nil
		})
	}
	_ = g.Wait() // the workers return no errors
	return out
}
