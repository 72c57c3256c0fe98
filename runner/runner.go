// Package runner runs a tent project's functions and flows on its test
// database (docs/pages/format.md §5, §6; docs/pages/run.md, rows.md, logs.md): esbuild
// bundles each definition's file with what it imports, 'tent' and
// 'tent/ui' resolving to the runner's own modules (runner/jslib); goja
// runs the bundle in a fresh runtime per run, with the ctx of docs/pages/format.md §6,
// under a time and a memory limit; the test database is SQLite in .tent/
// (runner/testdb), migrated by `was` and `removed` before a run; every run
// is kept in the run log (runner/runlog).
//
// Architecture invariant: app code reaches nothing of the host but the
// primitives the runner's prelude wraps into ctx — no file system, no
// network but ctx.http to the hosts engine.ts allows, no host modules.
package runner

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/dop251/goja"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/sqlitefile"
	"github.com/tent-tools/tent-tools/runner/jslib"
	"github.com/tent-tools/tent-tools/runner/runlog"
	"github.com/tent-tools/tent-tools/runner/testdb"
	"github.com/tent-tools/tent-tools/schema"
)

// Config sets what a Runner's runs may use. The zero value is the default.
type Config struct {
	// TimeLimit bounds each run (0: DefaultTimeLimit); past it, T4004.
	TimeLimit time.Duration
	// MemoryLimit bounds the heap a run may grow, in bytes (0:
	// DefaultMemoryLimit); past it, T4005.
	MemoryLimit uint64
	// HTTP is the client ctx.http.fetch uses (nil: a plain client). Which
	// hosts it may reach is engine.ts's to say, whatever the client.
	HTTP *http.Client
	// StateDir, where set, opens the project's .tent folder (made where
	// missing), reached without following a link; the test database and
	// the run log are then opened through it (sqlitefile.OpenIn), so a
	// swap of .tent for a link after it was checked cannot redirect them.
	// Where nil they are opened by their paths.
	StateDir func() (*os.File, error)
	// InProcess runs app code in this process, as before worker processes
	// (worker.go): for a worker itself, and to measure the difference.
	// Where false, every run and screen runs in a worker of the Runner's
	// pool, under the operating system's limits.
	InProcess bool
	// Progress, where set, hears of the first build of the test database
	// (work named, 0 steps: not counted), for a progress line; its end is
	// called once the database is built or has failed.
	Progress func(work string, total int) (step func(n int), end func())
}

// Runner runs one project folder's code. It keeps the test database and
// the run log open, and the bundled code cached, between runs; it is safe
// for concurrent use (runs on one test database take turns).
type Runner struct {
	root    string
	cfg     Config
	cache   *bundleCache
	guard   *goja.Program
	prelude *goja.Program

	mu       sync.Mutex
	db       *testdb.DB
	log      *runlog.Log
	migrated string // the fingerprint of the model the database was last brought to
	// migratedSchema is the database's schema cookie just after, so a
	// change made by another process since is seen.
	migratedSchema int64
	lastIx         *definitions.Index
	lastApp        *app
	keptIx         *definitions.Index // the snapshot whose app KeepApp last wrote
	early          sync.WaitGroup     // Prefetch's opening of the database, which Close waits for

	// The app snapshot (appcache.go): the one Prefetch is reading (done
	// when snapRead is closed) and the one the last run used.
	snapMu   sync.Mutex
	snapRead chan struct{}
	snapData *snapshot
	snapLast *snapshot

	// The workers app code runs in (worker_host.go), made on first use,
	// and what was last sent them: the app with its id, and the host's
	// number for the last snapshot of files.
	poolOnce    sync.Once
	pool        *pool
	turn        chan struct{} // held by the call a worker is running
	wireMu      sync.Mutex
	wireApp     *app
	wireAppID   uint64
	wireAppData []byte
	genSnap     any
	gen         uint64
	// remote, in a worker, is its pipe to the host.
	remote *workerClient
}

// The files a Runner keeps in the project's .tent/ folder.
const (
	TestDBFile = "test.db"
	LogFile    = "logs.db"
	CacheDir   = "cache"
)

// New makes a Runner for the project folder root. It opens nothing yet:
// the test database and the log are opened by the first run that needs them.
func New(root string, cfg Config) (*Runner, error) {
	if cfg.TimeLimit <= 0 {
		cfg.TimeLimit = envTimeLimit()
	}
	if cfg.MemoryLimit == 0 {
		cfg.MemoryLimit = DefaultMemoryLimit
	}
	if cfg.HTTP == nil {
		cfg.HTTP = defaultHTTP()
	}
	cache := newBundleCache(filepath.Join(root, ".tent", CacheDir))
	cache.held = cfg.StateDir
	r := &Runner{root: root, cfg: cfg, cache: cache}
	if r.workers() != nil {
		// Nothing of JavaScript runs in this process.
		return r, nil
	}
	var err error
	if r.prelude, err = goja.Compile("tent:prelude", jslib.Prelude, false); err != nil {
		return nil, fmt.Errorf("runner: prelude: %w", err)
	}
	if r.guard, err = goja.Compile("tent:guard", jslib.Guard, false); err != nil {
		return nil, fmt.Errorf("runner: guard: %w", err)
	}
	return r, nil
}

