package db

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// A database command that wipes data (a framework's reset, drop, flush or
// fresh migration, a full rollback, a dump restored over the target) is a
// question on a developer's database; pointed at production it is the red
// line of unrecoverable data: RAILS_ENV=production rails db:reset,
// php artisan migrate:fresh --env=production, DATABASE_URL=postgres://
// prod-db/... npx prisma migrate reset, mysqldump | mysql -h prod-db.
// The command is judged again without what names production; when that
// judgment wipes data, production makes it a block.

func init() { pack.OnAny(ruleDbProduction) }

// dbEnvKeys name the environment a framework runs in; dbURLKeys the
// database it connects to.
var (
	dbEnvKeys = map[string]bool{"RAILS_ENV": true, "RACK_ENV": true, "NODE_ENV": true, "APP_ENV": true, "MIX_ENV": true,
		"FLASK_ENV": true, "ASPNETCORE_ENVIRONMENT": true, "DOTNET_ENVIRONMENT": true, "ENVIRONMENT": true, "ENV": true,
		"STAGE": true, "DJANGO_SETTINGS_MODULE": true, "LARAVEL_ENV": true, "SPRING_PROFILES_ACTIVE": true}
	dbURLKeys = map[string]bool{"DATABASE_URL": true, "DB_URL": true, "DB_HOST": true, "PGHOST": true, "MYSQL_HOST": true,
		"REDIS_URL": true, "MONGO_URL": true, "MONGODB_URI": true, "POSTGRES_URL": true, "POSTGRES_HOST": true, "PRISMA_DATABASE_URL": true}
	// dbEnvFlags take the environment, settings or host as their value.
	dbEnvFlags = map[string]bool{"--env": true, "-e": true, "--environment": true, "--settings": true, "--stage": true,
		"--context": true, "--kube-context": true, "--profile": true, "-h": true, "--host": true, "--url": true,
		"--database-url": true, "--uri": true}
)

func prodWord(v string) bool {
	l := strings.ToLower(v)
	return strings.Contains(l, "prod") && !strings.Contains(l, "preprod") && !strings.Contains(l, "nonprod") && !strings.Contains(l, "non-prod")
}

func ruleDbProduction(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if c.Depth >= rules.PkMaxDepth {
		return rules.Finding{}, false
	}
	quick := false
	for _, e := range c.Env {
		quick = quick || prodWord(e)
	}
	for _, a := range c.Args {
		quick = quick || prodWord(a)
	}
	if !quick {
		return rules.Finding{}, false // the common case: nothing names production
	}
	where := ""
	var env []string
	for _, e := range c.Env {
		k, v, _ := strings.Cut(e, "=")
		if (dbEnvKeys[strings.ToUpper(k)] || dbURLKeys[strings.ToUpper(k)]) && prodWord(v) {
			where = e
			continue
		}
		env = append(env, e)
	}
	var args []string
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		k, v, eq := strings.Cut(a, "=")
		switch {
		case eq && strings.HasPrefix(k, "-") && dbEnvFlags[strings.ToLower(k)] && prodWord(v),
			eq && (dbEnvKeys[strings.ToUpper(k)] || dbURLKeys[strings.ToUpper(k)]) && prodWord(v): // rake db:drop RAILS_ENV=production
			where = a
			continue
		case !eq && dbEnvFlags[strings.ToLower(a)] && i+1 < len(c.Args) && prodWord(c.Args[i+1]):
			where = a + " " + c.Args[i+1]
			i++
			continue
		case strings.Contains(strings.ToLower(a), "://") && prodWord(a):
			where = a // psql postgres://...prod.../app, mongosh mongodb+srv://prod...
			continue
		}
		args = append(args, a)
	}
	if where == "" {
		return rules.Finding{}, false
	}
	ic := *c
	ic.Env, ic.Args, ic.Depth = env, args, c.Depth+1
	f, ok := rules.PkEval(&ic, x)
	if !ok || !strings.HasPrefix(rules.BaseID(f.Rule), "db.") || f.Risk < 2.2 || f.RedLine || f.Risk >= 2.5 || f.Violation >= 0.85 {
		return rules.Finding{}, false // not a wipe, or it blocks under its own name already
	}
	return rules.PkRet(c, 3, 0.9, "db.production-wipe", strings.TrimSuffix(f.Reason, ".")+", on production ("+where+"): its data cannot be recovered")
}
