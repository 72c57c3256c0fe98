package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/tent-tools/tent-tools/diag"
)

// HostsFile is the default hosts file: ~/.config/tent-tools/hosts.json
// ($XDG_CONFIG_HOME/tent-tools/hosts.json where that is set).
func HostsFile() string {
	if dir := os.Getenv("XDG_CONFIG_HOME"); dir != "" {
		return filepath.Join(dir, "tent-tools", "hosts.json")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".config", "tent-tools", "hosts.json")
}

// ReadHostsFile reads a hosts file: a JSON object from each host's name to
// its transport, the command (a program and its arguments) that runs its
// last argument, a shell line, on that host:
//
//	{"box": ["ssh", "-o", "BatchMode=yes", "dev@box"], "bench": ["koh", "exec", "bench", "--sh"]}
//
// A file that is not there is no hosts (where it was named, must is true,
// it is an error). Its errors are T9163.
func ReadHostsFile(file string, must bool) (map[string][]string, error) {
	data, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) && !must {
		return nil, nil
	}
	if err != nil {
		return nil, diag.Errorf(diag.T9163, "the hosts file: %v", err).With("file", file)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var hosts map[string][]string
	if err := dec.Decode(&hosts); err != nil {
		return nil, diag.Errorf(diag.T9163, "the hosts file %s is not a JSON object of hosts and their transports, such as {\"box\": [\"ssh\", \"-o\", \"BatchMode=yes\", \"dev@box\"]}: %v", file, err).With("file", file)
	}
	for host, argv := range hosts {
		if host == "" || len(argv) == 0 || argv[0] == "" {
			return nil, diag.Errorf(diag.T9163, "the hosts file %s: host %q needs a transport, a program and its arguments", file, host).With("file", file)
		}
	}
	return hosts, nil
}

// Hosts is what a face reaches other machines by: the transports of the
// hosts file, the tent-tools binary started there (copied where a host
// lacks it), and at most two calls at once per host. One face makes one
// and shares it among its remote workspaces.
type Hosts struct {
	cfg HostsConfig

	once   sync.Once
	binary binaryInfo
	binErr error

	mu    sync.Mutex
	slots map[string]chan struct{}
}

// HostsConfig is what Hosts are made with.
type HostsConfig struct {
	// Transports maps a host to its transport (a hosts file's,
	// ReadHostsFile); a host not in it is reached by ssh.
	Transports map[string][]string
	// Binary is the tent-tools binary to start there, copied where the
	// host lacks it; "" is this process's own executable (a Go host whose
	// own binary is not tent-tools names one).
	Binary string
	// Log hears what takes time (a copy of the binary); nil hears nothing.
	Log io.Writer
}

// callsPerHost is how many calls run at once on one host, as the other
// toolkits do.
const callsPerHost = 2

// NewHosts makes the Hosts of cfg.
func NewHosts(cfg HostsConfig) *Hosts {
	return &Hosts{cfg: cfg, slots: map[string]chan struct{}{}}
}

// Transport is the command that reaches host: the hosts file's, or
// `ssh -o BatchMode=yes -o ConnectTimeout=10 -o ServerAliveInterval=15
// HOST` (no prompt for a password, a host that does not answer is an
// error within seconds, and a link that went silent is found dropped
// within a minute, not waited on for ever).
func (h *Hosts) Transport(host string) []string {
	if argv, ok := h.cfg.Transports[host]; ok {
		return append([]string(nil), argv...)
	}
	return []string{"ssh", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10", "-o", "ServerAliveInterval=15", host}
}

// acquire takes one of host's two slots for a call, waiting for it.
func (h *Hosts) acquire(ctx context.Context, host string) (release func(), err error) {
	h.mu.Lock()
	slot, ok := h.slots[host]
	if !ok {
		slot = make(chan struct{}, callsPerHost)
		h.slots[host] = slot
	}
	h.mu.Unlock()
	select {
	case slot <- struct{}{}:
		return func() { <-slot }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// self answers this binary: its path, build and hash, read once.
func (h *Hosts) self() (binaryInfo, error) {
	h.once.Do(func() { h.binary, h.binErr = readBinary(h.cfg.Binary) })
	return h.binary, h.binErr
}

// logf tells the log.
func (h *Hosts) logf(format string, args ...any) {
	if h.cfg.Log != nil {
		fmt.Fprintf(h.cfg.Log, format, args...)
	}
}
