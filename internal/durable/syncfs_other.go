//go:build !linux

package durable

import "os"

const wholeFS = false

func syncFS(*os.File) error { return ErrUnsupported }
