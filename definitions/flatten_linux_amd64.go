//go:build linux && amd64

package definitions

// This file is flatten's fast path, on linux/amd64 only, where it is
// tested (TestDirectWalk, TestFlattenMatchesBinding): the walk is one call
// into C, which reads tree-sitter's own structures where their layout is
// the one declared below (checked on a sample at the first walk) and uses
// tree-sitter's cursor elsewhere. Every other platform walks with the
// binding (flatten_portable.go).

/*
// The C side of flatten: a walk of a whole tree in one cgo call. The
// tree-sitter functions are those of go-tree-sitter's C library, linked
// into the same binary; they are declared here, with the layouts of
// TSNode and TSTreeCursor of its api.h, because its headers are not on
// this package's include path. The linker flag (GNU ld's) lets the link
// step that cgo runs for this package alone pass without that library;
// the final link of a binary has it, and fails where a symbol is missing.
#cgo LDFLAGS: -Wl,--unresolved-symbols=ignore-all
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

typedef struct { uint32_t context[4]; const void *id; const void *tree; } TSNode;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } TSTreeCursor;
extern TSTreeCursor ts_tree_cursor_new(TSNode);
extern void ts_tree_cursor_delete(TSTreeCursor *);
extern TSNode ts_tree_cursor_current_node(const TSTreeCursor *);
extern bool ts_tree_cursor_goto_first_child(TSTreeCursor *);
extern bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *);
extern bool ts_tree_cursor_goto_parent(TSTreeCursor *);
extern uint16_t ts_node_symbol(TSNode);
extern uint16_t ts_language_public_symbol(const void *, uint16_t);
extern uint32_t ts_node_start_byte(TSNode);
extern uint32_t ts_node_end_byte(TSNode);
extern uint32_t ts_node_child_count(TSNode);

// flat_node has the layout of snode in Go.
typedef struct {
	uint8_t kind;
	uint8_t named;
	uint16_t sym;
	int32_t start, end, parent, first, next;
} flat_node;

// sym_info has the layout of symInfo in Go: what a walk writes of a
// node of each symbol, and whether it keeps a leaf of it.
typedef struct {
	uint8_t kind, named, keep, var;
} sym_info;

// walk_info is what the walks know of the grammar's symbols: info[sym]
// for each sym below n (a symbol past them, ERROR, is kept with the kind
// error_kind, named); info NULL keeps every node and writes no kind.
typedef struct {
	const sym_info *info;
	int32_t n;
	uint8_t error_kind;
	uint8_t has_var; // set by the walk: a node of a symbol marked var
} walk_info;

// note writes the kind and named of symbol sym into o (whether a leaf of
// it is kept is kept's).
static inline void note(walk_info *w, flat_node *o, uint16_t sym) {
	if (!w->info) {
		o->kind = 0;
		o->named = 0;
		return;
	}
	if (sym >= w->n) {
		o->kind = w->error_kind;
		o->named = 1;
		return;
	}
	const sym_info *si = &w->info[sym];
	o->kind = si->kind;
	o->named = si->named;
	w->has_var |= si->var;
}

// kept reports whether a leaf of symbol sym is kept.
static inline bool kept(const walk_info *w, uint16_t sym) {
	return !w->info || sym >= w->n || w->info[sym].keep;
}

// flat_walk writes the nodes under root in pre-order into out (at most
// cap of them), linked to their parent, first child and next sibling, and
// returns how many there are: more than cap means the caller should try
// again with more room. A leaf whose symbol w does not keep is left out.
static int flat_walk_with(TSNode root, flat_node *out, int cap, walk_info *w) {
	TSTreeCursor c = ts_tree_cursor_new(root);
	int n = 0;
	int32_t parent = -1, prev = -1; // prev: the previous sibling, or -1
	for (;;) {
		TSNode nd = ts_tree_cursor_current_node(&c);
		uint16_t sym = ts_node_symbol(nd);
		bool leaf = ts_node_child_count(nd) == 0;
		if (!leaf || kept(w, sym)) {
			int32_t cur = n++;
			if (cur < cap) {
				flat_node *o = &out[cur];
				note(w, o, sym);
				o->sym = sym;
				o->start = (int32_t)ts_node_start_byte(nd);
				o->end = (int32_t)ts_node_end_byte(nd);
				o->parent = parent;
				o->first = -1;
				o->next = -1;
				if (prev >= 0) {
					out[prev].next = cur;
				} else if (parent >= 0 && parent < cap) {
					out[parent].first = cur;
				}
			}
			if (!leaf && ts_tree_cursor_goto_first_child(&c)) {
				parent = cur;
				prev = -1;
				continue;
			}
			prev = cur;
		}
		for (;;) {
			if (ts_tree_cursor_goto_next_sibling(&c)) {
				break;
			}
			if (!ts_tree_cursor_goto_parent(&c)) {
				ts_tree_cursor_delete(&c);
				return n;
			}
			prev = parent;
			parent = (parent >= 0 && parent < cap) ? out[parent].parent : -1;
		}
		if (prev >= cap) {
			prev = -1;
		}
	}
}

// The direct walk. tree-sitter's cursor spends most of a walk on what
// flatten does not need (rows and columns, descendant counts, a TSNode
// and three calls for each node), so flat_walk_direct reads the subtrees
// themselves. These are the layouts of subtree.h, parser.h and tree.h of
// the tree-sitter that go-tree-sitter vendors (language version 14), for
// little-endian machines. A layout that differs is caught before any
// walk: flatten walks a sample both ways once and uses the cursor where
// they disagree (directWalkWorks).
typedef struct { uint32_t bytes; uint32_t row, column; } ts_length;

typedef struct {
	bool is_inline : 1;
	bool visible : 1;
	bool named : 1;
	bool extra : 1;
	bool has_changes : 1;
	bool is_missing : 1;
	bool is_keyword : 1;
	uint8_t symbol;
	uint16_t parse_state;
	uint8_t padding_columns;
	uint8_t padding_rows : 4;
	uint8_t lookahead_bytes : 4;
	uint8_t padding_bytes;
	uint8_t size_bytes;
} ts_inline;

typedef struct {
	volatile uint32_t ref_count;
	ts_length padding;
	ts_length size;
	uint32_t lookahead_bytes;
	uint32_t error_cost;
	uint32_t child_count;
	uint16_t symbol;
	uint16_t parse_state;
	bool visible : 1;
	bool named : 1;
	bool extra : 1;
	bool fragile_left : 1;
	bool fragile_right : 1;
	bool has_changes : 1;
	bool has_external_tokens : 1;
	bool has_external_scanner_state_change : 1;
	bool depends_on_column: 1;
	bool is_missing : 1;
	bool is_keyword : 1;
	union {
		struct {
			uint32_t visible_child_count;
			uint32_t named_child_count;
			uint32_t visible_descendant_count;
			int32_t dynamic_precedence;
			uint16_t repeat_depth;
			uint16_t production_id;
			struct { uint16_t symbol; uint16_t parse_state; } first_leaf;
		};
		struct { union { char *long_data; char short_data[24]; }; uint32_t length; } external_scanner_state;
		int32_t lookahead_char;
	};
} ts_heap;

typedef union { ts_inline data; const ts_heap *ptr; } ts_subtree;

// ts_language_head is the start of TSLanguage, up to the alias sequences.
typedef struct {
	uint32_t version, symbol_count, alias_count, token_count, external_token_count,
		state_count, large_state_count, production_id_count, field_count;
	uint16_t max_alias_sequence_length;
	const void *parse_table, *small_parse_table, *small_parse_table_map, *parse_actions,
		*symbol_names, *field_names, *field_map_slices, *field_map_entries, *symbol_metadata;
	const uint16_t *public_symbol_map;
	const uint16_t *alias_map;
	const uint16_t *alias_sequences;
} ts_language_head;

// ts_tree_head is the start of TSTree.
typedef struct { ts_subtree root; const ts_language_head *language; } ts_tree_head;

static inline uint32_t st_padding(ts_subtree s) { return s.data.is_inline ? s.data.padding_bytes : s.ptr->padding.bytes; }
static inline uint32_t st_size(ts_subtree s) { return s.data.is_inline ? s.data.size_bytes : s.ptr->size.bytes; }
static inline bool st_visible(ts_subtree s) { return s.data.is_inline ? s.data.visible : s.ptr->visible; }
static inline bool st_extra(ts_subtree s) { return s.data.is_inline ? s.data.extra : s.ptr->extra; }
static inline uint16_t st_symbol(ts_subtree s) { return s.data.is_inline ? s.data.symbol : s.ptr->symbol; }
static inline uint32_t st_child_count(ts_subtree s) { return s.data.is_inline ? 0 : s.ptr->child_count; }

// walk_frame is a subtree whose children are being walked. Its children
// belong to the visible node parent; owner is the frame that holds that
// node's last child so far (itself where the subtree is that node).
typedef struct {
	const ts_heap *node;
	const uint16_t *aliases;
	uint32_t i, structural, pos;
	int32_t parent, prev, owner;
} walk_frame;

static const uint16_t *alias_sequence(const ts_language_head *lang, const ts_heap *node) {
	uint16_t id = node->production_id;
	return id ? &lang->alias_sequences[id * lang->max_alias_sequence_length] : NULL;
}

// flat_walk_direct is flat_walk over the subtrees: the same nodes, in the
// same order, with the same links. It returns -1 where it cannot get
// memory for its stack.
static int flat_walk_direct_with(TSNode root, flat_node *out, int cap, walk_info *w) {
	const ts_tree_head *tree = (const ts_tree_head *)root.tree;
	const ts_language_head *lang = tree->language;
	const ts_subtree *rs = (const ts_subtree *)root.id;
	int n = 1;
	if (cap > 0) {
		flat_node *o = &out[0];
		o->sym = ts_node_symbol(root);
		note(w, o, o->sym);
		o->start = (int32_t)root.context[0];
		o->end = (int32_t)(root.context[0] + st_size(*rs));
		o->parent = -1;
		o->first = -1;
		o->next = -1;
	}
	if (st_child_count(*rs) == 0) {
		return n;
	}
	int depth = 64, top = 0;
	walk_frame *frames = malloc(depth * sizeof(walk_frame));
	if (!frames) {
		return -1;
	}
	frames[0] = (walk_frame){rs->ptr, alias_sequence(lang, rs->ptr), 0, 0, root.context[0], 0, -1, 0};
	while (top >= 0) {
		walk_frame *f = &frames[top];
		if (f->i == f->node->child_count) {
			top--;
			continue;
		}
		const ts_subtree *children = (const ts_subtree *)f->node - f->node->child_count;
		ts_subtree c = children[f->i];
		if (f->i > 0) {
			f->pos += st_padding(c);
		}
		uint32_t start = f->pos;
		f->pos += st_size(c);
		f->i++;
		bool visible = st_visible(c);
		uint16_t alias = 0;
		if (!st_extra(c)) {
			if (f->aliases) {
				alias = f->aliases[f->structural];
				if (alias) {
					visible = true;
				}
			}
			f->structural++;
		}
		int32_t parent = f->parent, owner = f->owner;
		uint32_t count = st_child_count(c);
		if (visible) {
			uint16_t sym = ts_language_public_symbol((const void *)lang, alias ? alias : st_symbol(c));
			// A node without visible children is a leaf, as the cursor
			// sees it.
			if ((count == 0 || c.ptr->visible_child_count == 0) && !kept(w, sym)) {
				continue;
			}
			int32_t cur = n++;
			int32_t *prev = &frames[owner].prev;
			if (*prev >= 0) {
				if (*prev < cap) {
					out[*prev].next = cur;
				}
			} else if (parent < cap) {
				out[parent].first = cur;
			}
			*prev = cur;
			if (cur < cap) {
				flat_node *o = &out[cur];
				note(w, o, sym);
				o->sym = sym;
				o->start = (int32_t)start;
				o->end = (int32_t)(start + st_size(c));
				o->parent = parent;
				o->first = -1;
				o->next = -1;
			}
			parent = cur;
		} else if (count == 0 || c.ptr->visible_child_count == 0) {
			continue;
		}
		if (count == 0) {
			continue;
		}
		if (top + 1 == depth) {
			depth *= 2;
			walk_frame *grown = realloc(frames, depth * sizeof(walk_frame));
			if (!grown) {
				free(frames);
				return -1;
			}
			frames = grown;
		}
		top++;
		// A visible node owns its children; a hidden one passes them to
		// the owner of its own place.
		frames[top] = (walk_frame){c.ptr, alias_sequence(lang, c.ptr), 0, 0, start, parent, -1, visible ? top : owner};
	}
	free(frames);
	return n;
}

// flat_walk and flat_walk_direct are the walks as Go calls them: told of
// the grammar's symbols by info (ninfo of them; NULL: every node kept,
// no kind written), with the kind of an ERROR, and setting *has_var
// where a node of a symbol marked var is met.
static int flat_walk(TSNode root, flat_node *out, int cap, const sym_info *info, int32_t ninfo, uint8_t error_kind, uint8_t *has_var) {
	walk_info w = {info, ninfo, error_kind, 0};
	int n = flat_walk_with(root, out, cap, &w);
	*has_var = w.has_var;
	return n;
}

static int flat_walk_direct(TSNode root, flat_node *out, int cap, const sym_info *info, int32_t ninfo, uint8_t error_kind, uint8_t *has_var) {
	walk_info w = {info, ninfo, error_kind, 0};
	int n = flat_walk_direct_with(root, out, cap, &w);
	*has_var = w.has_var;
	return n;
}
*/
import "C"

