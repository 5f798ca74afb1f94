// Command minclient is the floor the hook is measured against: the least
// a Go program must do for the same round trip (read the event on stdin,
// one request and one answer on the socket, print the host output), with
// the standard library only and none of the hook's checks (no host
// parsing, no peer identity, no response validation, no fallback).
// scripts/benchtable runs it interleaved with agent-guard-hook.
package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"os"
)

func main() {
	event, err := io.ReadAll(os.Stdin)
	if err != nil {
		os.Exit(1)
	}
	c, err := net.Dial("unix", os.Getenv("AGENT_GUARD_PIPE"))
	if err != nil {
		os.Exit(1)
	}
	defer c.Close()
	v := 2
	if os.Getenv("MINCLIENT_V") == "1" { // the baseline server's protocol
		v = 1
	}
	req, _ := json.Marshal(struct {
		V        int             `json:"v"`
		Host     string          `json:"host"`
		Event    json.RawMessage `json:"event"`
		BudgetMS int64           `json:"budget_ms"`
	}{v, "zcode", event, 50000})
	if _, err := c.Write(append(req, '\n')); err != nil {
		os.Exit(1)
	}
	line, err := bufio.NewReader(c).ReadBytes('\n')
	if err != nil {
		os.Exit(1)
	}
	var resp struct {
		Decision string `json:"decision"`
		Stdout   string `json:"stdout"`
		Code     int    `json:"code"`
	}
	if json.Unmarshal(line, &resp) != nil || resp.Decision == "" {
		os.Exit(1)
	}
	os.Stdout.WriteString(resp.Stdout)
	os.Exit(resp.Code)
}
