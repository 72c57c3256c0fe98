package words

import "testing"

func TestWords(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Count(1, "line"), "1 line"},
		{Count(0, "line"), "0 lines"},
		{Count(3, "entry"), "3 entries"},
		{Count(2, "key"), "2 keys"},
		{Plural(1, "file"), "file"},
		{Plural(2, "file"), "files"},
		{Bytes(1), "1 byte"},
		{Bytes(820), "820 bytes"},
		{Bytes(1536), "1.5 KB"},
		{Bytes(5 << 20), "5.0 MB"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
