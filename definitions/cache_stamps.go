package definitions

import (
	"crypto/sha256"
	"encoding/binary"
	"maps"
	"slices"
)

// StampsDigest is the SHA-256 of a set of stamps by path: their size,
// times and inode, not when each was taken (Seen). Two walks that found
// every file with the same stamp have the same digest, so a cache made
// from an index (the runner's app snapshot, the check's kept findings)
// keeps the digest of the stamps it was read by instead of every stamp.
func StampsDigest(stamps map[string]Stamp) []byte {
	h := sha256.New()
	var buf []byte
	for _, p := range slices.Sorted(maps.Keys(stamps)) {
		s := stamps[p]
		buf = binary.AppendUvarint(buf[:0], uint64(len(p)))
		buf = append(buf, p...)
		buf = binary.LittleEndian.AppendUint64(buf, uint64(s.Size))
		buf = binary.LittleEndian.AppendUint64(buf, uint64(s.MTime))
		buf = binary.LittleEndian.AppendUint64(buf, uint64(s.CTime))
		buf = binary.LittleEndian.AppendUint64(buf, s.Inode)
		h.Write(buf)
	}
	return h.Sum(nil)
}
