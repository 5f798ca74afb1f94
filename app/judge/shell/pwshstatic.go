package shell

import "strings"

// [System.IO.File]::ReadAllText('package.json'), [Environment]::
// GetFolderPath('Desktop'), [Console]::OutputEncoding = [Text.Encoding]::
// UTF8: PowerShell's calls of .NET static members read like a command
// name with quotes inside, which is how a name is hidden (r''m). The
// members that only read or compute a value, or set the session's own
// encoding, are everyday PowerShell; they are not hidden names. Deletes
// and writes through .NET are judged by their paths in the rules
// (pwshdotnet.go); anything not listed keeps the obfuscation question.

// psStaticRead: .NET type (lower case, "system." dropped) -> members that
// only read or compute; "*" for every member of a value type.
var psStaticRead = map[string][]string{
	"io.file":      {"readalltext", "readalllines", "readallbytes", "exists", "getattributes", "getlastwritetime", "getcreationtime", "openread", "readlines"},
	"io.directory": {"exists", "getfiles", "getdirectories", "enumeratefiles", "enumeratedirectories", "getcurrentdirectory", "getfilesystementries", "getparent"},
	"io.path":      {"*"}, "math": {"*"}, "convert": {"*"}, "string": {"*"}, "guid": {"*"}, "datetime": {"*"},
	"timespan": {"*"}, "version": {"*"}, "bitconverter": {"*"}, "char": {"*"}, "int32": {"*"}, "int": {"*"},
	"uri": {"*"}, "text.encoding": {"*"}, "runtime.interopservices.runtimeinformation": {"*"},
	"environment": {"getenvironmentvariable", "getenvironmentvariables", "getfolderpath", "expandenvironmentvariables",
		"getcommandlineargs", "currentdirectory", "osversion", "machinename", "username", "processorcount",
		"is64bitoperatingsystem", "is64bitprocess", "newline", "version", "tickcount", "userdomainname", "systemdirectory"},
	"console":                            {"outputencoding", "inputencoding", "writeline", "write", "readline", "clear"},
	"net.dns":                            {"gethostaddresses", "gethostentry", "gethostname"},
	"security.principal.windowsidentity": {"getcurrent"},
	"text.regularexpressions.regex":      {"*"}, "regex": {"*"},
	"net.servicepointmanager": {"securityprotocol"},
}

// psStaticSafe: name (lower case) is a read-only static member call,
// [Type]::Member or [Type]::Member(args). Setting an environment variable
// counts only for the process itself (no 'User' or 'Machine' scope).
func psStaticSafe(name string) bool {
	if !strings.HasPrefix(name, "[") {
		return false
	}
	i := strings.Index(name, "]::")
	if i < 0 {
		return false
	}
	typ := strings.TrimPrefix(name[1:i], "system.")
	member, args, call := strings.Cut(name[i+3:], "(")
	if call && !strings.HasSuffix(args, ")") {
		return false
	}
	if strings.ContainsAny(member, " ;|&$`") || strings.ContainsAny(args, ";|&`") || strings.Contains(args, "]::") {
		return false // a second call or a pipeline in the arguments
	}
	if typ == "environment" && member == "setenvironmentvariable" {
		return !strings.Contains(args, "'user'") && !strings.Contains(args, "'machine'") &&
			!strings.Contains(args, `"user"`) && !strings.Contains(args, `"machine"`) &&
			!strings.Contains(args, "]") && !strings.Contains(args, "path")
	}
	for _, m := range psStaticRead[typ] {
		if m == "*" || m == member {
			return true
		}
	}
	return false
}
