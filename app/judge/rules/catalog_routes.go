package rules

// Catalog: routes. A pack that judges a command carried inside another
// (over ssh, inside a container, by at or a fleet tool) reports the inner
// command's finding with its own name in front: "ssh/fs.rm-root". The
// entry of such a verdict is the inner id (BaseID); these entries say
// what each route is and where it is made. Routes named at run time
// (the language of interpreter code, "Python/self.guard-files"; the
// program that writes a file, "curl/path.shell-rc") have no entry of
// their own: the name says it.

var _ = declare("app/judge/rules/packs/everyday/everyday.go", func() []Entry {
	return []Entry{
		Entry{ID: "ssh", Risk: 3, RedLine: true, Category: "routes", Reason: "a command run on another host over ssh, judged as that command",
			Examples: []Example{{Command: "ssh prod 'rm -rf /'"}}},
	}
})

var _ = declare("app/judge/rules/packs/procs/procs.go", func() []Entry {
	return []Entry{
		Entry{ID: "at", Risk: 3, RedLine: true, Category: "routes", Reason: "a command scheduled with at, judged as that command",
			Examples: []Example{{Command: "at now <<< 'rm -rf ~'"}}},
		Entry{ID: "cron.job", Risk: 3, RedLine: true, Category: "routes", Reason: "a cron job installed in the same line (echo JOB | crontab -), judged as the command it runs unattended",
			Examples: []Example{{Command: "(crontab -l; echo '@reboot rm -rf ~') | crontab -"}}},
	}
})

var _ = declare("app/judge/rules/packs/containers/containers.go", func() []Entry {
	return []Entry{
		Entry{ID: "docker.run-host", Risk: 3, RedLine: true, Category: "routes", Reason: "a command run in a container with the host's root mounted, judged as if it ran on the host",
			Examples: []Example{{Command: "docker run -v /etc:/host/etc alpine rm -rf /host/etc"}}},
		Entry{ID: "container", Risk: 3, Category: "routes", Reason: "a command run in a container or app platform (heroku run, fly ssh console -C ...), judged as that command",
			Examples: []Example{{Command: "heroku run -a shop rails db:drop"}}},
	}
})

var _ = declare("app/judge/rules/packs/ops/ops.go", func() []Entry {
	return []Entry{
		Entry{ID: "fleet", Risk: 3, Category: "routes", Reason: "a command a fleet tool (salt, ansible, pssh) runs on many hosts, judged as that command",
			Examples: []Example{{Command: "salt '*' cmd.run 'shutdown -h now'"}}},
	}
})
