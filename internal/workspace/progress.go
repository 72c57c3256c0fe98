package workspace

// Progress hears how far a piece of long work has come, for a face that
// shows it to a person watching (the command line on a terminal): the
// first index of a project, the first build of its test database, the
// start of the browser for shot. It is called when the work begins, with
// the work's name and its count of steps (0: not counted), and answers
// step, called with the steps done since its last call (from several
// goroutines at once), and end, called once when the work ends, done or
// failed. A nil Progress hears nothing.
type Progress func(work string, total int) (step func(n int), end func())

// Begin begins work on p; a nil p answers steps and an end that do nothing.
func (p Progress) Begin(work string, total int) (step func(n int), end func()) {
	if p == nil {
		return func(int) {}, func() {}
	}
	return p(work, total)
}
