package diag

// More says what an answer's list left out beyond its budget: an agent's
// face (MCP) bounds every answer, so that one call never floods a model's
// context. List names the answer's field that was cut ("findings",
// "changed", "left"), Shown how many of its items the answer holds, Cut
// how many it left out, and Rest how to ask for them. From, where the
// tool takes a from input, is the from that answers the next ones.
type More struct {
	List  string `json:"list"`
	Shown int    `json:"shown"`
	Cut   int    `json:"cut"`
	From  int    `json:"from,omitempty"`
	Rest  string `json:"rest"`
}
