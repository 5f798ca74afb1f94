package protect

import (
	"os"
	"path/filepath"
	"strings"
)

// key is the form every protected-set comparison uses: Windows variable
// spellings expanded (%APPDATA%, $env:USERPROFILE, ${env:LOCALAPPDATA}),
// 8.3 short names made long where the file exists (Windows), both
// separators taken as one, cleaned, lower-cased. Windows and macOS file
// systems ignore case; on Linux a backslash or a case difference taken
// as the same path only errs on the side of caution.
func key(p string) string {
	if p == "" {
		return ""
	}
	p = expandWinVars(p)
	if strings.Contains(p, "~") {
		p = longPath(p)
	}
	p = strings.ReplaceAll(p, `\`, "/")
	if len(p) >= 2 && p[1] == ':' {
		// C:/x: clean the rest, keep the drive (filepath.Clean on Linux
		// would not know it)
		return strings.ToLower(p[:2] + cleanSlash(p[2:]))
	}
	return strings.ToLower(cleanSlash(p))
}

func cleanSlash(p string) string {
	c := filepath.ToSlash(filepath.Clean(filepath.FromSlash(p)))
	if strings.HasPrefix(p, "/") && !strings.HasPrefix(c, "/") {
		c = "/" + strings.TrimLeft(c, `\/`)
	}
	return c
}

// winVars are the variables a Windows path is spelled with.
var winVars = []string{"APPDATA", "LOCALAPPDATA", "USERPROFILE", "HOME", "PROGRAMFILES", "PROGRAMDATA", "TEMP", "TMP", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR"}

// expandWinVars replaces a leading %VAR%, $env:VAR, ${env:VAR} or $VAR
// by the variable's value in this process.
func expandWinVars(p string) string {
	if p == "" || p[0] != '%' && p[0] != '$' {
		return p
	}
	low := strings.ToLower(p)
	for _, v := range winVars {
		lv := strings.ToLower(v)
		for _, form := range []string{"%" + lv + "%", "$env:" + lv, "${env:" + lv + "}", "${" + lv + "}", "$" + lv} {
			if strings.HasPrefix(low, form) && (len(low) == len(form) || low[len(form)] == '/' || low[len(form)] == '\\') {
				if val := os.Getenv(v); val != "" {
					return val + p[len(form):]
				}
			}
		}
	}
	return p
}
