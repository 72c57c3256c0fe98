package workspace

import (
	"sync"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/history"
)

// A settle asks the history three things before it looks at the disk:
// whether a change was cut short (finishPending), the version of its file
// state (stateCache.load) and, for Refresh, the points other processes
// recorded since (tellOthers). Each is a query of SQLite, and together
// they were a third of a planned rename's time in the language server,
// though nothing had written the history since the last look. Every
// write of the history, of this process or another, writes its database
// or the write-ahead log beside it (each commit appends to the log; a
// checkpoint writes the database and starts the log again). So the
// stamps of the two files, taken before the queries of a Refresh that
// answered them all, say whether anything wrote the history since:
// where both hold the same stamps, and were not racy (definitions.Stamp),
// no change is pending, no point is new and the state's version is the
// one in memory, and the settle asks none of it.

// historyQuiet keeps the stamps of the history's files that the last
// whole Refresh took before its queries.
type historyQuiet struct {
	mu   sync.Mutex
	kept historyStamps
	ok   bool // kept holds stamps a later settle may trust
}

// historyStamps are the stamps of the history's database and its
// write-ahead log; a file that is not there has none (its ok false).
type historyStamps struct {
	db, wal     definitions.Stamp
	dbOK, walOK bool
}

// same reports whether two takes found the same files.
func (s historyStamps) same(t historyStamps) bool {
	return s.dbOK == t.dbOK && s.walOK == t.walOK && (!s.dbOK || s.db.Same(t.db)) && (!s.walOK || s.wal.Same(t.wal))
}

// racy reports whether a file changed too shortly before it was stamped
// for its stamp to prove that nothing wrote it since.
func (s historyStamps) racy() bool {
	return s.dbOK && s.db.Racy() || s.walOK && s.wal.Racy()
}

// historyStamps stamps the history's files now.
func (w *Workspace) historyStamps() historyStamps {
	var s historyStamps
	s.db, s.dbOK = w.StateStamp(history.File)
	s.wal, s.walOK = w.StateStamp(history.File + "-wal")
	return s
}

// holds reports whether now are the stamps kept, and they can be trusted.
func (q *historyQuiet) holds(now historyStamps) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.ok && q.kept.same(now)
}

// keep keeps the stamps a whole Refresh took before its queries, where
// they prove something.
func (q *historyQuiet) keep(s historyStamps) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.kept, q.ok = s, s.dbOK && !s.racy()
}
