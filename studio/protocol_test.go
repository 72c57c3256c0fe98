package studio_test

import (
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/internal/sample"
)

// modelOf is the part of tent/model these tests read.
type modelOf struct {
	Version int `json:"version"`
	Tables  []struct {
		Name    string `json:"name"`
		Columns []struct {
			Name string `json:"name"`
			Type string `json:"type"`
		} `json:"columns"`
	} `json:"tables"`
}

func (m modelOf) columns(table string) []string {
	for _, t := range m.Tables {
		if t.Name == table {
			var names []string
			for _, c := range t.Columns {
				names = append(names, c.Name)
			}
			return names
		}
	}
	return nil
}

func model(t *testing.T, ss *session) modelOf {
	t.Helper()
	raw, err := ss.call("tent/model", map[string]any{})
	if err != nil {
		t.Fatalf("tent/model: %v", err)
	}
	var m modelOf
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("tent/model: %v: %s", err, raw)
	}
	return m
}

// points answers the history's points, newest first, through tent/call.
func points(t *testing.T, ss *session) []struct {
	Point int    `json:"point"`
	Tool  string `json:"tool"`
	Kind  string `json:"kind"`
} {
	t.Helper()
	raw, err := ss.call("tent/call", map[string]any{"tool": "history", "input": map[string]any{}})
	if err != nil {
		t.Fatalf("history: %v", err)
	}
	var ans struct {
		Data struct {
			Points []struct {
				Point int    `json:"point"`
				Tool  string `json:"tool"`
				Kind  string `json:"kind"`
			} `json:"points"`
		} `json:"data"`
	}
	if err := json.Unmarshal(raw, &ans); err != nil {
		t.Fatalf("history: %v: %s", err, raw)
	}
	return ans.Data.Points
}

func readFile(t *testing.T, dir, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, path))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestModelApplyUndo: through the binary, the page's session answers the
// model, applies an op (the file written, one point, the model's version
// grown), a dry run writes nothing, and undo puts the bytes back.
func TestModelApplyUndo(t *testing.T) {
	t.Parallel()
	dir := copyProject(t, "clinic")
	before := readFile(t, dir, "tables/patients.ts")
	s := startStudio(t, dir)
	ss := s.open(t, nil)

	m := model(t, ss)
	if got := strings.Join(m.columns("patients"), ","); got != "fullName,born,ward" {
		t.Fatalf("tent/model patients columns %q; want fullName,born,ward", got)
	}

	op := map[string]any{"ops": []any{map[string]any{"op": "addColumn", "table": "patients", "name": "phone", "type": "text", "optional": true}}}
	dry := map[string]any{"ops": op["ops"], "dryRun": true}
	if _, err := ss.call("tent/apply", dry); err != nil {
		t.Fatalf("tent/apply dryRun: %v", err)
	}
	if readFile(t, dir, "tables/patients.ts") != before {
		t.Fatal("a dry run wrote tables/patients.ts")
	}
	raw, err := ss.call("tent/apply", op)
	if err != nil {
		t.Fatalf("tent/apply: %v", err)
	}
	var ans struct {
		Version int  `json:"version"`
		Point   *int `json:"point"`
	}
	json.Unmarshal(raw, &ans)
	if ans.Point == nil {
		t.Fatalf("tent/apply recorded no point: %s", raw)
	}
	after := readFile(t, dir, "tables/patients.ts")
	want := strings.Replace(before, "    ward: text({ optional: true }),\n", "    ward: text({ optional: true }),\n    phone: text({ optional: true }),\n", 1)
	if after != want {
		t.Fatalf("tables/patients.ts after addColumn:\n%s\nwant:\n%s", after, want)
	}
	ps := points(t, ss)
	if len(ps) != 1 || ps[0].Point != *ans.Point || ps[0].Tool != "change" {
		t.Fatalf("history after one tent/apply: %+v; want one change point %d", ps, *ans.Point)
	}
	m2 := model(t, ss)
	if m2.Version <= m.Version || strings.Join(m2.columns("patients"), ",") != "fullName,born,ward,phone" {
		t.Fatalf("tent/model after the op: version %d (was %d), columns %v", m2.Version, m.Version, m2.columns("patients"))
	}

	if _, err := ss.call("tent/call", map[string]any{"tool": "undo", "input": map[string]any{}}); err != nil {
		t.Fatalf("undo: %v", err)
	}
	if readFile(t, dir, "tables/patients.ts") != before {
		t.Fatal("undo did not put tables/patients.ts back byte for byte")
	}
}

