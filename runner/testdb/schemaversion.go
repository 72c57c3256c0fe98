package testdb

import (
	"context"
	"fmt"
)

// SchemaVersion answers SQLite's schema cookie of the database, which
// every change of its tables or columns moves, in whichever process or
// connection it is made: a runner that migrated the database knows by it
// whether another (the host's rows or reset, a worker's run) changed the
// schema since.
func (d *DB) SchemaVersion(ctx context.Context) (int64, error) {
	var v int64
	if err := d.sql.QueryRowContext(ctx, "PRAGMA schema_version").Scan(&v); err != nil {
		return 0, fmt.Errorf("test database: %w", err)
	}
	return v, nil
}