import (
	"context"
	"runtime"
	"slices"
	"sync"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/tent-tools/tent-tools/parser"
)

// layoutsCopiedFrom is the go-tree-sitter whose headers the layouts above
// were copied from. It buys its place: check cold at 1,000 tables took a
// median 6.8 s with it and 12.5 s with the portable walk (10 interleaved
// runs). TestLayoutsOfVendoredTreeSitter fails for any other version, or
// for headers that differ, until the layouts are compared again.
const layoutsCopiedFrom = "v0.0.0-20240827094217-dd81d9e9be82"

// snode and C's flat_node must have the same size (flat_walk writes
// snodes); a difference either way fails the build here.
var (
	_ [unsafe.Sizeof(snode{}) - C.sizeof_flat_node]byte
	_ [C.sizeof_flat_node - unsafe.Sizeof(snode{})]byte
)

// symInfo must have the layout of C's sym_info, which the walks read.
var (
	_ [unsafe.Sizeof(symInfo{}) - C.sizeof_sym_info]byte
	_ [C.sizeof_sym_info - unsafe.Sizeof(symInfo{})]byte
)

// flatWalk is the walk flatten copies a tree with (see flatWalkGo), in one
// call into C. root's first field is the C TSNode (go-tree-sitter's Node
// is `struct{ c C.TSNode; t *Tree }`).
func flatWalk(root *sitter.Node, out []snode, g *grammar) (int, bool) {
	node := *(*C.TSNode)(unsafe.Pointer(root))
	var first *C.flat_node
	if len(out) > 0 {
		first = (*C.flat_node)(unsafe.Pointer(&out[0]))
	}
	w := walkInfo(g)
	n := cWalk()(node, first, C.int(len(out)), &w)
	runtime.KeepAlive(root)
	runtime.KeepAlive(out)
	runtime.KeepAlive(g)
	return n, w.hasVar != 0
}

