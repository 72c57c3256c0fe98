package runner

import (
	"encoding/json"

	"github.com/tent-tools/tent-tools/runner/testdb"
	"github.com/tent-tools/tent-tools/schema"
)

// app is what a run needs of a project's definitions, read once per index
// snapshot: the callables with their inputs, the tables with the files
// that hold their may rules, the users table, and where data may go out.
type app struct {
	callables map[string]*callable
	tables    map[string]*tableDef
	// kinds names the kind of every definition, so a run of a table or a
	// screen can say what the name is.
	kinds     map[string]string
	users     string
	model     *testdb.Model
	httpAllow []string
	mailFrom  string
	// private holds the names of private columns and private input
	// fields, whose values the log hides.
	private map[string]bool
	// fingerprint is a hash of model, so the database is migrated once per change.
	fingerprint string
	// encoded is the snapshot an app was decoded from (appcodec.go), which
	// is what a worker is given of it; nil for an app read from an index.
	encoded []byte
	// snapKey and snapDigest are that snapshot's key and digest, by which
	// a worker that read the snapshot itself knows it is the same.
	snapKey    string
	snapDigest []byte
}

// callable is a function or a flow.
type callable struct {
	Name  string
	Kind  string // "fn" or "flow"
	Path  string // the file that defines it
	Input []*schema.Column
	Steps []string // a flow's steps
	// Sends lists how it, or anything it reaches, sends data out ("mail",
	// "http"); empty where it sends nothing.
	Sends []string
}

// tableDef is a live table and the file that defines it.
type tableDef struct {
	Schema *schema.Table
	Path   string
	// Rules names the may rules the table declares ("read", "write"), so a
	// run loads the table's code only for a rule it has.
	Rules map[string]bool
}

// The kinds a run may call.
const (
	kindFn   = "fn"
	kindFlow = "flow"
)

// modelFingerprint is a content hash of a test database model.
func modelFingerprint(m *testdb.Model) string {
	b, err := json.Marshal(m)
	if err != nil {
		return ""
	}
	return hashBytes(b)
}
