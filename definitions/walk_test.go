package definitions

import "testing"

func TestIgnoreSet(t *testing.T) {
	s := &ignoreSet{}
	s.add("", []byte("# comment\r\n/build\r\n*.gen.ts\r\nsecret/\r\n"))
	s.add("lib", []byte("local.ts\nvendor/\n"))
	tests := []struct {
		path  string
		isDir bool
		want  bool
	}{
		{"build", true, true},
		{"build/a.ts", false, true},
		{"lib/build/a.ts", false, false}, // /build is anchored at the root
		{"tables/a.gen.ts", false, true},
		{"tables/a.ts", false, false},
		{"secret", true, true},
		{"secret/a.ts", false, true},
		{"deep/secret/a.ts", false, true},
		{"lib/local.ts", false, true},
		{"lib/sub/local.ts", false, true},
		{"local.ts", false, false}, // lib/.gitignore applies under lib only
		{"lib/vendor/x.ts", false, true},
		{"vendor/x.ts", false, false},
		{"libx/local.ts", false, false},
	}
	for _, tt := range tests {
		if got := s.ignored(tt.path, tt.isDir); got != tt.want {
			t.Errorf("ignored(%q, %v) = %v, want %v", tt.path, tt.isDir, got, tt.want)
		}
	}
	var none *ignoreSet
	if none.ignored("a.ts", false) {
		t.Error("a nil set ignores nothing")
	}
}
