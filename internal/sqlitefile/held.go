package sqlitefile

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// ErrRedirected is the error of a database whose file, as SQLite opened
// it, is not the one in the held folder: the folder (or a folder on its
// path) was swapped for a link while it was opened.
var ErrRedirected = errors.New("the file opened is not the one in the folder held: a folder on its path was swapped while it was opened")

// OpenIn opens (creating where needed) the database at path, whose folder
// is dir, held open (.tent/, reached without following a link, and checked),
// so that a swap of that folder for a link after it was opened cannot
// redirect the database. It keeps its own handle of the folder until the
// database is closed; dir may be closed at once.
//
// On Linux every connection opens the path /proc/self/fd/N/name through
// the held folder's handle N, and is then checked (heldCheck): its
// database file and the -wal and -shm files beside it must be name,
// name-wal and name-shm in the held folder, by device and inode, or the
// connection is closed and the open is ErrRedirected. (SQLite resolves
// the links of a path itself, so the path alone would still leave a
// moment for a swap.) Elsewhere the folder's checked path is opened, and
// the swap in that moment is not covered; so it is on a Linux without
// /proc.
func OpenIn(dir *os.File, path string, o Options) (*sql.DB, error) {
	if err := emptied(path, o, time.Now()); err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	held, err := dupDir(dir, filepath.Dir(path))
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	probe, err := sql.Open("sqlite", "")
	if err != nil {
		held.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	drv := probe.Driver()
	probe.Close()
	through, checked := heldPath(held, path)
	c := &heldConnector{drv: drv, dir: held, name: filepath.Base(path), path: path, dsn: dsn(through, o), checked: checked}
	return sql.OpenDB(c), nil
}

// heldConnector opens the connections of a database in a held folder and
// closes the folder with the database (database/sql closes a connector
// that is an io.Closer).
type heldConnector struct {
	drv  driver.Driver
	dir  *os.File
	name string // the database's name in dir
	path string // its checked path, for messages
	dsn  string
	// checked says each connection is checked (heldCheck): the path
	// opened is through the folder's handle.
	checked bool
}

// Connect opens a connection and checks what it opened.
func (c *heldConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.drv.Open(c.dsn)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", c.path, Classify(err))
	}
	// The -wal and -shm files are opened at the first read: read now, so
	// that the check sees them too.
	opened, err := mainFile(ctx, conn)
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("open %s: %w", c.path, Classify(err))
	}
	if err := keepWAL(conn); err != nil {
		conn.Close()
		return nil, fmt.Errorf("open %s: %w", c.path, err)
	}
	if !c.checked {
		return conn, nil
	}
	if err := heldCheck(c.dir, c.name, opened); err != nil {
		conn.Close()
		return nil, fmt.Errorf("open %s: %w", c.path, err)
	}
	return conn, nil
}

// persistWAL is the driver's file control of SQLite's persistent WAL
// (SQLITE_FCNTL_PERSIST_WAL).
type persistWAL interface {
	FileControlPersistWAL(dbName string, mode int) (int, error)
}

// keepWAL has the connection keep the -wal and -shm files when it is the
// last to close (SQLite's persistent WAL: the -wal is cut to nothing, see
// the journal_size_limit of dsn), where SQLite otherwise deletes them. That
// delete goes by the path SQLite resolved when it opened the database, not
// through the held folder: a folder on that path swapped for a link at
// that instant would redirect it. Kept, nothing is deleted by path.
func keepWAL(conn driver.Conn) error {
	fc, ok := conn.(persistWAL)
	if !ok {
		return errors.New("the driver cannot keep the -wal file")
	}
	if _, err := fc.FileControlPersistWAL("main", 1); err != nil {
		return fmt.Errorf("keep the -wal file: %w", err)
	}
	return nil
}

// Driver is the SQLite driver.
func (c *heldConnector) Driver() driver.Driver { return c.drv }

// Close closes the held folder.
func (c *heldConnector) Close() error { return c.dir.Close() }

// mainFile reads the schema version on a new connection, which opens the
// database's -wal and -shm files, and returns the path SQLite opened its
// database file by (its links resolved).
func mainFile(ctx context.Context, conn driver.Conn) (string, error) {
	q, ok := conn.(driver.QueryerContext)
	if !ok {
		return "", errors.New("the driver cannot query")
	}
	rows, err := q.QueryContext(ctx, `PRAGMA user_version`, nil)
	if err != nil {
		return "", err
	}
	rows.Close()
	if rows, err = q.QueryContext(ctx, `PRAGMA database_list`, nil); err != nil {
		return "", err
	}
	defer rows.Close()
	row := make([]driver.Value, len(rows.Columns()))
	for rows.Next(row) == nil {
		if len(row) == 3 && fmt.Sprint(row[1]) == "main" {
			if file, ok := row[2].(string); ok {
				return file, nil
			}
		}
	}
	return "", errors.New("SQLite names no main database file")
}
