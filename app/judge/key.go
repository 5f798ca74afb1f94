package judge

import (
	"crypto/sha1"
	"encoding/hex"
	"strings"
)

// Key is the cache key of a call: sha1 hex of the tool and its normalized
// input (the fields the judgment depends on; permission mode excluded).
func Key(s State) string {
	h := sha1.New()
	for _, part := range []string{s.Tool, s.Cwd, strings.TrimSpace(s.Command), s.FilePath, s.Content, s.Server, s.MCPTool, strings.TrimSpace(s.Args)} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}
