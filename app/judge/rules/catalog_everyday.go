package rules

import "encoding/json"

// Catalog: everyday work. Generated once from the corpora and then kept by hand;
// see catalog.go for what an entry promises.

var _ = declare("app/judge/rules/packs/db/db.go", func() []Entry {
	return []Entry{
		Entry{ID: "dev.rails", Risk: 1, Category: "everyday work", Reason: "runs a Rails/Rake task",
			Examples: []Example{{Command: "rake test"}}},
	}
})

var _ = declare("app/judge/rules/packs/everyday/everyday.go", func() []Entry {
	return []Entry{
		Entry{ID: "day.<name>", Risk: 2, Category: "everyday work", Reason: "<name> <v> manages the project's Python environment",
			Examples: []Example{{Command: "env FOO=1 make"}, {Command: "ssh-keygen -R host"}, {Command: "ed"}}},
		Entry{ID: "day.bundle", Risk: 1, Category: "everyday work", Reason: "bundle manages the project's dependencies",
			Examples: []Example{{Command: "bundle install"}}},
		Entry{ID: "day.cargo", Risk: 1, Category: "everyday work", Reason: "prints version or help",
			Examples: []Example{{Command: "cargo fmt"}}},
		Entry{ID: "day.cargo-other", Risk: 1, Category: "everyday work", Reason: "cargo <v> (a cargo extension)",
			Examples: []Example{{Command: "cargo +"}}},
		Entry{ID: "day.composer", Risk: 1, Category: "everyday work", Reason: "composer manages the project's dependencies",
			Examples: []Example{{Command: "composer install"}}},
		Entry{ID: "day.conda", Risk: 1, Category: "everyday work", Reason: "conda install manages the project's Python environment",
			Examples: []Example{{Command: "conda install -y numpy"}}},
		Entry{ID: "day.conda-remove", Risk: 1, Category: "everyday work", Reason: "removes an environment",
			Examples: []Example{{Command: "uv env remove"}}},
		Entry{ID: "day.dotnet", Risk: 1, Category: "everyday work", Reason: "prints usage",
			Examples: []Example{{Command: "dotnet test"}}},
		Entry{ID: "day.editor", Risk: 1, Category: "everyday work", Reason: "opens a line editor",
			Examples: []Example{{Command: "ed"}}},
		Entry{ID: "day.editor-ext", Risk: 1, Category: "everyday work", Reason: "manages editor extensions",
			Examples: []Example{{Command: "code --install-extension golang.go"}}},
		Entry{ID: "day.getent", Risk: 0, Category: "everyday work", Reason: "reads the name databases",
			Examples: []Example{{Command: "getent hosts localhost"}}},
		Entry{ID: "day.go", Risk: 1, Category: "everyday work", Reason: "prints usage",
			Examples: []Example{{Command: "go mod tidy"}}},
		Entry{ID: "day.go-other", Risk: 1, Category: "everyday work", Reason: "go x",
			Examples: []Example{{Command: "go x"}}},
		Entry{ID: "day.gradle", Risk: 1, Category: "everyday work", Reason: "gradle builds and tests the project",
			Examples: []Example{{Command: "gradle build"}}},
		Entry{ID: "day.gradlew", Risk: 1, Category: "everyday work", Reason: "gradlew builds and tests the project",
			Examples: []Example{{Command: "./gradlew test"}}},
		Entry{ID: "day.hwinfo", Risk: 1, Category: "everyday work", Reason: "reads hardware information",
			Examples: []Example{{Command: "dmidecode"}}},
		Entry{ID: "day.invoke-command", Risk: 1, Category: "everyday work", Reason: "runs a script block",
			Examples: []Example{{Command: "invoke-command"}}},
		Entry{ID: "day.make-deploy", Risk: 2, Category: "everyday work", Reason: "<name> <o> sounds like a deployment or teardown",
			Examples: []Example{{Command: "make deploy"}}},
		Entry{ID: "day.make-dry-run", Risk: 0, Category: "everyday work", Reason: "<name> only prints what it would run",
			Examples: []Example{{Command: "make -n deploy | head"}}},
		Entry{ID: "day.mvn", Risk: 1, Category: "everyday work", Reason: "mvn builds and tests the project",
			Examples: []Example{{Command: "mvn test"}}},
		Entry{ID: "day.mvnw", Risk: 1, Category: "everyday work", Reason: "mvnw builds and tests the project",
			Examples: []Example{{Command: "./mvnw spring-boot:run"}}},
		Entry{ID: "day.new-item", Risk: 1, Category: "everyday work", Reason: "creates an item",
			Examples: []Example{{Command: "new-item"}}},
		Entry{ID: "day.npm", Risk: 1, Category: "everyday work", Reason: "<name> <v> works on the project's dependencies or scripts",
			Examples: []Example{{Command: "npm ci"}}},
		Entry{ID: "day.npm-cache", Risk: 1, Category: "everyday work", Reason: "clears the package cache (re-downloaded on demand)",
			Examples: []Example{{Command: "npm cache clean --force"}}},
		Entry{ID: "day.npm-global", Risk: 1, Category: "everyday work", Reason: "installs or removes a global package",
			Examples: []Example{{Command: "npm install -g pnpm"}}},
		Entry{ID: "day.npm-info", Risk: 0, Category: "everyday work", Reason: "prints version or help",
			Examples: []Example{{Command: "yarn --all"}}},
		Entry{ID: "day.npm-other", Risk: 1, Category: "everyday work", Reason: "<name> <v>",
			Examples: []Example{{Command: "npm npm"}}},
		Entry{ID: "day.npm-read", Risk: 0, Category: "everyday work", Reason: "<name> <v> reads package information",
			Examples: []Example{{Command: "npm audit"}}},
		Entry{ID: "day.npm-run-list", Risk: 0, Category: "everyday work", Reason: "lists scripts",
			Examples: []Example{{Command: "yarn run"}}},
		Entry{ID: "day.npm-script", Risk: 1, Category: "everyday work", Reason: "runs the project script <script>",
			Examples: []Example{{Command: "npm run dev"}}},
		Entry{ID: "day.npx", Risk: 0, Category: "everyday work", Reason: "no package to run",
			Examples: []Example{{Command: "npm x"}}},
		Entry{ID: "day.npx-run", Risk: 1, Category: "everyday work", Reason: "runs the package <name>",
			Examples: []Example{{Command: "npx tsx scripts/seed.ts"}}},
		Entry{ID: "day.pip", Risk: 1, Category: "everyday work", Reason: "prints version or help",
			Examples: []Example{{Command: "pip install -e ."}}},
		Entry{ID: "day.pip-other", Risk: 1, Category: "everyday work", Reason: "pip <ops>",
			Examples: []Example{{Command: "pip x"}}},
		Entry{ID: "day.pip-read", Risk: 0, Category: "everyday work", Reason: "reads installed packages",
			Examples: []Example{{Command: "pip check"}}},
		Entry{ID: "day.pip-system", Risk: 1, Category: "everyday work", Reason: "installs into the system Python",
			Examples: []Example{{Command: "pip --break-system-packages install"}}},
		Entry{ID: "day.pipx", Risk: 1, Category: "everyday work", Reason: "manages isolated Python tools",
			Examples: []Example{{Command: "pipx install black"}}},
		Entry{ID: "day.pkg-install", Risk: 1, Category: "everyday work", Reason: "installs the project's dependencies",
			Examples: []Example{{Command: "yarn"}}},
		Entry{ID: "day.poetry", Risk: 1, Category: "everyday work", Reason: "poetry install manages the project's Python environment",
			Examples: []Example{{Command: "poetry install"}}},
		Entry{ID: "day.ps-provider", Risk: 1, Category: "everyday work", Reason: "sets a PowerShell variable, function or environment entry",
			Examples: []Example{{Command: "new-item registry::"}}},
		Entry{ID: "day.pyenv", Risk: 1, Category: "everyday work", Reason: "<name> without a command",
			Examples: []Example{{Command: "export PATH=\"$HOME/.local/bin:$PATH\" && poetry --version"}}},
		Entry{ID: "day.read", Risk: 0, Category: "everyday work", Reason: "<name> reads or reports",
			Examples: []Example{{Command: "cls"}}},
		Entry{ID: "day.run", Risk: 1, Category: "everyday work", Reason: "runs <pos> in the project environment",
			Examples: []Example{{Command: "uv run x"}}},
		Entry{ID: "day.script-deploy", Risk: 2, Category: "everyday work", Reason: "runs the project script <script>, which sounds like a deployment, release or data wipe",
			Examples: []Example{{Command: "npm run deploy"}}},
		Entry{ID: "creds.ssh-key-overwrite", Risk: 2, Category: "credentials", Reason: "writes a new key over a default SSH key ssh and git use: the existing private key would be lost",
			Examples: []Example{{Command: "ssh-keygen -t ed25519 -f ~/.ssh/id_ed25519 -N '' <<< y"}}},
		Entry{ID: "day.ssh-keygen", Risk: 1, Category: "everyday work", Reason: "removes a host from known_hosts",
			Examples: []Example{{Command: "ssh-keygen -R host"}}},
		Entry{ID: "day.tar", Risk: 1, Category: "everyday work", Reason: "creates or lists an archive",
			Examples: []Example{{Command: "tar -czf backup.tgz src/"}}},
		Entry{ID: "day.tar-extract", Risk: 1, Category: "everyday work", Reason: "extracts an archive",
			Examples: []Example{{Command: "tar -xzf release.tar.gz"}}},
		Entry{ID: "day.tar-install", Risk: 1, Category: "everyday work", Reason: "extracts a tool into <d> (the documented install for many SDKs)",
			Examples: []Example{{Command: "wget -q https://go.dev/dl/go1.22.0.linux-amd64.tar.gz && sudo tar -C /usr/local -xzf go1.22.0.linux-amd64.tar.gz"}}},
		Entry{ID: "day.unzip", Risk: 1, Category: "everyday work", Reason: "extracts an archive",
			Examples: []Example{{Command: "unzip data.zip -d data/"}}},
		Entry{ID: "day.uv", Risk: 1, Category: "everyday work", Reason: "uv sync manages the project's Python environment",
			Examples: []Example{{Command: "uv sync"}}},
		Entry{ID: "day.work", Risk: 1, Category: "everyday work", Reason: "<name> builds, tests, lints or opens files locally",
			Examples: []Example{{Command: "env FOO=1 make"}}},
	}
})

