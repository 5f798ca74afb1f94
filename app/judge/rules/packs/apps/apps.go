package apps

// Admin CLIs of hosted apps whose verbs rotate keys, delete indexed data or
// run code against a production database.

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"strings"

	"github.com/agent-guard/agent-guard/app/internal/lazyre"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

func init() {
	pack.On(ruleAppAdmin, "stripe", "splunk", "gitlab-rails", "gitlab-rake", "gitlab-ctl")
}

// appAdminVerbs: per program, operands that change or delete what the app holds.
var appAdminVerbs = map[string]map[string]string{
	"stripe":     {"roll": "rotates API keys (the old key stops working)", "delete": "deletes Stripe objects", "revoke": "revokes keys"},
	"splunk":     {"clean": "deletes indexed event data", "remove": "removes an index, app or user", "disable": "disables an index or app", "stop": "stops Splunk", "restart": "restarts Splunk"},
	"gitlab-ctl": {"reconfigure": "reconfigures GitLab", "stop": "stops GitLab", "restart": "restarts GitLab", "cleanse": "deletes all GitLab data", "uninstall": "removes GitLab", "remove-accounts": "removes GitLab accounts"},
}

// appRubyDestroy: ruby code a gitlab-rails runner/console runs that deletes records.
var appRubyDestroy = lazyre.New(`(?i)\b(destroy|destroy_all|delete|delete_all|truncate|drop_table|update_all|remove)\b`)

func ruleAppAdmin(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	ops := rules.PkLowOps(c)
	if c.Flag('h', "--help") {
		return rules.PkAllow(c, 0, "app."+c.Name+"-help", "shows usage")
	}
	switch c.Name {
	case "gitlab-rails":
		for i, o := range ops {
			if o == "runner" || o == "r" {
				code := strings.Join(ops[i+1:], " ")
				if appRubyDestroy.MatchString(code) {
					return rules.PkRet(c, 2.4, 0.4, "app.gitlab-rails-destroy", "runs Ruby that deletes or rewrites GitLab records")
				}
				return rules.PkRet(c, 1.5, 0.1, "app.gitlab-rails-runner", "runs Ruby against the GitLab database")
			}
			if o == "console" || o == "c" || o == "dbconsole" {
				return rules.PkRet(c, 1.5, 0.1, "app.gitlab-rails-console", "opens a console on the GitLab database")
			}
		}
		return rules.PkUnsure(c, 1, "app.gitlab-rails", "gitlab-rails command")
	case "gitlab-rake":
		for _, o := range ops {
			if strings.Contains(o, "restore") || strings.Contains(o, "cleanup") || strings.Contains(o, "remove") || strings.Contains(o, "delete") || strings.Contains(o, "drop") || strings.Contains(o, "reset") {
				return rules.PkRet(c, 2.2, 0.3, "app.gitlab-rake-destructive", "gitlab-rake "+o+" overwrites or deletes GitLab data")
			}
		}
		return rules.PkUnsure(c, 1, "app.gitlab-rake", "gitlab-rake task")
	}
	for _, o := range ops {
		if what, ok := appAdminVerbs[c.Name][o]; ok {
			return rules.PkRet(c, 2.2, 0.3, "app."+c.Name+"-"+o, c.Name+" "+o+" "+what)
		}
	}
	return rules.Finding{}, false
}
