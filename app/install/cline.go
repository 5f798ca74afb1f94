package install

import (
	"bufio"
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
)

// Cline runs executable files named after the hook (docs.cline.bot, Hook
// Reference): ~/Documents/Cline/Hooks/PreToolUse for every workspace,
// .clinerules/hooks/PreToolUse in one. Like git hooks, the file is run
// through the shell its first line names, on Windows too (Git Bash), so
// one POSIX sh shim serves every OS. The whole file is ours: install
// writes it (mode 0700), uninstall removes it, and a PreToolUse that is
// not ours is never overwritten.
const (
	clineMarker = "# agent-guard hook for Cline: written by `agent-guard install --cline`; `agent-guard uninstall --cline` removes it."
	// clineHookFile is the file name Cline looks for.
	clineHookFile = "PreToolUse"
)

// clineFile is the hook file's name: Cline runs PreToolUse (a shebang
// script) on macOS and Linux, PreToolUse.ps1 (PowerShell) on Windows.
func clineFile() string {
	if runtimeGOOS == "windows" {
		return clineHookFile + ".ps1"
	}
	return clineHookFile
}

// clineMissing is the answer when the hook binary is gone: a refusal, so
// a moved or deleted agent-guard blocks rather than waves every tool through.
func clineMissing(path string) string {
	return `{"cancel":true,"errorMessage":"agent-guard: the hook program ` + strings.NewReplacer("'", "", `"`, "").Replace(filepath.ToSlash(path)) +
		` is missing, so every tool is blocked. Tell the user to reinstall agent-guard (agent-guard install --cline) or remove this hook file."}`
}

// clinePSPrefix starts the PowerShell line that runs the hook.
const clinePSPrefix = "[Console]::In.ReadToEnd() | & "

func clineShim(h Hook) ([]byte, error) {
	if runtimeGOOS == "windows" {
		psq := func(p string) string { return "'" + strings.ReplaceAll(filepath.ToSlash(p), "'", "''") + "'" }
		cmd, err := commandLine(Cline, h, psq)
		if err != nil {
			return nil, err
		}
		return []byte(strings.Join([]string{
			clineMarker,
			"# Cline sends the PreToolUse event on stdin; agent-guard-hook answers {\"cancel\": ...}.",
			"$OutputEncoding = [System.Text.UTF8Encoding]::new($false)",
			"[Console]::OutputEncoding = [System.Text.UTF8Encoding]::new($false)",
			"if (Test-Path -LiteralPath " + psq(h.Path) + ") {",
			"  " + clinePSPrefix + cmd,
			"  exit $LASTEXITCODE",
			"}",
			"Write-Output '" + clineMissing(h.Path) + "'",
			"",
		}, "\r\n")), nil
	}
	cmd, err := quotedCommand(Cline, h)
	if err != nil {
		return nil, err
	}
	return []byte(strings.Join([]string{
		"#!/bin/sh",
		clineMarker,
		"# Cline sends the PreToolUse event on stdin; agent-guard-hook answers {\"cancel\": ...}.",
		"if [ -x " + fmt.Sprintf("%q", filepath.ToSlash(h.Path)) + " ]; then",
		"  exec " + cmd,
		"fi",
		"echo '" + clineMissing(h.Path) + "'",
		"",
	}, "\n")), nil
}

func isClineShim(data []byte) bool {
	return bytes.Contains(firstLines(data, 3), []byte(clineMarker))
}

func firstLines(data []byte, n int) []byte {
	i := 0
	for k := 0; k < n && i < len(data); k++ {
		j := bytes.IndexByte(data[i:], '\n')
		if j < 0 {
			return data
		}
		i += j + 1
	}
	return data[:i]
}

func applyCline(data []byte, h Hook) ([]byte, error) {
	if len(bytes.TrimSpace(data)) > 0 && !isClineShim(data) {
		return nil, fmt.Errorf("the file is another PreToolUse hook, not agent-guard's (Cline runs one file of that name per folder); move it away or chain it from agent-guard's, nothing was changed")
	}
	return clineShim(h)
}

func inspectCline(data []byte) (*Installed, error) {
	if !isClineShim(data) {
		return nil, nil
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		var words []string
		if rest, ok := strings.CutPrefix(line, "exec "); ok {
			words = splitCommand(rest)
		} else if rest, ok := strings.CutPrefix(line, clinePSPrefix); ok {
			words = psWords(rest)
		} else {
			continue
		}
		if len(words) == 0 {
			break
		}
		v := hookView{Command: words[0], Args: unquoteArgs(words[1:])}
		return &Installed{Command: v.Command, Args: v.Args, Deadline: v.deadline(), HostTimeout: AssumedTimeout(Cline), Enabled: true, Count: 1}, nil
	}
	return nil, fmt.Errorf("agent-guard's Cline hook file is damaged; reinstall with agent-guard install --cline")
}

// unquoteArgs drops the quotes the shim puts around paths.
func unquoteArgs(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		if len(w) >= 2 && (w[0] == '"' || w[0] == '\'') && w[len(w)-1] == w[0] {
			w = w[1 : len(w)-1]
			if w0 := words[i][0]; w0 == '\'' {
				w = strings.ReplaceAll(w, "''", "'")
			}
		}
		out[i] = w
	}
	return out
}

// psWords splits a PowerShell line of bare and single-quoted words (” is
// a quote inside one), the way the Windows shim writes them.
func psWords(s string) []string {
	var words []string
	var cur strings.Builder
	in, has := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case in && c == '\'' && i+1 < len(s) && s[i+1] == '\'':
			cur.WriteByte('\'')
			i++
		case c == '\'':
			in, has = !in, true
		case !in && (c == ' ' || c == '\t'):
			if has {
				words = append(words, cur.String())
				cur.Reset()
				has = false
			}
		default:
			cur.WriteByte(c)
			has = true
		}
	}
	if has {
		words = append(words, cur.String())
	}
	return words
}
