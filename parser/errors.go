package parser

import (
	"strings"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"
)

// SyntaxError is one syntax error of a file: a byte span and a short
// message such as "unexpected `}`" or "missing `)`".
type SyntaxError struct {
	Start, End int
	Message    string
}

// MaxErrors is how many syntax errors Errors lists for one file. A file
// that is mostly not TypeScript would otherwise give one per token.
const MaxErrors = 20

// Errors lists the syntax errors of the tree rooted at root, in text order:
// each innermost ERROR node as "unexpected `text`", each MISSING node as
// "missing `token`". Past MaxErrors, the list ends with one error that says
// more follow. Only subtrees that hold an error are visited.
func Errors(root *sitter.Node, src []byte) []SyntaxError {
	if root == nil || !root.HasError() {
		return nil
	}
	var out []SyntaxError
	c := sitter.NewTreeCursor(root)
	defer c.Close()
	for {
		n := c.CurrentNode()
		descend := false
		switch {
		case n.IsMissing():
			out = append(out, missing(n))
		case n.IsError():
			if e, ok := bracketError(n); ok {
				out = append(out, e)
			} else if holdsError(n) {
				descend = true
			} else {
				out = append(out, unexpected(n, src))
			}
		case n.HasError():
			descend = true
		}
		if len(out) > MaxErrors {
			out = out[:MaxErrors]
			last := &out[MaxErrors-1]
			last.Message += " (more syntax errors follow; fix these first)"
			return out
		}
		if descend && c.GoToFirstChild() {
			continue
		}
		for !c.GoToNextSibling() {
			if !c.GoToParent() {
				return out
			}
		}
	}
}

// holdsError reports whether a child of n holds an error of its own.
func holdsError(n *sitter.Node) bool {
	c := sitter.NewTreeCursor(n)
	defer c.Close()
	for ok := c.GoToFirstChild(); ok; ok = c.GoToNextSibling() {
		if c.CurrentNode().HasError() {
			return true
		}
	}
	return false
}

// closers pairs each bracket token with the one that closes it.
var closers = map[string]string{"(": ")", "[": "]", "{": "}", "${": "}"}

// bracketError finds, in the tokens of an ERROR node, the first closing
// bracket that closes nothing, or else the last bracket opened and never
// closed. tree-sitter often wraps a whole statement in one ERROR when a
// bracket is wrong, where "unexpected" and the statement's first token
// would point at the wrong place. It looks at no more than maxTokens.
func bracketError(n *sitter.Node) (SyntaxError, bool) {
	const maxTokens = 10000
	type open struct {
		tok        string
		start, end int
	}
	var stack []open
	c := sitter.NewTreeCursor(n)
	defer c.Close()
	for seen := 0; seen < maxTokens; seen++ {
		if !c.GoToFirstChild() {
			leaf := c.CurrentNode()
			if !leaf.IsNamed() && !leaf.IsMissing() {
				tok := leaf.Type()
				if _, ok := closers[tok]; ok {
					stack = append(stack, open{tok, int(leaf.StartByte()), int(leaf.EndByte())})
				} else if isCloser(tok) {
					if len(stack) == 0 || closers[stack[len(stack)-1].tok] != tok {
						at := int(leaf.StartByte())
						return SyntaxError{Start: at, End: int(leaf.EndByte()), Message: "unexpected `" + tok + "`"}, true
					}
					stack = stack[:len(stack)-1]
				}
			}
			for !c.GoToNextSibling() {
				if !c.GoToParent() || c.CurrentNode().Equal(n) {
					goto done
				}
			}
		}
	}
done:
	if len(stack) == 0 {
		return SyntaxError{}, false
	}
	o := stack[len(stack)-1]
	return SyntaxError{Start: o.start, End: o.end, Message: "`" + o.tok + "` is never closed: missing `" + closers[o.tok] + "`"}, true
}

func isCloser(tok string) bool { return tok == ")" || tok == "]" || tok == "}" }

func missing(n *sitter.Node) SyntaxError {
	at := int(n.StartByte())
	kind := n.Type()
	msg := "missing " + kind
	if !n.IsNamed() {
		msg = "missing `" + kind + "`"
	}
	return SyntaxError{Start: at, End: at, Message: msg}
}

func unexpected(n *sitter.Node, src []byte) SyntaxError {
	start, end := int(n.StartByte()), int(n.EndByte())
	text := string(src[start:end])
	if i := strings.IndexAny(text, "\r\n"); i >= 0 {
		text = text[:i]
	}
	text = strings.TrimSpace(text)
	const maxLen = 30
	if utf8.RuneCountInString(text) > maxLen {
		r := []rune(text)
		text = string(r[:maxLen]) + "…"
	}
	if len(strings.TrimSpace(string(src[end:]))) == 0 {
		return SyntaxError{Start: end, End: end, Message: "unexpected end of file"}
	}
	if text == "" {
		return SyntaxError{Start: start, End: end, Message: "unexpected text"}
	}
	return SyntaxError{Start: start, End: end, Message: "unexpected `" + text + "`"}
}
