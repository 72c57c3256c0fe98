// Package jslib holds the JavaScript that the runner ships inside the binary:
// the 'tent' and 'tent/ui' modules that app code imports (tent.js, ui.js,
// jsx-runtime.js), the prelude that builds the ctx of a run (prelude.js),
// and the guards over a run's builtins (guard.js). It has no Go logic of
// its own.
package jslib

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
)

// Tent is the source of the 'tent' module.
//
//go:embed tent.js
var Tent string

// UI is the source of the 'tent/ui' module.
//
//go:embed ui.js
var UI string

// JSXRuntime is the source of 'tent/ui/jsx-runtime', the automatic JSX runtime.
//
//go:embed jsx-runtime.js
var JSXRuntime string

// Prelude is the source of the function that builds the runner's side of a
// run inside the JavaScript runtime; see prelude.js.
//
//go:embed prelude.js
var Prelude string

// Guard is the source of the function that guards a run's builtins
// before app code runs; see guard.js.
//
//go:embed guard.js
var Guard string

// Module returns the source of a module that app code may import by a bare
// name ('tent', 'tent/ui', 'tent/ui/jsx-runtime'), and false for any other name.
func Module(name string) (string, bool) {
	switch name {
	case "tent":
		return Tent, true
	case "tent/ui":
		return UI, true
	case "tent/ui/jsx-runtime":
		return JSXRuntime, true
	}
	return "", false
}

// Hash is a content hash of every module and the prelude, so caches of
// bundled code are dropped when the shipped JavaScript changes.
var Hash = func() string {
	h := sha256.New()
	for _, s := range []string{Tent, UI, JSXRuntime, Prelude, Guard} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}()