// Close ends the workers, and closes the test database and the run log.
func (r *Runner) Close() error {
	r.poolOnce.Do(func() {}) // no pool is made after Close
	if r.pool != nil {
		r.pool.close()
	}
	r.early.Wait()
	r.mu.Lock()
	defer r.mu.Unlock()
	var errs []error
	if r.db != nil {
		errs = append(errs, r.db.Close())
		r.db = nil
	}
	if r.log != nil {
		errs = append(errs, r.log.Close())
		r.log = nil
	}
	r.migrated = ""
	return errors.Join(errs...)
}

// TimeLimitEnv is the environment variable by which an operator sets the
// time limit of every run of a process (a Go duration, 100ms to 1m; CI
// runs its hostile corpus with 1s), where the Config sets none.
const TimeLimitEnv = "TENT_RUN_TIME_LIMIT"

// envTimeLimit is the time limit TimeLimitEnv says, or DefaultTimeLimit
// where it says none that fits.
func envTimeLimit() time.Duration {
	d, err := time.ParseDuration(os.Getenv(TimeLimitEnv))
	if err != nil || d < 100*time.Millisecond || d > time.Minute {
		return DefaultTimeLimit
	}
	return d
}

// TestDBPath is where the test database of the project at root lives.
func TestDBPath(root string) string { return filepath.Join(root, ".tent", TestDBFile) }

// database answers the test database, open, and brought to a's model:
// built from the test data the first time, migrated after. Drift is T2011.
func (r *Runner) database(ctx context.Context, a *app) (*testdb.DB, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.db == nil {
		if _, err := os.Stat(TestDBPath(r.root)); errors.Is(err, fs.ErrNotExist) && r.cfg.Progress != nil {
			_, end := r.cfg.Progress("building the test database", 0)
			defer end()
		}
		db, err := r.openTestDB(ctx)
		if err != nil {
			return nil, stateError(TestDBFile, err)
		}
		r.db = db
	}
	if r.migrated == a.fingerprint {
		// Another process (a worker, the host, another tent-tools) may
		// have migrated the database to another model since.
		if v, err := r.db.SchemaVersion(ctx); err == nil && v == r.migratedSchema {
			return r.db, nil
		}
	}
	if err := reservedTables(a); err != nil {
		return nil, err
	}
	if _, err := r.db.Migrate(ctx, a.model); err != nil {
		var de *testdb.DriftError
		if errors.As(err, &de) {
			return nil, driftError(de.Drift)
		}
		return nil, err
	}
	r.migrated = a.fingerprint
	r.migratedSchema, _ = r.db.SchemaVersion(ctx)
	return r.db, nil
}

// runLog answers the run log, open. It is opened without ctx's
// cancellation: a run that was cancelled is still recorded, and the log it
// opens serves the later calls of the process.
func (r *Runner) runLog(ctx context.Context) (*runlog.Log, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.log == nil {
		l, err := r.openLog(context.WithoutCancel(ctx))
		if err != nil {
			return nil, stateError(LogFile, err)
		}
		r.log = l
	}
	return r.log, nil
}

// reservedTables refuses a model with a table or column whose name SQLite
// or the test database keeps for its own (T9107, schema.ReservedName): it
// could not be made, or would be the database's, not the app's.
func reservedTables(a *app) error {
	for _, t := range a.model.Tables {
		if prefix, ok := schema.ReservedName(t.Name); ok {
			return diag.Errorf(diag.T9107, "table %s: %s; rename the table (check says T2014)", t.Name, schema.ReservedWhy(prefix)).With("table", t.Name)
		}
		for _, c := range t.Columns {
			if prefix, ok := schema.ReservedName(c.Name); ok {
				return diag.Errorf(diag.T9107, "column %s.%s: %s; rename the column (check says T2014)", t.Name, c.Name, schema.ReservedWhy(prefix)).With("table", t.Name).With("column", c.Name)
			}
		}
	}
	return nil
}

// openTestDB opens the test database, through the held .tent folder where
// the config gives one.
func (r *Runner) openTestDB(ctx context.Context) (*testdb.DB, error) {
	if r.cfg.StateDir == nil {
		return testdb.Open(ctx, TestDBPath(r.root))
	}
	dir, err := r.cfg.StateDir()
	if err != nil {
		return nil, err
	}
	defer dir.Close()
	return testdb.OpenIn(ctx, dir, TestDBPath(r.root))
}

// openLog opens the run log, through the held .tent folder where the
// config gives one.
func (r *Runner) openLog(ctx context.Context) (*runlog.Log, error) {
	path := filepath.Join(r.root, ".tent", LogFile)
	if r.cfg.StateDir == nil {
		return runlog.Open(ctx, path)
	}
	dir, err := r.cfg.StateDir()
	if err != nil {
		return nil, err
	}
	defer dir.Close()
	return runlog.OpenIn(ctx, dir, path)
}

// stateError codes the error of opening the database name of .tent/: one
// made by a newer release is T9113, and is left as it is; one whose
// folder was swapped for a link while it was opened is T9105.
func stateError(name string, err error) error {
	rel := ".tent/" + name
	switch {
	case errors.Is(err, sqlitefile.ErrNewer):
		return diag.Errorf(diag.T9113, "%s was %v; update tent-tools to use this project (the file is left as it is)", rel, err).With("path", rel)
	case errors.Is(err, sqlitefile.ErrRedirected):
		return diag.Errorf(diag.T9105, "path refused: .tent/ was swapped for a link while %s was opened (%v); the framework keeps its state in a real folder of the project: remove the link and run the tool again", rel, err).With("path", ".tent")
	}
	return err
}