var _ = declare("app/judge/rules/packs/everyday/everyday_escape.go", func() []Entry {
	return []Entry{
		Entry{ID: "build.make-stdin", Risk: 2, Category: "everyday work", Reason: "runs a Makefile that arrives on stdin (its recipes are not visible)",
			Examples: []Example{{Command: "make -f /dev/stdin"}}},
	}
})

var _ = declare("app/judge/rules/packs/interp/interp.go", func() []Entry {
	return []Entry{
		Entry{ID: "dev.deno", Risk: 1, Category: "everyday work", Reason: "deno tooling (test, fmt, lint, task...)",
			Examples: []Example{{Command: "deno test"}}},
		Entry{ID: "dev.deno-install-url", Risk: 1, Category: "everyday work", Reason: "installs a script from the network",
			Examples: []Example{{Command: "deno install ://"}}},
		Entry{ID: "dev.django", Risk: 1, Category: "everyday work", Reason: "lists Django commands",
			Examples: []Example{{Command: "python manage.py test"}}},
		Entry{ID: "dev.django-dbshell", Risk: 1, Category: "everyday work", Reason: "opens a database shell",
			Examples: []Example{{Command: "python manage.py dbshell"}}},
		Entry{ID: "dev.django-migrate", Risk: 1, Category: "everyday work", Reason: "applies migrations",
			Examples: []Example{{Command: "python manage.py migrate"}}},
		Entry{ID: "dev.django-shell", Risk: 1, Category: "everyday work", Reason: "opens the Django shell",
			Examples: []Example{{Command: "python manage.py shell"}}},
		Entry{ID: "dev.django-user", Risk: 1, Category: "everyday work", Reason: "manages an application account",
			Examples: []Example{{Command: "python manage.py createsuperuser --noinput --username admin --email admin@example.com"}}},
		Entry{ID: "dev.php-server", Risk: 1, Category: "everyday work", Reason: "runs the PHP development server",
			Examples: []Example{{Command: "php -S"}}},
		Entry{ID: "dev.python-module", Risk: 1, Category: "everyday work", Reason: "runs the Python tool <mod>",
			Examples: []Example{{Command: "python -m pytest"}}},
		Entry{ID: "dev.python-server", Risk: 1, Category: "everyday work", Reason: "serves the current folder over HTTP",
			Examples: []Example{{Command: "python -m http.server 8000"}}},
		Entry{ID: "dev.symfony", Risk: 1, Category: "everyday work", Reason: "runs a Symfony console command",
			Examples: []Example{{Command: "php bin/console cache:clear"}}},
	}
})

