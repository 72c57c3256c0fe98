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

// TestIgnoreFoldersOnly checks that a .gitignore of folder names alone,
// which the files of a walk are not matched against, ignores what it
// ignored when they were: a file under a folder it names, through the
// folder.
func TestIgnoreFoldersOnly(t *testing.T) {
	tests := []struct {
		lines []string
		want  bool
	}{
		{[]string{".tent/", "node_modules/", "dist/", ""}, true},
		{[]string{"# built", "/build/\r", "lib/gen/  "}, true},
		{[]string{"dist/", "*.log"}, false},
		{[]string{"dist/", "!dist/keep/"}, false},
		{[]string{"gen*/"}, false},
		{[]string{"out"}, false},
	}
	for _, tt := range tests {
		if got := foldersOnly(tt.lines); got != tt.want {
			t.Errorf("foldersOnly(%q) = %v, want %v", tt.lines, got, tt.want)
		}
	}
	s := &ignoreSet{}
	s.add("", []byte(".tent/\nnode_modules/\n/build/\n"))
	s.add("lib", []byte("gen/\n"))
	for _, tt := range []struct {
		path  string
		isDir bool
		want  bool
	}{
		{"node_modules", true, true},
		{"node_modules/x/a.ts", false, true},
		{"a/node_modules/b.ts", false, true},
		{"build/a.ts", false, true},
		{"x/build/a.ts", false, false},
		{"lib/gen/a.ts", false, true},
		{"gen/a.ts", false, false},
		{"tables/node_modules.ts", false, false},
		{"dist.ts", false, false},
	} {
		if got := s.ignored(tt.path, tt.isDir); got != tt.want {
			t.Errorf("ignored(%q, %v) = %v, want %v", tt.path, tt.isDir, got, tt.want)
		}
	}
}