// cInfo is what the C walks are told of a grammar's symbols (see
// flat_walk), and hasVar what they tell back.
type cInfo struct {
	info   *C.sym_info
	n      C.int32_t
	hasVar C.uint8_t
}

// walkInfo is what the C walks are told of grammar g (nil: keep every
// node, write no kind).
func walkInfo(g *grammar) cInfo {
	var w cInfo
	if g != nil && len(g.info) > 0 {
		w.info, w.n = (*C.sym_info)(unsafe.Pointer(&g.info[0])), C.int32_t(len(g.info))
	}
	return w
}

// cWalk returns the C walk to flatten with: the direct one where it
// gives what the cursor gives on a sample of both grammars, else the
// cursor's.
var cWalk = sync.OnceValue(func() func(C.TSNode, *C.flat_node, C.int, *cInfo) int {
	cursor := func(root C.TSNode, out *C.flat_node, n C.int, w *cInfo) int {
		return int(C.flat_walk(root, out, n, w.info, w.n, C.uint8_t(kindError), &w.hasVar))
	}
	if !directWalkWorks() {
		return cursor
	}
	return func(root C.TSNode, out *C.flat_node, n C.int, w *cInfo) int {
		if got := int(C.flat_walk_direct(root, out, n, w.info, w.n, C.uint8_t(kindError), &w.hasVar)); got >= 0 {
			return got
		}
		return cursor(root, out, n, w) // no memory for the direct walk's stack
	}
})

