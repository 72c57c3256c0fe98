package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tent-tools/tent-tools/diag"
)

// errAsking ends a call whose question the person has not answered yet:
// the tool stops before it writes anything, the client asks the person
// and calls again with the answer.
var errAsking = errors.New("waiting for the person's answer")

// personApprover answers for the person in one MCP call (tools.Approver):
// yes with --yes; otherwise the person's answer where the client asked
// them (the call's inputResponses, under the question's key); a question
// not yet answered is kept to be sent to the client, and ends the call
// with errAsking; a no where the client cannot ask.
type personApprover struct {
	yes     bool
	canAsk  bool
	answers sdk.InputResponseMap

	mu   sync.Mutex
	asks sdk.InputRequestMap
}

func newPersonApprover(yes, canAsk bool, answers sdk.InputResponseMap) *personApprover {
	return &personApprover{yes: yes, canAsk: canAsk, answers: answers}
}

// approveField is the form's one field: the person's yes or no.
const approveField = "approve"

// questionSchema is the form of a question: one yes/no field.
var questionSchema = &jsonschema.Schema{
	Type: "object",
	Properties: map[string]*jsonschema.Schema{
		approveField: {Type: "boolean", Title: "Let it happen", Description: "yes lets the change (or the run) happen; no refuses it, and nothing is written"},
	},
	Required: []string{approveField},
}

// questionKey names a question by its text, so that an answer given to
// one question never answers another (the project may have changed
// between the two rounds of a call, and with it the question).
func questionKey(question string) string {
	sum := sha256.Sum256([]byte(question))
	return "approve-" + hex.EncodeToString(sum[:8])
}

// Approve implements tools.Approver.
func (a *personApprover) Approve(ctx context.Context, question string) (bool, error) {
	if a.yes {
		return true, nil
	}
	if !a.canAsk {
		// The model cannot pass a flag: say what the person can do.
		return false, &diag.Unasked{Why: "the MCP client offers no elicitation, so it cannot ask its user",
			Instead: "a client with elicitation asks the person"}
	}
	key := questionKey(question)
	if r, ok := a.answers[key]; ok {
		res, ok := r.(*sdk.ElicitResult)
		if !ok || res.Action != "accept" {
			return false, nil // declined or cancelled: a no
		}
		yes, _ := res.Content[approveField].(bool)
		return yes, nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.asks == nil {
		a.asks = sdk.InputRequestMap{}
	}
	a.asks[key] = &sdk.ElicitParams{Mode: "form", Message: question, RequestedSchema: questionSchema}
	return false, errAsking
}

// unanswered returns the questions that ended the call, to be asked.
func (a *personApprover) unanswered() sdk.InputRequestMap {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.asks
}
