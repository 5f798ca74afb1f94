package rules

import "encoding/json"

// Catalog: self-protection. Generated once from the corpora and then kept by hand;
// see catalog.go for what an entry promises.

var _ = declare("app/judge/rules/paths.go", func() []Entry {
	return []Entry{
		Entry{ID: "self.guard-tree", Risk: 3, RedLine: true, Category: "self-protection", Reason: "removes or moves ., which holds the agent's own guard or hook configuration: an agent must not switch off its own guard; ask the user to do it",
			Examples: []Example{{Command: "rm -rf ~/.claude"}}},
	}
})

var _ = declare("app/judge/rules/packs/procs/procs.go", func() []Entry {
	return []Entry{
		Entry{ID: "self.kill-guard", Risk: 3, RedLine: true, Category: "self-protection", Reason: "kills agent-guard itself; the agent may not switch its guard off",
			Examples: []Example{{Command: "pkill agent-guard"}}},
	}
})

var _ = declare("app/judge/rules/selfenv.go", func() []Entry {
	return []Entry{
		Entry{ID: "self.autostart", Risk: 3, RedLine: true, Category: "self-protection", Reason: "changes the guard's autostart entry, part of the agent's own guard: an agent must not change or switch off its own guard; ask the user to do it",
			Examples: []Example{{Event: json.RawMessage(`{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/home/dev/Library/LaunchAgents/ai.agentguard.tray.plist","content":"<plist/>"},"cwd":"/home/dev/proj"}`)}}},
		Entry{ID: "self.env-persist", Risk: 3, RedLine: true, Category: "self-protection", Reason: "setx sets an AGENT_GUARD_* variable for later sessions: the next start would run the guard with another config or none; ask the user to do it",
			Examples: []Example{{Command: "setx AGENT_GUARD_HOME C:\\Temp\\empty"}}},
		Entry{ID: "self.guard-binary", Risk: 3, RedLine: true, Category: "self-protection", Reason: "writes over one of the guard's programs (hook, judge, tray): an agent must not change or switch off its own guard; ask the user to do it",
			Examples: []Example{{Command: "gcc -o ~/bin/agent-guard-hook x.c"}}},
	}
})

var _ = declare("app/judge/rules/selfinterp.go", func() []Entry {
	return []Entry{
		Entry{ID: "guard.interp-parts", Risk: 2, Category: "self-protection", Reason: "interpreter code writes files and builds a path in the home folder out of parts that may name the agent's own guard or hook configuration",
			Examples: []Example{{Command: "python3 -c \"import os;d=os.path.join(os.environ['HOME'],'.cl'+'aude');open(d+'/settings.json','w').write('{}')\""}}},
	}
})

var _ = declare("app/judge/rules/selfkill.go", func() []Entry {
	return []Entry{
		Entry{ID: "self.stop-guard", Risk: 3, RedLine: true, Category: "self-protection", Reason: "stops or removes the agent's own guard: an agent must not switch off its own guard; ask the user to do it",
			Examples: []Example{{Command: "launchctl setenv AGENT_GUARD_HOME /tmp/x"}}},
		Entry{ID: "guard.cli-read", Risk: 0, Category: "self-protection", Reason: "agent-guard status only reads",
			Examples: []Example{{Command: "agent-guard status"}}},
		Entry{ID: "self.guard-exec", Risk: 3, RedLine: true, Category: "self-protection", Reason: "starts the agent-guard tray (a second guard, started by the agent, would answer for the real one): only the user may run the guard's own commands that serve, change or speak for it (read-only ones such as check, status and report are fine)",
			Examples: []Example{{Command: "agent-guard"}}},
	}
})

var _ = declare("app/judge/rules/selfpaths.go", func() []Entry {
	return []Entry{
		Entry{ID: "self.<kind>", Risk: 3, RedLine: true, Category: "self-protection", Reason: "touches a part of the agent's own guard (the kind names it: guard-files, agent-hook-config, autostart, ...): an agent must not change or switch off its own guard; ask the user to do it",
			Examples: []Example{{Command: "rm -rf ~/.config/agent-guard"}, {Command: "agent-guard"}, {Command: "pkill agent-guard"}}},
		Entry{ID: "self.agent-hook-config", Risk: 3, RedLine: true, Category: "self-protection", Reason: "changes a host's hook configuration, part of the agent's own guard: an agent must not change or switch off its own guard; ask the user to do it",
			Examples: []Example{{Command: "rm .zcode/config.json"}}},
		Entry{ID: "self.guard-files", Risk: 3, RedLine: true, Category: "self-protection", Reason: "changes the guard's config, cache, audit log or folder: an agent must not change or switch off its own guard; ask the user to do it",
			Examples: []Example{{Command: "rm -rf ~/.cache/agent-guard"}}},
		Entry{ID: "self.guard-key", Risk: 3, RedLine: true, Category: "self-protection", Reason: "touches the guard's key file (~/.agentguardrc): an agent must not change or switch off its own guard; ask the user to do it",
			Examples: []Example{{Event: json.RawMessage(`{"tool_name":"Write","tool_input":{"file_path":"~/.agentguardrc","content":"api_key=x"},"cwd":"/home/dev/proj"}`)}}},
	}
})

var _ = declare("app/judge/rules/packs/self/selfroutes.go", func() []Entry {
	return []Entry{
		Entry{ID: "guard.perms-above", Risk: 2, Category: "self-protection", Reason: "changes permissions of a folder above the guard's files",
			Examples: []Example{{Command: "chown -R nobody ~/.claude", Setup: &Setup{Home: []string{".claude/settings.json"}}}}},
		Entry{ID: "guard.unknown-into", Risk: 2, Category: "self-protection", Reason: "copies something unknown into a folder holding the guard's files",
			Examples: []Example{{Command: "patch -p0 -d ~ < p.diff", Setup: &Setup{Home: []string{".config/agent-guard/config.json"}}}}},
		Entry{ID: "self.extract-into", Risk: 3, RedLine: true, Category: "self-protection", Reason: "extracts, copies, syncs or restores content that cannot be seen into a folder holding the guard's files or a host's hook config: it may carry an older or emptied copy of them; ask the user to do it",
			Examples: []Example{{Command: "tar -xf /tmp/x.tar -C ~/.config", Setup: &Setup{Home: []string{".config/agent-guard/config.json"}}}, {Command: "restic restore latest --target ~"}}},
	}
})
