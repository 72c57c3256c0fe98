package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
)

// systemDirs are the host's folders the command sees read-only: a link
// among them (a merged /usr's /bin -> usr/bin) is made the same link.
var systemDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"}

// secrets are the files and folders of /etc hidden inside (an empty file
// or folder in their place): passwords' hashes, private keys, who may
// become root.
var secrets = []string{
	"/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-",
	"/etc/security/opasswd", "/etc/sudoers", "/etc/sudoers.d", "/etc/krb5.keytab",
	"/etc/ssl/private",
}

// secretGlobs are more of them, by pattern: ssh's host keys.
var secretGlobs = []string{"/etc/ssh/ssh_host_*key"}

// impl is what a Sandboxed keeps on Linux: the status pipe of bwrap and
// the placeholders it made.
type impl struct {
	status      *os.File // bwrap's --json-status-fd, read end; nil unconfined
	statusWrite *os.File
	read        chan []byte
	root        *os.Root
	made        []Path
}

// Command makes spec's command ready to run in the sandbox. The error
// wraps ErrUnavailable where bwrap is missing, and ErrLinked where a
// read-only path is a link.
func Command(spec Spec) (*Sandboxed, error) {
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		return nil, fmt.Errorf("%w: bubblewrap (bwrap) is not installed", ErrUnavailable)
	}
	real, err := filepath.EvalSymlinks(spec.Root)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	rel, err := filepath.Rel(spec.Root, spec.Dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return nil, fmt.Errorf("sandbox: the working folder %s is not inside %s", spec.Dir, spec.Root)
	}
	dir := filepath.Join(real, rel)
	root, err := os.OpenRoot(real)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	s := &Sandboxed{impl: impl{root: root}}
	args := []string{
		"--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
		"--die-with-parent", "--new-session", "--json-status-fd", "3",
	}
	if spec.NoNetwork {
		args = append(args, "--unshare-net")
	}
	args = append(args, systemArgs()...)
	args = append(args, "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--bind", real, real)
	for _, p := range spec.ReadOnly {
		if err := s.hold(p); err != nil {
			s.removeMade()
			root.Close()
			return nil, err
		}
		at := filepath.Join(real, filepath.FromSlash(p.Rel))
		args = append(args, "--ro-bind", at, at)
	}
	args = append(args, "--remount-ro", "/", "--chdir", dir,
		"--setenv", "HOME", "/tmp", "--setenv", "TMPDIR", "/tmp", "--")
	args = append(args, spec.Argv...)

	cmd := exec.Command(bwrap, args...)
	cmd.Env = spec.Env
	cmd.Dir = real
	// bwrap leads a process group of its own, and dies with this process;
	// its child, the namespace's first process, dies with bwrap
	// (--die-with-parent), and every process of the command with it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	r, w, err := os.Pipe()
	if err != nil {
		s.removeMade()
		root.Close()
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	cmd.ExtraFiles = []*os.File{w}
	s.Cmd, s.status, s.statusWrite = cmd, r, w
	return s, nil
}

// Unconfined makes spec's command ready to run without a sandbox, as the
// operator may accept: in a process group of its own in spec.Dir, which
// a child that leaves the group (setsid) outlives.
func Unconfined(spec Spec) *Sandboxed {
	cmd := exec.Command(spec.Argv[0], spec.Argv[1:]...)
	cmd.Dir, cmd.Env = spec.Dir, spec.Env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return &Sandboxed{Cmd: cmd}
}

// systemArgs are bwrap's words for the read-only system: each of
// systemDirs as it is on the host (a folder bound read-only, a link made
// again), the secrets of /etc hidden, and the resolver's file where
// /etc/resolv.conf is a link out of /etc.
func systemArgs() []string {
	var args []string
	for _, d := range systemDirs {
		info, err := os.Lstat(d)
		switch {
		case err != nil:
		case info.Mode()&fs.ModeSymlink != 0:
			if to, err := os.Readlink(d); err == nil {
				args = append(args, "--symlink", to, d)
			}
		case info.IsDir():
			args = append(args, "--ro-bind", d, d)
		}
	}
	hidden := append([]string(nil), secrets...)
	for _, g := range secretGlobs {
		m, _ := filepath.Glob(g)
		hidden = append(hidden, m...)
	}
	for _, p := range hidden {
		info, err := os.Lstat(p)
		switch {
		case err != nil || info.Mode()&fs.ModeSymlink != 0:
		case info.IsDir():
			args = append(args, "--tmpfs", p, "--remount-ro", p)
		default:
			args = append(args, "--ro-bind", os.DevNull, p)
		}
	}
	if to, err := filepath.EvalSymlinks("/etc/resolv.conf"); err == nil && !strings.HasPrefix(to, "/etc/") {
		args = append(args, "--ro-bind", to, to)
	}
	return args
}

// hold readies the read-only path p: a link is refused; a missing one
// gets its placeholder (an empty file or folder that the command sees
// read-only), which removeMade removes again.
func (s *Sandboxed) hold(p Path) error {
	info, err := s.root.Lstat(p.Rel)
	switch {
	case err == nil && info.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("sandbox: %s is %w", p.Rel, ErrLinked)
	case err == nil:
		return nil
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("sandbox: %w", err)
	}
	if p.Dir {
		err = s.root.Mkdir(p.Rel, 0o555)
	} else {
		var f *os.File
		if f, err = s.root.OpenFile(p.Rel, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o444); err == nil {
			err = f.Close()
		}
	}
	if err != nil {
		return fmt.Errorf("sandbox: hold %s: %w", p.Rel, err)
	}
	s.made = append(s.made, p)
	return nil
}

// removeMade removes the placeholders hold made, where they are still
// empty (nothing could write them, but a person outside could have).
func (s *Sandboxed) removeMade() error {
	var errs []error
	for _, p := range s.made {
		info, err := s.root.Lstat(p.Rel)
		if err != nil {
			continue
		}
		if p.Dir == info.IsDir() && (p.Dir || (info.Mode().IsRegular() && info.Size() == 0)) {
			if err := s.root.Remove(p.Rel); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
		}
	}
	s.made = nil
	return errors.Join(errs...)
}

// Start starts the command.
func (s *Sandboxed) Start() error {
	err := s.Cmd.Start()
	if s.statusWrite != nil {
		s.statusWrite.Close() // bwrap's copy stays open in it
		s.read = make(chan []byte, 1)
		go func() {
			b, _ := io.ReadAll(io.LimitReader(s.status, 1<<16))
			s.read <- b
		}()
	}
	return err
}

// Close is called after the command ended: it removes the placeholders
// and answers an error wrapping ErrUnavailable where the sandbox never
// came up (bwrap could not make the namespaces; its own message went to
// the command's stderr).
func (s *Sandboxed) Close() error {
	if s.status == nil {
		return nil
	}
	var status []byte
	if s.read != nil {
		status = <-s.read
	}
	s.status.Close()
	err := s.removeMade()
	s.root.Close()
	if !bytes.Contains(status, []byte(`"child-pid"`)) {
		return fmt.Errorf("%w: bubblewrap could not set the sandbox up (unprivileged user namespaces may be off)", ErrUnavailable)
	}
	if err != nil {
		return fmt.Errorf("sandbox: remove a placeholder: %w", err)
	}
	return nil
}
