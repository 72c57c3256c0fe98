package notes

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

func TestNotes(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), ".tent", File))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	at := time.Unix(1000, 0)
	for _, kv := range [][2]string{{"style.quotes", "single"}, {"style.indent", "2"}, {"todo", "ship"}, {"style%", "x"}} {
		if created, err := s.Put(ctx, kv[0], kv[1], at); !created || err != nil {
			t.Fatalf("put %s: %v %v", kv[0], created, err)
		}
	}
	if created, err := s.Put(ctx, "todo", "ship it", at.Add(time.Second)); created || err != nil {
		t.Fatalf("put again: %v %v", created, err)
	}
	n, ok, err := s.Get(ctx, "todo")
	if !ok || err != nil || n.Value != "ship it" || !n.Time.Equal(at.Add(time.Second)) {
		t.Errorf("get: %+v %v %v", n, ok, err)
	}
	if _, ok, _ := s.Get(ctx, "nothing"); ok {
		t.Error("a key never written is found")
	}
	tests := []struct {
		prefix string
		want   []string
	}{
		{"style.", []string{"style.indent", "style.quotes"}},
		{"style%", []string{"style%"}}, // no LIKE: % is a plain character
		{"", []string{"style%", "style.indent", "style.quotes", "todo"}},
		{"zzz", nil},
	}
	for _, tt := range tests {
		ns, err := s.Keys(ctx, tt.prefix)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, n := range ns {
			got = append(got, n.Key)
		}
		if len(got) != len(tt.want) {
			t.Errorf("keys %q: %v; want %v", tt.prefix, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("keys %q: %v; want %v", tt.prefix, got, tt.want)
			}
		}
	}
}
