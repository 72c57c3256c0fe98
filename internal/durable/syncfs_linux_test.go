package durable

import "testing"

func TestReleaseAtLeast(t *testing.T) {
	for _, tt := range []struct {
		release string
		want    bool
	}{
		{"6.1.0-18-amd64", true},
		{"5.8.0", true},
		{"5.10.0-rc1", true},
		{"5.7.19", false},
		{"4.19.0", false},
		{"5.8+", true},
		{"5", false},
		{"x.y", false},
	} {
		if got := releaseAtLeast(tt.release, 5, 8); got != tt.want {
			t.Errorf("releaseAtLeast(%q, 5, 8) = %v; want %v", tt.release, got, tt.want)
		}
	}
}
