package check

import (
	"fmt"
	"strings"

	"github.com/tent-tools/tent-tools/diag"
)

// GitHub prints findings as GitHub Actions workflow commands, which the
// runner turns into annotations on the pull request:
// ::error file=P,line=L,col=C,endLine=L,endColumn=C,title=CODE::message.
// Warnings print as ::warning and infos as ::notice.
func GitHub(fs []diag.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		cmd := "notice"
		switch f.Severity {
		case diag.Error:
			cmd = "error"
		case diag.Warning:
			cmd = "warning"
		}
		fmt.Fprintf(&b, "::%s file=%s,line=%d,col=%d,endLine=%d,endColumn=%d,title=%s::%s\n",
			cmd, ghProperty(f.Path), f.Line, f.Col, f.EndLine, f.EndCol, ghProperty(f.Code), ghData(f.Message))
	}
	return b.String()
}

// ghData escapes a workflow command's message.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProperty escapes a workflow command's property value, which may not
// hold the separators : and , either.
func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