// walkSample holds what the direct walk must get right: aliases (a
// shorthand pattern, a JSX tag), hidden nodes, comments and other extras
// between children, a syntax error and a missing token, text that is not
// ASCII, and padding on the root.
const walkSample = `
  // comment
import { a, b as c } from './x'
export const t = table({ columns: { n: text(), r: ref('é') }, /* note */ may: { read: (ctx, { id }) => ctx.db.t.where({ id }) } })
function f<T>(x: T, ...rest: T[]): T { for (const [k, v] of Object.entries(x)) { try { g(k) } catch (e) { h(` + "`${e}`" + `) } } return x }
class C extends B { #p = 1; static m() { return new.target } }
const v = <Page title="x">{rows.map((r) => <Row key={r.id} />)}</Page>
let broken = (1 +
`

// directWalkWorks reports whether the direct walk gives what the cursor
// gives on walkSample, in both grammars, keeping every node and keeping
// what flatten keeps.
func directWalkWorks() bool {
	ts, tsxg := grammars()
	for _, sample := range []struct {
		path string
		g    *grammar
	}{{"sample.ts", ts}, {"sample.tsx", tsxg}} {
		tree, _ := parser.Parse(context.Background(), sample.path, []byte(walkSample))
		if tree == nil {
			return false
		}
		same := sameWalks(tree.RootNode(), nil) && sameWalks(tree.RootNode(), sample.g)
		tree.Close()
		if !same {
			return false
		}
	}
	return true
}

// sameWalks reports whether flat_walk and flat_walk_direct give the same
// nodes for the tree under root, told of g (nil: every node).
func sameWalks(root *sitter.Node, g *grammar) bool {
	node := *(*C.TSNode)(unsafe.Pointer(root))
	w1, w2 := walkInfo(g), walkInfo(g)
	n := int(C.flat_walk(node, nil, 0, w1.info, w1.n, C.uint8_t(kindError), &w1.hasVar))
	want, got := make([]snode, n+1), make([]snode, n+1)
	n = int(C.flat_walk(node, (*C.flat_node)(unsafe.Pointer(&want[0])), C.int(len(want)), w1.info, w1.n, C.uint8_t(kindError), &w1.hasVar))
	m := int(C.flat_walk_direct(node, (*C.flat_node)(unsafe.Pointer(&got[0])), C.int(len(got)), w2.info, w2.n, C.uint8_t(kindError), &w2.hasVar))
	runtime.KeepAlive(root)
	runtime.KeepAlive(g)
	return n == m && w1.hasVar == w2.hasVar && slices.Equal(want, got)
}
