// Package listentoken holds what a face that listens on a socket
// (`tent-tools lsp --listen`, `tent-tools studio`) asks of a connection
// before it is let in: the token made at start (or read from
// --token-file), the URL printed with it, and the guard that refuses a
// request without it (401, before any upgrade), one with two Origin
// headers (400), one from a page not allowed (403), and one past the
// bound of connections (503, T9123). See docs/pages/lsp.md.
//
// Any local process can reach a loopback port; the token is what makes
// the port the operator's. It is compared as a SHA-256 hash in constant
// time, so the time a refusal takes says nothing of how near a guess
// was. It imports nothing of the project's but diag.
package listentoken

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"runtime"
	"strings"
)

// MinLength is the fewest characters of a token read from a file: 32,
// the hex form of 128 bits. A token made at start has 43 (256 bits in
// base64url).
const MinLength = 32

// maxFile is the most a token file may hold.
const maxFile = 4096

// Token is the secret a listening face asks of every connection. The zero
// Token matches nothing.
type Token struct {
	text string
	sum  [sha256.Size]byte
}

// New makes a token of 256 random bits (crypto/rand), in base64url.
func New() (Token, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return Token{}, fmt.Errorf("make a token: %w", err)
	}
	return of(base64.RawURLEncoding.EncodeToString(b)), nil
}

// Parse reads a token given by the operator: at least MinLength
// characters, each of a URL's unreserved ones (A-Z a-z 0-9 - . _ ~), so
// that it stands in a URL as it is. Spaces around it are set aside. The
// error never quotes the token.
func Parse(text string) (Token, error) {
	text = strings.TrimSpace(text)
	if len(text) < MinLength {
		return Token{}, fmt.Errorf("the token has %d characters; it needs at least %d (128 bits as hex: openssl rand -hex 16)", len(text), MinLength)
	}
	for i := 0; i < len(text); i++ {
		if !unreserved(text[i]) {
			return Token{}, fmt.Errorf("the token's character %d is not one of A-Z a-z 0-9 - . _ ~", i+1)
		}
	}
	return of(text), nil
}

// ReadFile reads a token from a file (--token-file) that only its owner
// may read (on Unix, no permission for group or others: the token is the
// key to the port).
func ReadFile(path string) (Token, error) {
	f, err := os.Open(path)
	if err != nil {
		return Token{}, fmt.Errorf("--token-file: %w", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return Token{}, fmt.Errorf("--token-file: %w", err)
	}
	if !info.Mode().IsRegular() {
		return Token{}, fmt.Errorf("--token-file %s: not a regular file", path)
	}
	if runtime.GOOS != "windows" && info.Mode().Perm()&0o077 != 0 {
		return Token{}, fmt.Errorf("--token-file %s: its mode %04o lets others read it; chmod 600 it", path, info.Mode().Perm())
	}
	data, err := io.ReadAll(io.LimitReader(f, maxFile+1))
	if err != nil {
		return Token{}, fmt.Errorf("--token-file %s: %w", path, err)
	}
	if len(data) > maxFile {
		return Token{}, fmt.Errorf("--token-file %s: over %d bytes; it holds one token", path, maxFile)
	}
	t, err := Parse(string(data))
	if err != nil {
		return Token{}, fmt.Errorf("--token-file %s: %w", path, err)
	}
	return t, nil
}

// Load is the token of a listening face: the one in file where it is
// given, else a new one.
func Load(file string) (Token, error) {
	if file != "" {
		return ReadFile(file)
	}
	return New()
}

func of(text string) Token { return Token{text: text, sum: sha256.Sum256([]byte(text))} }

func unreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

// String is the token itself, for the operator to hand to a client.
func (t Token) String() string { return t.text }

// URL is the address a client connects to with the token in its query:
// scheme://host/?token=TOKEN (ws://127.0.0.1:7100/?token=...).
func (t Token) URL(scheme, host string) string {
	u := url.URL{Scheme: scheme, Host: host, Path: "/", RawQuery: url.Values{"token": {t.text}}.Encode()}
	return u.String()
}

// Matches reports whether a presented token is this one, in constant time.
func (t Token) Matches(presented string) bool {
	if t.text == "" {
		return false
	}
	sum := sha256.Sum256([]byte(presented))
	return subtle.ConstantTimeCompare(sum[:], t.sum[:]) == 1
}

// errNoToken and errWrongToken are the two refusals of presented.
var (
	errNoToken    = errors.New("no token: connect with the URL tent-tools printed at start (its token query parameter), or send Authorization: Bearer TOKEN")
	errWrongToken = errors.New("the token is not this server's")
)

// presented is the token a request carries: the token query parameter or
// an Authorization: Bearer header. Where both are given, both must be
// this token; a second token parameter or header is refused.
func presented(query url.Values, authorization []string) ([]string, error) {
	var given []string
	switch q := query["token"]; len(q) {
	case 0:
	case 1:
		given = append(given, q[0])
	default:
		return nil, errors.New("two token query parameters")
	}
	switch len(authorization) {
	case 0:
	case 1:
		scheme, token, ok := strings.Cut(authorization[0], " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") {
			return nil, errors.New("the Authorization header is not Bearer TOKEN")
		}
		given = append(given, strings.TrimSpace(token))
	default:
		return nil, errors.New("two Authorization headers")
	}
	if len(given) == 0 {
		return nil, errNoToken
	}
	return given, nil
}

// check holds what a request presents to the token.
func (t Token) check(query url.Values, authorization []string) error {
	given, err := presented(query, authorization)
	if err != nil {
		return err
	}
	ok := true
	for _, g := range given {
		ok = t.Matches(g) && ok // every one compared, whatever the first said
	}
	if !ok {
		return errWrongToken
	}
	return nil
}