var _ = declare("app/judge/rules/packs/publish/publish.go", func() []Entry {
	return []Entry{
		Entry{ID: "dev.<name>", Risk: 1, Category: "everyday work", Reason: "packages or inspects an extension",
			Examples: []Example{{Command: "python manage.py shell"}, {Command: "python manage.py dbshell"}, {Command: "php bin/console cache:clear"}}},
		Entry{ID: "dev.gem", Risk: 1, Category: "everyday work", Reason: "shows usage",
			Examples: []Example{{Command: "gem install bundler"}}},
		Entry{ID: "dev.gem-uninstall", Risk: 1, Category: "everyday work", Reason: "removes installed gems",
			Examples: []Example{{Command: "gem uninstall"}}},
		Entry{ID: "dev.goreleaser", Risk: 1, Category: "everyday work", Reason: "builds locally",
			Examples: []Example{{Command: "goreleaser release --snapshot --clean"}}},
		Entry{ID: "dev.jfrog", Risk: 1, Category: "everyday work", Reason: "artifactory tooling",
			Examples: []Example{{Command: "jfrog"}}},
		Entry{ID: "dev.lerna", Risk: 1, Category: "everyday work", Reason: "monorepo tooling",
			Examples: []Example{{Command: "lerna run test"}}},
		Entry{ID: "dev.mix", Risk: 1, Category: "everyday work", Reason: "Elixir build tool",
			Examples: []Example{{Command: "mix test"}}},
		Entry{ID: "dev.pod", Risk: 1, Category: "everyday work", Reason: "installs pods",
			Examples: []Example{{Command: "pod install"}}},
	}
})

var _ = declare("app/judge/rules/packs/remote/remote.go", func() []Entry {
	return []Entry{
		Entry{ID: "dev.msbuild", Risk: 1, Category: "everyday work", Reason: "builds a project",
			Examples: []Example{{Event: json.RawMessage(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"msbuild App.sln /p:Configuration=Release"},"cwd":"C:\\Users\\dev\\proj"}`)}}},
	}
})

var _ = declare("app/judge/rules/packs/resources/resources.go", func() []Entry {
	return []Entry{
		Entry{ID: "dev.load-test", Risk: 1, Category: "everyday work", Reason: "load-tests a local service",
			Examples: []Example{{Command: "k6 run load.js"}}},
	}
})
