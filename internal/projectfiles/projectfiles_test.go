package projectfiles

import (
	"strings"
	"testing"
)

// TestRule is the one table of which paths are project files: every walk
// and the index follow it.
func TestRule(t *testing.T) {
	deep := strings.Repeat("a/", MaxDepth-1) + "x.ts"
	tests := []struct {
		path      string
		skipped   bool // in a folder never walked
		framework bool
		bounded   bool // too deep or too long
	}{
		{"tables/orders.ts", false, false, false},
		{".tent/history.db", true, false, false},
		{".TENT/x.ts", true, false, false},
		{".git/hooks/pre-commit", true, false, false},
		{"node_modules/react/index.ts", true, false, false},
		{"lib/node_modules/x.ts", true, false, false},
		{"dist/app.ts", true, false, false},
		{"web/Dist/app.ts", true, false, false},
		{"distribution/app.ts", false, false, false},
		{"lib/.tentative/x.ts", false, false, false},
		{"tent.d.ts", false, true, false},
		{"Tent.D.ts", false, true, false},
		{"tent.clash.ts", false, true, false},
		{"MCP.lock.json", false, true, false},
		{"lib/tent.d.ts", false, false, false},
		{"tables/mcp.lock.json", false, false, false},
		{"engine.ts", false, false, false},
		{deep, false, false, false},
		{"a/" + deep, false, false, true},
		{strings.Repeat("n", MaxLen-3) + ".ts", false, false, false},
		{strings.Repeat("n", MaxLen-2) + ".ts", false, false, true},
	}
	for _, tt := range tests {
		name := tt.path
		if len(name) > 40 {
			name = name[:40] + "…"
		}
		if got := InSkippedFolder(tt.path); got != tt.skipped {
			t.Errorf("InSkippedFolder(%s) = %v, want %v", name, got, tt.skipped)
		}
		if got := FrameworkFile(tt.path); got != tt.framework {
			t.Errorf("FrameworkFile(%s) = %v, want %v", name, got, tt.framework)
		}
		if why := Bounded(tt.path); (why != "") != tt.bounded {
			t.Errorf("Bounded(%s) = %q, want bounded %v", name, why, tt.bounded)
		}
	}
	for _, name := range []string{".tent", ".Git", "NODE_MODULES", "dist"} {
		if !SkippedFolder(name) {
			t.Errorf("SkippedFolder(%s) = false", name)
		}
	}
	for _, name := range []string{"tables", "lib", "distx", ".gitignore"} {
		if SkippedFolder(name) {
			t.Errorf("SkippedFolder(%s) = true", name)
		}
	}
}
