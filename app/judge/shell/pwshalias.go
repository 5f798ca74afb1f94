package shell

import "strings"

// psAliasPipe: `gci ~ -Recurse | rm -Force` is PowerShell even when the
// line has no TitleCase cmdlet: rm, del, erase, rd and rmdir are
// Remove-Item's aliases there, and with no path of their own they delete
// what the listing before them yields. Read that way when the listing is
// PowerShell's (gci, Get-ChildItem, Get-Item) or either side carries a
// PowerShell parameter (-Recurse, -Force, -Path...); a bash `ls | rm`
// stays what it is (rm ignores its input).
func psAliasPipe(c, prev *Cmd) bool {
	switch c.Name {
	case "rm", "del", "erase", "rd", "rmdir":
	default:
		return false
	}
	switch prev.Name {
	case "gci", "get-childitem", "get-item", "gi":
		return true
	case "ls", "dir":
	default:
		return false
	}
	return hasPSParam(c.Args) || hasPSParam(prev.Args)
}

// hasPSParam: a -Word parameter in PowerShell's spelling (-Recurse,
// -Force, -Path), not a cluster of one-letter flags (-rf).
func hasPSParam(args []string) bool {
	for _, a := range args {
		if len(a) > 3 && a[0] == '-' && a[1] >= 'A' && a[1] <= 'Z' && strings.ToLower(a[2:]) == a[2:] {
			return true
		}
	}
	return false
}
