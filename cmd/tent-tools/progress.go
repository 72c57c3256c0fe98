package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/tent-tools/tent-tools/tools"
)

// progressAfter is how long a piece of work runs before its progress line
// shows: shorter work passes without a word. TENT_TOOLS_PROGRESS_AFTER (a
// Go duration, "0s": at once) sets another.
const progressAfter = 300 * time.Millisecond

// progressAfterVar names the environment variable that sets progressAfter.
const progressAfterVar = "TENT_TOOLS_PROGRESS_AFTER"

// terminalProgress answers the progress of long work for a person who
// watches stderr: a progress line on stderr where it is a terminal, shown
// once the work has run progressAfter and cleared when it ends. Where
// stderr is no terminal (a script, CI, a log) it answers nil: nothing is
// written. A TENT_TOOLS_PROGRESS_AFTER that is no duration is an error,
// terminal or not.
func terminalProgress(stderr io.Writer) (tools.Progress, error) {
	after := progressAfter
	if v := os.Getenv(progressAfterVar); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return nil, fmt.Errorf("%s=%q: want a duration such as 300ms or 0s", progressAfterVar, v)
		}
		after = d
	}
	f, ok := stderr.(*os.File)
	if !ok || !isTerminal(f) {
		return nil, nil
	}
	return progressTo(f, after), nil
}

// progressTo answers progress lines written to out, each shown once its
// work has run after.
func progressTo(out io.Writer, after time.Duration) tools.Progress {
	return func(work string, total int) (func(int), func()) {
		l := &progressLine{out: out, work: work, total: total}
		l.mu.Lock()
		defer l.mu.Unlock()
		l.timer = time.AfterFunc(after, l.show)
		return l.step, l.end
	}
}

// progressLine is the progress line of one piece of work: its steps are
// counted from the start, its bar drawn from progressAfter on.
type progressLine struct {
	out   io.Writer
	work  string
	total int // 0: not counted, a spinner

	mu    sync.Mutex
	done  int
	ended bool
	timer *time.Timer
	bar   *progressbar.ProgressBar
}

// show draws the bar, with the steps done so far, unless the work ended.
func (l *progressLine) show() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ended {
		return
	}
	max := l.total
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(l.out),
		progressbar.OptionSetDescription(l.work),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionThrottle(100 * time.Millisecond),
		progressbar.OptionSetRenderBlankState(true),
	}
	if max <= 0 {
		max = -1
	} else {
		opts = append(opts, progressbar.OptionShowCount())
	}
	l.bar = progressbar.NewOptions(max, opts...)
	switch {
	case max < 0:
		l.bar.Add(1) // a spinner turns from its first step on
	case l.done > 0:
		l.bar.Set(min(l.done, l.total))
	}
}

// step counts n more steps done.
func (l *progressLine) step(n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.done += n
	if l.bar != nil && !l.ended && l.done <= l.total {
		l.bar.Add(n)
	}
}

// end ends the work: a bar not yet drawn never is, a drawn one is cleared.
func (l *progressLine) end() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ended {
		return
	}
	l.ended = true
	l.timer.Stop()
	if l.bar != nil {
		l.bar.Finish()
		l.bar.Exit()
	}
}
