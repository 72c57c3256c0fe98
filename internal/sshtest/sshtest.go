// Package sshtest is for tests that reach a machine through a real ssh:
// Debian's sshd started on the loopback (127.0.0.1, a free port) with a
// host key and a client key made for the test, its own config, in the
// foreground, and the ssh command line that reaches it. Under CI a
// missing sshd or ssh fails the test (internal/testneed).
package sshtest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/internal/testneed"
)

// Server is one sshd on the loopback, and what reaches it.
type Server struct {
	Dir   string // its keys, config, log and known hosts
	Port  int
	Key   string // the client's private key
	Known string // the client's known hosts file
	cmd   *exec.Cmd
}

// Need answers the sshd program, or ends t (failing under CI) where sshd,
// ssh or ssh-keygen is missing.
func Need(t testing.TB) string {
	t.Helper()
	sshd, err := exec.LookPath("sshd")
	if err != nil {
		if _, serr := os.Stat("/usr/sbin/sshd"); serr == nil {
			sshd, err = "/usr/sbin/sshd", nil
		}
	}
	if err != nil {
		testneed.Missing(t, "sshd is not installed (Debian's openssh-server; .ci/setup.d/60-openssh.sh)")
	}
	for _, prog := range []string{"ssh", "ssh-keygen"} {
		if _, err := exec.LookPath(prog); err != nil {
			testneed.Missing(t, "%s is not installed (Debian's openssh-client; .ci/setup.d/60-openssh.sh)", prog)
		}
	}
	return sshd
}

// Start makes the keys and the config in dir and starts the sshd program
// on a free port of the loopback, accepting the environment variables
// TENT_* that a transport sends (ssh -o SetEnv). Stop ends it.
func Start(sshd, dir string) (*Server, error) {
	s := &Server{Dir: dir, Key: filepath.Join(dir, "client"), Known: filepath.Join(dir, "known_hosts")}
	for _, key := range []string{filepath.Join(dir, "host"), s.Key} {
		if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("ssh-keygen: %v\n%s", err, out)
		}
	}
	pub, err := os.ReadFile(s.Key + ".pub")
	if err != nil {
		return nil, err
	}
	authorized := filepath.Join(dir, "authorized_keys")
	if err := os.WriteFile(authorized, pub, 0o600); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s.Port = ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	config := strings.Join([]string{
		"Port " + strconv.Itoa(s.Port),
		"ListenAddress 127.0.0.1",
		"HostKey " + filepath.Join(dir, "host"),
		"AuthorizedKeysFile " + authorized,
		"PidFile " + filepath.Join(dir, "sshd.pid"),
		// Root (a CI container) logs in with the key, never a password.
		"PermitRootLogin prohibit-password",
		"PasswordAuthentication no",
		"KbdInteractiveAuthentication no",
		"UsePAM no",
		"StrictModes no",
		"MaxStartups 50",
		"AcceptEnv TENT_*",
		"",
	}, "\n")
	configFile := filepath.Join(dir, "sshd_config")
	if err := os.WriteFile(configFile, []byte(config), 0o600); err != nil {
		return nil, err
	}
	if os.Geteuid() == 0 {
		// sshd run as root wants its privilege separation folder.
		os.MkdirAll("/run/sshd", 0o755)
	}
	log, err := os.Create(filepath.Join(dir, "sshd.log"))
	if err != nil {
		return nil, err
	}
	defer log.Close()
	cmd := exec.Command(sshd, "-D", "-e", "-f", configFile)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start sshd: %w", err)
	}
	s.cmd = cmd
	for start := time.Now(); ; time.Sleep(20 * time.Millisecond) {
		c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(s.Port))
		if err == nil {
			c.Close()
			return s, nil
		}
		if time.Since(start) > 10*time.Second {
			s.Stop()
			out, _ := os.ReadFile(filepath.Join(dir, "sshd.log"))
			return nil, fmt.Errorf("sshd does not listen on %d: %s", s.Port, out)
		}
	}
}

// Stop kills the sshd.
func (s *Server) Stop() {
	if s != nil && s.cmd != nil {
		s.cmd.Process.Kill()
		s.cmd.Wait()
	}
}

// Transport is the command that reaches the server as 127.0.0.1 with the
// test's key, setting env there (each name TENT_...).
func (s *Server) Transport(env map[string]string) []string {
	argv := []string{"ssh", "-F", "/dev/null", "-p", strconv.Itoa(s.Port), "-i", s.Key,
		"-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes", "-o", "StrictHostKeyChecking=no",
		"-o", "UserKnownHostsFile=" + s.Known, "-o", "LogLevel=ERROR"}
	if len(env) > 0 {
		// ssh takes the first SetEnv it is given: all of them in one.
		names := make([]string, 0, len(env))
		for name := range env {
			names = append(names, name)
		}
		sort.Strings(names)
		vars := make([]string, len(names))
		for i, name := range names {
			vars[i] = name + "=" + env[name]
		}
		argv = append(argv, "-o", "SetEnv="+strings.Join(vars, " "))
	}
	return append(argv, "127.0.0.1")
}
