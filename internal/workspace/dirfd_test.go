package workspace

import (
	"testing"

	"golang.org/x/sys/unix"

	"github.com/tent-tools/tent-tools/diag"
)

// TestPathErrorCodes: a folder of .tent/ that the system does not let
// the tools make or write is T9110, whichever errno says so.
func TestPathErrorCodes(t *testing.T) {
	for _, errno := range []error{unix.EACCES, unix.EPERM, unix.EROFS} {
		if err := pathError(".tent/tmp", "make folder", errno); !isCode(err, diag.T9110) {
			t.Errorf("%v: %v", errno, err)
		}
	}
}
