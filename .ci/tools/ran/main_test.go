package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// p's test files: what go test runs of them, and what it does not.
const (
	pTest = `package p

import "testing"

func TestSmall(t *testing.T) {}
func TestBig(t *testing.T)   {}
func Test(t *testing.T)      {}
func Testify(t *testing.T)   {} // not a test: "ify" goes on in lower case
func TestMain(m *testing.M)  {}
func FuzzInput(f *testing.F) {}
func BenchmarkBig(b *testing.B) {}

type s struct{}

func (s) TestMethod(t *testing.T) {}
`
	pXTest = `package p_test

import "fmt"

func ExampleCall() {
	fmt.Println("hi")
	// Output: hi
}

func ExampleQuiet() {
	// Output:
}

func ExampleCompiledOnly() {
	fmt.Println("no output comment: compiled, not run")
}
`
	qTest = `package q

import "testing"

func TestBig(t *testing.T) {}
`
	// The race step skips TestBig (p's and q's, by the same name); the
	// plain step runs TestBig of p alone.
	raceJSON = `go: downloading something
{"Action":"run","Package":"m/p","Test":"TestSmall"}
{"Action":"run","Package":"m/p","Test":"TestSmall/case"}
{"Action":"pass","Package":"m/p","Test":"TestSmall"}
{"Action":"run","Package":"m/p","Test":"Test"}
{"Action":"run","Package":"m/p","Test":"ExampleCall"}
{"Action":"run","Package":"m/p","Test":"ExampleQuiet"}
{"Action":"run","Package":"m/p","Test":"FuzzInput"}
`
	plainJSON = `{"Action":"run","Package":"m/p","Test":"TestBig"}
{"Action":"run","Package":"m/p","Test":"TestBig/1"}
`
)

func write(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestListed(t *testing.T) {
	in := "m/p\t" + write(t, "p_test.go", pTest) + "\t" + write(t, "x_test.go", pXTest) + "\n" +
		"m/q\t" + write(t, "q_test.go", qTest) + "\n" +
		"m/r\n" // no test files
	got, err := listed(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"m/p ExampleCall", "m/p ExampleQuiet", "m/p FuzzInput", "m/p Test", "m/p TestBig", "m/p TestSmall", "m/q TestBig"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("listed %q\nwant %q", got, want)
	}
}

func TestCheck(t *testing.T) {
	want := []string{"m/p ExampleCall", "m/p ExampleQuiet", "m/p FuzzInput", "m/p Test", "m/p TestBig", "m/p TestSmall", "m/q TestBig"}
	race := write(t, "race.json", raceJSON)
	plain := write(t, "plain.json", plainJSON)
	for _, c := range []struct {
		name    string
		streams []string
		missing []string
	}{
		{"both steps", []string{race, plain}, []string{"m/q TestBig"}},
		{"the race step alone", []string{race}, []string{"m/p TestBig", "m/q TestBig"}},
		{"a subtest is not its test", []string{write(t, "sub.json", `{"Action":"run","Package":"m/q","Test":"TestBig/1"}`), race, plain}, []string{"m/q TestBig"}},
		{"everything", []string{race, plain, write(t, "q.json", `{"Action":"run","Package":"m/q","Test":"TestBig"}`)}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			missing, err := check(want, c.streams)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(missing, c.missing) {
				t.Errorf("missing %q, want %q", missing, c.missing)
			}
		})
	}
}

func TestRefuses(t *testing.T) {
	if _, err := listed(strings.NewReader("m/r\n")); err == nil || !strings.Contains(err.Error(), "no test") {
		t.Errorf("no test files: err %v, want one saying so", err)
	}
	if _, err := listed(strings.NewReader("m/p\t" + write(t, "bad_test.go", "package p\nfunc {") + "\n")); err == nil {
		t.Error("a file that does not parse: no error")
	}
	if _, err := check(nil, []string{write(t, "broken.json", `{"Action":`)}); err == nil || !strings.Contains(err.Error(), "unexpected end") {
		t.Errorf("a broken stream: err %v, want one saying so", err)
	}
}
