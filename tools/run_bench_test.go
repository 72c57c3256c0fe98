package tools

import "testing"

// BenchmarkRunCall measures a second and later `run` through Call on the
// sample project in one workspace, as a host that keeps the workspace
// runs it: the settle and index look of the call, then the run itself.
func BenchmarkRunCall(b *testing.B) {
	w, _ := openCopy(b, Options{})
	const in = `{"name":"listProducts","input":{"inStockOnly":true}}`
	if _, err := call(w, "run", in); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := call(w, "run", in); err != nil {
			b.Fatal(err)
		}
	}
}
