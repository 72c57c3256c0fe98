package parser

import (
	"bytes"
	"context"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"
)

// Edit returns the edit that turns oldSrc into newSrc: the longest common
// prefix and suffix are kept and the bytes between them replaced. Its
// bounds fall on UTF-8 character boundaries.
//
// The binding's Tree.Edit passes OldEndPoint where tree-sitter wants
// NewEndPoint, so the rows and columns of nodes after an edit that adds or
// removes lines are off in a re-parsed tree; byte offsets are exact, and
// they are all this module uses.
func Edit(oldSrc, newSrc []byte) sitter.EditInput {
	n := min(len(oldSrc), len(newSrc))
	start := 0
	for start < n && oldSrc[start] == newSrc[start] {
		start++
	}
	for start > 0 && start < len(oldSrc) && !utf8.RuneStart(oldSrc[start]) {
		start--
	}
	suffix := 0
	for suffix < n-start && oldSrc[len(oldSrc)-1-suffix] == newSrc[len(newSrc)-1-suffix] {
		suffix++
	}
	oldEnd, newEnd := len(oldSrc)-suffix, len(newSrc)-suffix
	for oldEnd < len(oldSrc) && !utf8.RuneStart(oldSrc[oldEnd]) {
		oldEnd++
		newEnd++
	}
	return sitter.EditInput{
		StartIndex:  uint32(start),
		OldEndIndex: uint32(oldEnd),
		NewEndIndex: uint32(newEnd),
		StartPoint:  pointAt(oldSrc, start),
		OldEndPoint: pointAt(oldSrc, oldEnd),
		NewEndPoint: pointAt(newSrc, newEnd),
	}
}

// pointAt returns the 0-based row and byte column of offset in src.
func pointAt(src []byte, offset int) sitter.Point {
	before := src[:offset]
	row := bytes.Count(before, []byte{'\n'})
	col := offset - (bytes.LastIndexByte(before, '\n') + 1)
	return sitter.Point{Row: uint32(row), Column: uint32(col)}
}

// Reparse parses newSrc incrementally from old, the tree of oldSrc: it
// re-reads only what the edit between the two texts touched. old itself is
// left as it was (the edit is made on a copy), so readers of an older
// snapshot that still hold it are not disturbed. With a nil old tree it is
// Parse. The tree is nil only when ctx is done before the parse ends.
func Reparse(ctx context.Context, filePath string, old *sitter.Tree, oldSrc, newSrc []byte) (*sitter.Tree, []SyntaxError) {
	g := GrammarOf(filePath)
	if old == nil {
		return parse(ctx, g, nil, newSrc)
	}
	edited := old.Copy()
	edited.Edit(Edit(oldSrc, newSrc))
	tree, errs := parse(ctx, g, edited, newSrc)
	// The new tree holds its own references to the subtrees it reuses.
	edited.Close()
	return tree, errs
}
