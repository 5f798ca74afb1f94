package server

import "github.com/agent-guard/agent-guard/app/decide"

// The approval types are the driver's (package decide); these names keep
// the tray's side of the contract where it was.
type (
	// Prompt is one call waiting for a human's approval.
	Prompt = decide.Prompt
	// Answer is the approval's result.
	Answer = decide.Answer
	// Asker shows agent-guard's approval dialog (the tray implements it).
	Asker = decide.Asker
	// AskerFunc adapts a function to Asker.
	AskerFunc = decide.AskerFunc
)
