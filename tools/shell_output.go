package tools

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tent-tools/tent-tools/internal/words"
)

// This file is what shell makes of a command's output (docs/pages/shell.md):
// stdout and stderr interleaved by whole lines, in the order each line
// ended; terminal escape codes (colours, cursor moves) taken out; and past
// MaxShellOutput, both ends kept with the first and last error lines of
// what was cut between them, and how much was cut said.

// The parts of the output kept past the limit.
const (
	shellHead    = 28 << 10 // the output's first bytes kept
	shellTail    = 32 << 10 // its last bytes kept
	shellErrLine = 1 << 10  // the most of one error line kept from the middle
	shellPiece   = 8 << 10  // a line longer is taken in pieces of this size
)

// errorWords are the words that make a line of a build or test log an
// error line, in any capitals; a word that ends in Error or Exception
// (TypeError, NullPointerException) is one too.
var errorWords = []string{"error", "errors", "err", "fail", "fails", "failed", "failure", "fatal", "panic", "panicked", "exception", "traceback"}

// isErrorLine reports whether line names an error (errorWords, "err"
// only as npm's ERR!). A scan of its words, not a regexp: it runs on
// every line cut from a long output, which a regexp read at 5 MB/s.
func isErrorLine(line []byte) bool {
	isWord := func(c byte) bool {
		return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	for i := 0; i < len(line); {
		if !isWord(line[i]) {
			i++
			continue
		}
		j := i
		for j < len(line) && isWord(line[j]) {
			j++
		}
		word := line[i:j]
		first, last := word[0]|0x20, word[len(word)-1]
		if len(word) < 3 || len(word) > 40 || (first != 'e' && first != 'f' && first != 'p' && first != 't' && last != 'r' && last != 'n') {
			i = j
			continue
		}
		{
			for _, w := range errorWords {
				if bytes.EqualFold(word, []byte(w)) && (w != "err" || j < len(line) && line[j] == '!') {
					return true
				}
			}
			for _, suffix := range []string{"Error", "Exception"} {
				if n := len(word) - len(suffix); n > 0 && string(word[n:]) == suffix {
					return true
				}
			}
		}
		i = j
	}
	return false
}

// shellOutput is a command's output as it is kept: the first part, the
// last part, and of the lines cut between them their count, their size and
// the first and last error lines. Both streams' readers add to it.
type shellOutput struct {
	mu       sync.Mutex
	head     []byte
	headFull bool
	tail     []piece // whole pieces, oldest first
	tailSize int
	line     int // the number of the next line, from 1

	cutLines, cutBytes int
	cutFrom            int // the first cut line's number
	firstErr, lastErr  cutLine
}

// cutLine is an error line from the cut middle, with its number.
type cutLine struct {
	n    int
	text string
}

// piece is one line (with its newline) or one piece of a longer line.
type piece struct {
	text []byte
	n    int // its line's number
	ends bool
}

// read reads one stream to its end, handing each whole line (or piece of
// a line longer than shellPiece) to add as it ends. Nothing is kept but
// the line being read, so the writer never waits on a full pipe.
func (o *shellOutput) read(r io.Reader) {
	buf := make([]byte, 32<<10)
	var partial []byte
	for {
		n, err := r.Read(buf)
		data := buf[:n]
		for len(data) > 0 {
			i := bytes.IndexByte(data, '\n')
			if i < 0 {
				partial = append(partial, data...)
				data = nil
				for len(partial) >= shellPiece {
					cut := utf8Cut(partial, shellPiece)
					o.add(partial[:cut], false)
					partial = append(partial[:0], partial[cut:]...)
				}
				break
			}
			partial = append(partial, data[:i+1]...)
			data = data[i+1:]
			o.add(partial, true)
			partial = partial[:0]
		}
		if err != nil {
			break
		}
	}
	if len(partial) > 0 {
		o.add(partial, true)
	}
}

// utf8Cut is where to cut b at most at n bytes without splitting a
// character.
func utf8Cut(b []byte, n int) int {
	if n >= len(b) {
		return len(b)
	}
	for i := n; i > n-utf8.UTFMax && i > 0; i-- {
		if utf8.RuneStart(b[i]) {
			return i
		}
	}
	return n
}

// add adds a line (ends: with its newline, or the stream's last) or a
// piece of a long line, its escapes taken out.
func (o *shellOutput) add(raw []byte, ends bool) {
	text := stripEscapes(raw)
	o.mu.Lock()
	defer o.mu.Unlock()
	p := piece{text: text, n: o.line + 1, ends: ends}
	if ends {
		o.line++
	}
	if !o.headFull {
		if len(o.head)+len(text) <= shellHead {
			o.head = append(o.head, text...)
			return
		}
		o.headFull = true
	}
	o.tail = append(o.tail, p)
	o.tailSize += len(p.text)
	for o.tailSize > shellTail && len(o.tail) > 1 {
		old := o.tail[0]
		o.tail = o.tail[1:]
		o.tailSize -= len(old.text)
		o.drop(old)
	}
}

// drop counts a piece cut from the middle, keeping it where it is the
// first or the last error line.
func (o *shellOutput) drop(p piece) {
	if o.cutBytes == 0 {
		o.cutFrom = p.n
	}
	o.cutBytes += len(p.text)
	if p.ends {
		o.cutLines++
	}
	if !isErrorLine(p.text[:utf8Cut(p.text, min(len(p.text), shellErrLine))]) {
		return
	}
	text := strings.TrimRight(string(p.text[:utf8Cut(p.text, min(len(p.text), shellErrLine))]), "\n")
	if len(p.text) > shellErrLine {
		text += "..."
	}
	if o.firstErr.n == 0 {
		o.firstErr = cutLine{p.n, text}
	} else if p.n != o.firstErr.n {
		o.lastErr = cutLine{p.n, text}
	}
}

// text answers the output as kept, and how many lines and bytes were cut.
func (o *shellOutput) text() (string, int, int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	var b strings.Builder
	b.Write(o.head)
	if o.cutBytes > 0 {
		if len(o.head) > 0 && o.head[len(o.head)-1] != '\n' {
			b.WriteString("\n")
		}
		lines := words.Count(max(o.cutLines, 1), "line")
		switch {
		case o.firstErr.n == 0:
			fmt.Fprintf(&b, "[... %s (%s) cut from line %d; no error line among them ...]\n", lines, words.Bytes(int64(o.cutBytes)), o.cutFrom)
		default:
			fmt.Fprintf(&b, "[... %s (%s) cut from line %d; the first and last error lines among them:]\n", lines, words.Bytes(int64(o.cutBytes)), o.cutFrom)
			fmt.Fprintf(&b, "%d: %s\n", o.firstErr.n, o.firstErr.text)
			if o.lastErr.n != 0 {
				fmt.Fprintf(&b, "%d: %s\n", o.lastErr.n, o.lastErr.text)
			}
			b.WriteString("[... the output goes on ...]\n")
		}
	}
	for _, p := range o.tail {
		b.Write(p.text)
	}
	return b.String(), o.cutLines, o.cutBytes
}

// stripEscapes returns line without its terminal escape codes: ECMA-48's
// control sequences (CSI: colours, cursor moves, erasing), operating
// system commands (OSC: titles, links), the strings of DCS, SOS, PM and
// APC, two-byte escapes, their 8-bit (C1) forms, and what a carriage
// return overwrites (a progress bar's earlier states): what a terminal
// would show of the line. A CR before the newline (CRLF) is dropped.
func stripEscapes(line []byte) []byte {
	if bytes.IndexByte(line, 0x1b) < 0 && bytes.IndexByte(line, '\r') < 0 && !bytes.Contains(line, []byte{0xc2}) {
		return append([]byte(nil), line...)
	}
	out := make([]byte, 0, len(line))
	for i := 0; i < len(line); {
		c := line[i]
		// The C1 controls as UTF-8 (U+0080..U+009F) are their 8-bit forms.
		c1 := byte(0)
		if c == 0xc2 && i+1 < len(line) && line[i+1] >= 0x80 && line[i+1] <= 0x9f {
			c1 = line[i+1] - 0x40 // ESC's second byte: 0x9b -> '['
		}
		switch {
		case c == 0x1b && i+1 < len(line):
			i = skipEscape(line, i+2, line[i+1])
		case c == 0x1b:
			i++
		case c1 != 0:
			i = skipEscape(line, i+2, c1)
		case c == '\r':
			if rest := line[i+1:]; len(rest) == 0 || (len(rest) == 1 && rest[0] == '\n') {
				i++
				continue
			}
			out = out[:0] // the line is written again from its start
			i++
		default:
			out = append(out, c)
			i++
		}
	}
	return out
}

// skipEscape skips an escape whose introducer (the byte after ESC) is
// intro and whose body starts at i, and returns the index after it.
func skipEscape(line []byte, i int, intro byte) int {
	switch intro {
	case '[': // CSI: parameters and intermediates 0x20-0x3f, a final 0x40-0x7e
		for i < len(line) && line[i] >= 0x20 && line[i] <= 0x3f {
			i++
		}
		if i < len(line) && line[i] >= 0x40 && line[i] <= 0x7e {
			i++
		}
		return i
	case ']', 'P', 'X', '^', '_': // strings, ended by BEL or ST (ESC \ or 0x9c)
		for i < len(line) {
			switch {
			case line[i] == 0x07:
				return i + 1
			case line[i] == 0x1b && i+1 < len(line) && line[i+1] == '\\':
				return i + 2
			case line[i] == 0xc2 && i+1 < len(line) && line[i+1] == 0x9c:
				return i + 2
			case line[i] == '\n':
				return i
			}
			i++
		}
		return i
	}
	// Two bytes (ESC 7, ESC =, ESC ( B takes one more).
	if (intro == '(' || intro == ')' || intro == '*' || intro == '+' || intro == '#' || intro == '%') && i < len(line) && line[i] != '\n' {
		return i + 1
	}
	return i
}