// TestApplyRefusedByPolicy: the operator's --policy binds the page's
// session: an op it denies is refused with T9105 and the op's index,
// nothing written, no point.
func TestApplyRefusedByPolicy(t *testing.T) {
	t.Parallel()
	dir := copyProject(t, "clinic")
	policy := filepath.Join(t.TempDir(), "policy.json")
	os.WriteFile(policy, []byte(`{"deny": ["add:column"]}`), 0o600)
	before := readFile(t, dir, "tables/patients.ts")
	s := startStudio(t, dir, "--policy", policy)
	ss := s.open(t, nil)
	_, err := ss.call("tent/apply", map[string]any{"ops": []any{map[string]any{"op": "addColumn", "table": "patients", "name": "phone", "type": "text"}}})
	re, ok := err.(*rpcError)
	if !ok || !strings.HasPrefix(re.Message, "T9105: ") {
		t.Fatalf("tent/apply of a denied op: %v; want T9105", err)
	}
	if readFile(t, dir, "tables/patients.ts") != before {
		t.Fatal("a refused op wrote tables/patients.ts")
	}
	if ps := points(t, ss); len(ps) != 0 {
		t.Fatalf("a refused op recorded points %+v", ps)
	}
	// A page may not widen the operator's policy.
	ss2, _, err := s.dial(t, "/lsp", http.Header{"Authorization": {"Bearer " + s.token}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = ss2.call("initialize", map[string]any{"rootUri": "file://" + dir, "capabilities": map[string]any{},
		"initializationOptions": map[string]any{"writes": "server", "policy": map[string]any{"allow": []string{"**"}, "also": []string{"engine"}}}})
	if err == nil || !strings.Contains(err.Error(), "T9102") {
		t.Fatalf("initialize with a wider policy: %v; want T9102", err)
	}
}

// TestAskedOfThePerson: where the policy asks, the page is asked
// (window/showMessageRequest); its no refuses (T3103), its yes writes.
func TestAskedOfThePerson(t *testing.T) {
	t.Parallel()
	dir := copyProject(t, "clinic")
	policy := filepath.Join(t.TempDir(), "policy.json")
	os.WriteFile(policy, []byte(`{"ask": ["add:column"]}`), 0o600)
	s := startStudio(t, dir, "--policy", policy)
	ss := s.open(t, nil)
	say := "No"
	asked := 0
	ss.answer = func(method string, params json.RawMessage) any {
		if method != "window/showMessageRequest" {
			return nil
		}
		asked++
		return map[string]string{"title": say}
	}
	op := map[string]any{"ops": []any{map[string]any{"op": "addColumn", "table": "patients", "name": "phone", "type": "text", "optional": true}}}
	if _, err := ss.call("tent/apply", op); err == nil || !strings.Contains(err.Error(), "T3103") {
		t.Fatalf("tent/apply the person said no to: %v; want T3103", err)
	}
	say = "Yes"
	if _, err := ss.call("tent/apply", op); err != nil {
		t.Fatalf("tent/apply the person said yes to: %v", err)
	}
	if asked != 2 || !strings.Contains(readFile(t, dir, "tables/patients.ts"), "phone: text({ optional: true })") {
		t.Fatalf("asked %d times; want 2, and the column written", asked)
	}
}

// TestRefusals: without the token or the cookie, with another, from
// another page or by another Host name, a request is refused before any
// page or upgrade; the token in the query is traded for a cookie and the
// page served with it.
func TestRefusals(t *testing.T) {
	t.Parallel()
	dir := copyProject(t, "clinic")
	s := startStudio(t, dir)
	ck := s.cookie(t)
	if !ck.HttpOnly || ck.SameSite != http.SameSiteStrictMode || ck.Path != "/" || ck.Value == s.token {
		t.Fatalf("the cookie %s: want HttpOnly, SameSite=Strict, Path=/, a secret of its own", ck.String())
	}
	good := ck.String()
	tests := []struct {
		name   string
		path   string
		h      http.Header
		status int
	}{
		{"page, cookie", "/", http.Header{"Cookie": {good}}, 200},
		{"page, no token", "/", nil, 401},
		{"page, wrong token", "/?token=" + strings.Repeat("x", 43), nil, 401},
		{"page, wrong cookie", "/", http.Header{"Cookie": {ck.Name + "=" + strings.Repeat("y", 43)}}, 401},
		{"page, cookie and a wrong token", "/?token=nope", http.Header{"Cookie": {good}}, 401},
		{"page, Bearer", "/", http.Header{"Authorization": {"Bearer " + s.token}}, 200},
		{"page, other Host", "/", http.Header{"Cookie": {good}, "Host": {"evil.example:" + strings.Split(s.host, ":")[1]}}, 403},
		{"session, no token", "/studio.json", nil, 401},
		{"session, cookie", "/studio.json", http.Header{"Cookie": {good}}, 200},
		{"session, other origin", "/studio.json", http.Header{"Cookie": {good}, "Origin": {"http://evil.example"}}, 403},
		{"two origins", "/studio.json", http.Header{"Cookie": {good}, "Origin": {s.base, s.base}}, 400},
		{"no such file", "/nope.js", http.Header{"Cookie": {good}}, 404},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, h, body := s.get(t, tt.path, tt.h)
			if code != tt.status {
				t.Fatalf("GET %s: %d %s; want %d", tt.path, code, body, tt.status)
			}
			if strings.Contains(body, s.token) {
				t.Fatalf("GET %s: the answer quotes the token", tt.path)
			}
			if code == 200 && tt.path == "/" && (!strings.Contains(h.Get("Content-Security-Policy"), "default-src 'self'") || h.Get("Cache-Control") != "no-store") {
				t.Fatalf("the page's headers: %v", h)
			}
		})
	}
	ws := []struct {
		name   string
		path   string
		h      http.Header
		status int
	}{
		{"no token", "/lsp", http.Header{"Origin": {s.base}}, 401},
		{"wrong token", "/lsp?token=" + strings.Repeat("x", 43), nil, 401},
		{"wrong cookie", "/lsp", http.Header{"Cookie": {ck.Name + "=" + strings.Repeat("y", 43)}, "Origin": {s.base}}, 401},
		{"other origin", "/lsp", http.Header{"Cookie": {good}, "Origin": {"http://evil.example"}}, 403},
		{"localhost, other port", "/lsp", http.Header{"Cookie": {good}, "Origin": {"http://localhost:1"}}, 403},
		{"cookie", "/lsp", http.Header{"Cookie": {good}, "Origin": {s.base}}, 101},
		{"token", "/lsp?token=" + s.token, nil, 101},
		{"bearer", "/lsp", http.Header{"Authorization": {"Bearer " + s.token}}, 101},
	}
	for _, tt := range ws {
		t.Run("ws "+tt.name, func(t *testing.T) {
			ss, resp, err := s.dial(t, tt.path, tt.h)
			got := 0
			if resp != nil {
				got = resp.StatusCode
			}
			if got != tt.status {
				t.Fatalf("dial %s: %d (%v); want %d", tt.path, got, err, tt.status)
			}
			if ss != nil {
				if _, err := ss.call("tent/model", map[string]any{}); err == nil || !strings.Contains(err.Error(), "not initialized") {
					t.Fatalf("tent/model before initialize: %v", err)
				}
			}
		})
	}
	// A session may open no folder but the studio's project.
	ss, _, err := s.dial(t, "/lsp", http.Header{"Authorization": {"Bearer " + s.token}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ss.call("initialize", map[string]any{"rootUri": "file://" + filepath.Dir(dir), "capabilities": map[string]any{}}); err == nil || !strings.Contains(err.Error(), "T9121") {
		t.Fatalf("initialize on another folder: %v; want T9121", err)
	}
}

// TestListenRefused: an address that is not the loopback, --public
// without TLS, and a port taken are refused with T9124 and status 1;
// where --listen is not given and 7200 is taken, the studio says so and
// serves on a free port.
func TestListenRefused(t *testing.T) {
	t.Parallel()
	dir := copyProject(t, "clinic")
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--listen", "0.0.0.0:0"}, "T9124: --listen 0.0.0.0:0 is not a loopback address"},
		{[]string{"--listen", "192.0.2.1:7200", "--public"}, "T9124: --public needs --tls-cert and --tls-key"},
		{[]string{"--listen", held.Addr().String()}, "T9124: --listen " + held.Addr().String() + ": the port is taken"},
		{[]string{"--listen", "7200"}, "T9124: --listen 7200 is not HOST:PORT"},
	}
	for _, tt := range tests {
		cmd := exec.Command(bin, append([]string{"studio", "-C", dir}, tt.args...)...)
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(string(out), tt.want) {
			t.Errorf("studio %v: %v\n%s\nwant status 1 and %q", tt.args, err, out, tt.want)
		}
	}

	// 7200 held (by this test, or by another studio already).
	if ln, err := net.Listen("tcp", "127.0.0.1:7200"); err == nil {
		defer ln.Close()
	}
	cmd := exec.Command(bin, "studio", "-C", dir)
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	buf := make([]byte, 200)
	n, _ := out.Read(buf)
	if !strings.Contains(string(buf[:n]), "tent-tools studio: open http://127.0.0.1:") || strings.Contains(string(buf[:n]), ":7200/") {
		t.Fatalf("studio with 7200 taken printed %q", buf[:n])
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(stderr.String(), "127.0.0.1:7200 is taken, so the studio listens on 127.0.0.1:") {
		if time.Now().After(deadline) {
			t.Fatalf("studio with 7200 taken did not say so: %q", stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestLiveChange: a change made beside the studio (the CLI's edit) is
// told to the page's session by tent/changed, and the model shows it.
func TestLiveChange(t *testing.T) {
	dir := copyProject(t, "clinic")
	s := startStudio(t, dir)
	ss := s.open(t, nil)
	v := model(t, ss).Version
	cmd := exec.Command(bin, "-C", dir, "edit", "tables/patients.ts", "--find", "    ward: text({ optional: true }),\n", "--with", "    ward: text({ optional: true }),\n    email: text({ optional: true }),\n")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("edit: %v\n%s", err, out)
	}
	var changed struct {
		Version int `json:"version"`
	}
	json.Unmarshal(ss.waitNote(t, "tent/changed", 5*time.Second), &changed)
	m := model(t, ss)
	if changed.Version <= v || m.Version != changed.Version || !strings.Contains(strings.Join(m.columns("patients"), ","), "email") {
		t.Fatalf("after the CLI's edit: tent/changed %d, model %d %v (was %d)", changed.Version, m.Version, m.columns("patients"), v)
	}
}

// TestStopWithPages: Ctrl-C with a page's session open ends the studio
// cleanly and soon: status 0, the session closed, nothing left pending.
func TestStopWithPages(t *testing.T) {
	t.Parallel()
	dir := copyProject(t, "clinic")
	s := startStudio(t, dir)
	ss := s.open(t, nil)
	if _, err := ss.call("tent/model", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	s.stop(t)
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the studio took %s to stop with a page open", took)
	}
	deadline := time.Now().Add(2 * time.Second)
	for {
		if _, err := ss.call("tent/model", map[string]any{}); err != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the page's session still answers after the studio stopped")
		}
		time.Sleep(20 * time.Millisecond)
	}
	sample.NoTemps(t, dir)
}
