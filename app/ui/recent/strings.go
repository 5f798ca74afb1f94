//go:build !nogui

package recent

import "github.com/agent-guard/agent-guard/app/ui/i18n"

// Every string a person reads in this window, in English. The English
// text is the translation key: app/ui/i18n/translations/recent.<lang>.json hold the
// other languages (Fyne's lang package picks one from the system locale).
// strings_test.go checks that each constant here has an entry in every
// file. What the log says (commands, reasons, rule ids) is shown as
// written.
const (
	sTitle      = "agent-guard — recent decisions"
	sNote       = "The last {{.N}} decisions, newest first. Full log: Open audit log in the tray menu."
	sEmpty      = "No decisions yet: the audit log is empty."
	sNoMatch    = "No decision matches the filter."
	sShown      = "{{.N}} of {{.M}} shown"
	sPick       = "Select a decision to see all of it here."
	sCopy       = "Copy details"
	sCopied     = "Copied to the clipboard."
	sAllLevels  = "all levels"
	sAllHosts   = "all hosts"
	sLevelLabel = "Level:"
	sHostLabel  = "Host:"

	// Columns (and detail fields).
	sTime     = "Time"
	sHost     = "Host"
	sSession  = "Session"
	sTool     = "Tool"
	sInput    = "Command / input"
	sLevel    = "Level"
	sDecision = "Decision"
	sDecider  = "Decider"
	sRule     = "Rule"
	sCwd      = "Working folder"
	sRisk     = "Risk"
	sAnswer   = "Answer"
	sReason   = "Reason"
	sTook     = "Took"

	// Levels and decisions.
	sAllow       = "allow"
	sConfirm     = "confirm"
	sBlock       = "block"
	sDeny        = "deny"
	sAsk         = "ask the host"
	sAllowOnce   = "allow once"
	sAllowAlways = "allow always"

	// Deciders: who or what settled the call.
	sByUser      = "you"
	sByTimeout   = "timed out"
	sByPolicy    = "policy"
	sByRules     = "local rules"
	sByAllowlist = "allowlist"
	sByDenylist  = "denylist"
	sByMCPList   = "MCP list"
	sByCache     = "cache"
	sByRemote    = "remote judge"
	sByFallback  = "hook (tray not running)"
	sByDisabled  = "guard off"
	sBySelf      = "self-protection"
	sByError     = "error"

	// Detail values.
	sRiskValue  = "{{.Risk}} of 3, red line {{.P}} %"
	sTookValue  = "{{.MS}} ms judging, {{.Wait}} s waiting for an answer"
	sTookJudged = "{{.MS}} ms"
	sNotSent    = "(not sent by the host)"
	sNoRule     = "(none)"
)

// T translates through app/ui/i18n, which embeds every window's
// translation files (these are recent.<lang>.json there).
var T = i18n.T
