package everyday

// The everyday baseline: build, test, lint, package-install, inspection
// and editor commands an agent runs all day are an explicit allow (not
// Uncertain), so kindness to ordinary work does not depend on the remote
// judge. Subcommands that publish, delete or deploy are left to the packs
// that own them (publish, db, cloud...) or raised here.

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"path"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/facts"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Plain tools: read-only (risk 0) or controlled local work (risk 1).
var (
	pkReadTools = []string{
		// text and data
		"jq", "yq", "xq", "gron", "fx", "jless", "xmllint", "csvlook", "csvcut", "mlr", "bat", "batcat", "glow", "delta", "colordiff", "icdiff", "wdiff", "paste", "join", "pr", "fmt", "shuf", "split", "csplit", "numfmt", "bc", "dc", "expr", "factor", "iconv", "envsubst", "tput", "tty", "cal", "ncal", "look", "strings", "od", "hexdump", "hd", "xxd", "base32", "basenc", "nm", "objdump", "readelf", "ldd", "otool", "size", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "shasum", "b2sum", "cksum", "sum", "md5", "tldr", "man", "info", "apropos", "whatis", "whereis", "locate", "plocate", "mlocate", "fzf", "zoxide", "ncdu", "dust", "duf", "procs", "eza", "exa", "lsd", "broot", "tokei", "cloc", "scc", "jc",
		// system state
		"ps", "pgrep", "pidof", "top", "htop", "btop", "atop", "glances", "free", "vmstat", "iostat", "mpstat", "sar", "nproc", "lscpu", "lsblk", "lsusb", "lspci", "lsmod", "lshw", "uptime", "w", "who", "last", "lastlog", "id", "groups", "users", "uname", "arch", "lsof", "ss", "netstat", "ping", "ping6", "traceroute", "tracepath", "mtr", "dig", "nslookup", "host", "whois", "df", "du", "findmnt", "getconf", "locale", "lsattr", "getfacl", "namei", "sw_vers", "system_profiler", "vm_stat", "ioreg", "systeminfo", "tasklist", "ver", "vol", "winver", "getmac", "qwinsta", "quser", "query", "driverquery", "tracert", "pathping", "findstr", "fc", "comp", "chcp", "doskey", "title", "color", "cls", "clear", "reset", "pause", "choice", "where", "free-memory", "df-h", "uptime-s", "lslogins", "dmesg", "nvidia-smi", "sensors", "inxi", "neofetch", "fastfetch", "screenfetch", // PowerShell readers
		"get-childitem", "gci", "get-content", "gc", "get-process", "gps", "get-item", "gi", "get-itemproperty", "gp", "get-itempropertyvalue", "get-location", "gl", "get-command", "gcm", "get-help", "get-date", "get-member", "gm", "select-object", "select", "where-object", "?", "foreach-object", "foreach", "%", "sort-object", "measure-object", "measure", "select-string", "sls", "test-path", "test-connection", "test-netconnection", "resolve-path", "rvpa", "split-path", "join-path", "write-host", "write-output", "write", "write-verbose", "write-warning", "write-error", "write-information", "out-host", "out-string", "out-null", "out-default", "out-gridview", "format-table", "ft", "format-list", "fl", "format-wide", "fw", "format-custom", "convertto-json", "convertfrom-json", "convertto-csv", "convertfrom-csv", "convertto-html", "convertto-xml", "import-csv", "get-variable", "gv", "set-variable", "new-variable", "get-filehash", "get-executionpolicy", "get-netipaddress", "get-netadapter", "get-nettcpconnection", "get-eventlog", "get-winevent", "get-acl", "get-clipboard", "clear-host", "get-computerinfo", "get-host", "get-alias", "gal", "get-psdrive", "gdr", "get-culture", "get-uptime", "resolve-dnsname", "get-ciminstance", "gcim", "get-wmiobject", "gwmi", "start-sleep", "get-random", "new-guid", "read-host", "get-job", "receive-job", "wait-job", "wait-process", "get-package", "get-module", "gmo", "get-installedmodule", "get-psrepository", "group-object", "group", "compare-object", "compare", "diff-object", "get-unique", "get-localuser", "get-localgroup", "get-localgroupmember", "get-disk", "get-volume", "get-partition", "get-psprovider", "get-timezone", "get-hotfix", "get-scheduledtask", "get-netroute", "get-dnsclientcache", "get-smbshare", "get-printer", "get-appxpackage", "get-windowsoptionalfeature", "get-authenticodesignature", "get-pfxcertificate", "measure-command", "get-error", "get-verb", "test-json", "select-xml", "get-psreadlineoption", "get-credential",
		// version managers and info
		"nvm", "fnm", "volta", "pyenv", "rbenv", "goenv", "jenv", "asdf", "mise", "rtx", "sdk", "n", "nodenv", "direnv", "corepack", "rustup", "gvm", "tfenv", "tfswitch", "sdkman"}
	pkWorkTools = []string{
		// build systems and compilers
		"make", "gmake", "cmake", "ctest", "cpack", "ninja", "meson", "bazel", "bazelisk", "buck", "buck2", "scons", "autoreconf", "autoconf", "automake", "configure", "libtool", "pkg-config", "ccache", "sccache", "just", "task", "mage", "earthly", "gcc", "g++", "cc", "c++", "clang", "clang++", "clang-cl", "cl", "link", "ld", "lld", "as", "nasm", "yasm", "rustc", "javac", "java", "jar", "kotlinc", "kotlin", "scalac", "swiftc", "swift", "tsc", "esbuild", "swc", "babel", "webpack", "webpack-cli", "rollup", "vite", "parcel", "turbo", "nx", "next", "nuxt", "nuxi", "ng", "vue-cli-service", "react-scripts", "remix", "astro", "gatsby", "hugo", "jekyll", "eleventy", "zola", "mdbook", "mkdocs", "sphinx-build", "docusaurus", "storybook", "start-storybook", "build-storybook", "expo", "react-native", "flutter", "dart", "elm", "zig", "nim", "crystal", "ghc", "ghci", "cabal", "stack", "ocaml", "dune", "opam", "gofmt", "goimports", "gopls", "dlv", "rustfmt", "emcc", "wasm-pack", "wasm-opt", "protoc", "buf", "thrift", "flatc", "sqlc", "openapi-generator", "openapi-generator-cli", "swagger-codegen", "graphql-codegen", "tailwindcss", "postcss", "sass", "lessc", "stylus", "tsc-watch", "nodemon", "ts-node-dev", "concurrently", "npm-run-all", "run-s", "run-p", "wireit", "gulp", "grunt", "ant", "xcodebuild", "xcrun", "pod", "carthage", "idf.py", "platformio", "pio", "arduino-cli", "qmake", "premake5", "xmake", "vcpkg", "conan", "gradle-wrapper", "kotlin-native", "sbt", "lein", "clojure", "clj", "boot", "mill", "bloop", "coursier", "cs", "scala-cli", "elixirc", "rebar3", "erlc", "raco", "racket", "guile", "sbcl", "clisp", "gfortran", "gnatmake", "fpc", "dmd", "ldc2", "dub", "v", "odin", "gleam", "roc", "hare", "tinygo", "gox", "ko", "air", "reflex", "entr", "watchexec", "cargo-watch",
		// lint, format, test, analysis
		"eslint", "prettier", "stylelint", "biome", "oxlint", "tslint", "standard", "xo", "jshint", "jest", "vitest", "mocha", "ava", "tap", "jasmine", "karma", "cypress", "playwright", "pytest", "py.test", "tox", "nox", "black", "ruff", "isort", "flake8", "pylint", "mypy", "pyright", "pyre", "bandit", "coverage", "rspec", "cucumber", "phpunit", "pest", "phpstan", "psalm", "php-cs-fixer", "phpcs", "phpcbf", "rubocop", "standardrb", "golangci-lint", "staticcheck", "revive", "govulncheck", "shellcheck", "shfmt", "hadolint", "actionlint", "yamllint", "markdownlint", "markdownlint-cli2", "codespell", "cspell", "clang-format", "clang-tidy", "cppcheck", "cpplint", "checkstyle", "ktlint", "detekt", "swiftlint", "swiftformat", "tflint", "tfsec", "checkov", "trivy", "grype", "syft", "semgrep", "gitleaks", "trufflehog", "snyk", "pre-commit", "husky", "lint-staged", "commitlint", "lefthook", "gdb", "lldb", "valgrind", "strace", "ltrace", "perf", "hyperfine", "py-spy", "rbspy", "pprof", "benchstat", "gotestsum", "richgo", "ginkgo", "mockgen", "wire", "stringer", "vale", "alex", "write-good", "textlint", "sqlfluff", "pgformatter", "taplo", "dprint", "rome", "deno-lint", "knip", "depcheck", "madge", "size-limit", "bundlesize", "lighthouse", "pa11y", "axe", "newman", "hurl", "bruno", "act", "ansible-lint", "molecule", "kubeval", "kubeconform", "kube-score", "kustomize", "conftest", "opa", "cue", "jsonnet", "dhall", "nickel", "pkl", "buildifier", "gazelle", "license-checker", "reuse", "editorconfig-checker", "typos", "lychee", "htmlhint", "html-validate", "tidy", "stylua", "luacheck", "selene", "zls", "nimble", "shards", "spago", "purs", "idris2", "agda", "coq", "lean", "lake", "elan",
		// editors and openers
		"code", "code-insiders", "cursor", "windsurf", "subl", "atom", "idea", "pycharm", "webstorm", "goland", "clion", "rider", "studio", "vim", "vi", "nvim", "nano", "emacs", "emacsclient", "micro", "helix", "hx", "kak", "joe", "gedit", "kate", "notepad", "notepad++", "xed", "open", "xdg-open", "start", "explorer", "invoke-item", "ii", "start-process", "saps", "wslview", "see", "zed",
		// archives
		"zip", "gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd", "unzstd", "lz4", "7z", "7za", "7zz", "unrar", "rar", "cpio", "ar", "pigz", "lzma", "unlzma", "zcat", "bzcat", "xzcat", "compress-archive", // misc local work
		"mktemp", "sync", "patch", "openssl", "update-ca-certificates", "certbot", "dos2unix", "unix2dos", "pv", "mklink", "ssh-keygen", "ssh-add", "ssh-agent", "ssh-keyscan", "ssh-copy-id", "gpg-agent", "pinentry", "mkcert", "step", "ngrok", "cloudflared", "localtunnel", "lt", "mitmproxy", "http-server", "serve", "live-server", "browser-sync", "caddy", "python-m", "uvicorn", "gunicorn", "flask", "hypercorn", "daphne", "puma", "rackup", "unicorn", "jupyter", "jupyter-lab", "jupyter-notebook", "streamlit", "gradio", "tensorboard", "mlflow", "dvc", "wandb", "huggingface-cli", "ollama", "llm", "aider", "claude", "codex", "gemini", "sqlite-utils", "datasette", "csvkit", "xsv", "qsv", "ffmpeg", "ffprobe", "convert", "magick", "identify", "exiftool", "pdftotext", "pdfinfo", "qpdf", "gs", "inkscape", "optipng", "pngquant", "jpegoptim", "cwebp", "svgo", "graphviz", "dot", "plantuml", "mmdc", "asciidoctor", "pandoc", "latexmk", "pdflatex", "xelatex", "lualatex", "tectonic", "typst", "bibtex", "biber", "say", "espeak", "notify-send", "terminal-notifier", "tmux", "screen", "zellij", "byobu", "tig", "lazygit", "gitui", "lazydocker", "k9s", "stern", "kubectx", "kubens", "tilt", "telepresence", "okteto", "devspace", "garden", "ansible-doc", "ansible-inventory", "ansible-config", "ansible-galaxy", "stow", "xclip", "xsel", "pbcopy", "pbpaste", "wl-copy", "wl-paste", "clip", "set-clipboard", "import-module", "ipmo", "install-module", "update-module", "save-module", "install-script", "new-modulemanifest", "invoke-pester", "invoke-scriptanalyzer", "add-type", "update-help", "start-job", "sajb", "stop-job", "remove-job", "set-psreadlineoption", "set-strictmode", "trace-command", "new-object", "expand-archive"}
)

func init() {
	// The lists hold no duplicates or empty names (TestToolListsClean):
	// registering them as they are spares every judge start a set of
	// ~900 names built only to check that (116 KB at init).
	pack.On(ruleReadTool, pkReadTools...)
	pack.On(ruleWorkTool, pkWorkTools...)
	pack.On(ruleNpm, "npm", "pnpm", "yarn", "yarnpkg", "bun", "cnpm", "nr")
	pack.On(ruleNpx, "npx", "pnpx", "bunx", "uvx", "pipx", "dlx")
	pack.On(ruleCargo, "cargo")
	pack.On(ruleGo, "go")
	pack.On(rulePip, "pip", "pip3", "pip2", "easy_install")
	pack.On(ruleUv, "uv", "poetry", "pdm", "hatch", "rye", "conda", "mamba", "micromamba", "pipenv", "flit", "maturin")
	pack.On(ruleJvm, "mvn", "mvnw", "gradle", "gradlew")
	pack.On(ruleDotnet, "dotnet")
	pack.On(ruleComposer, "composer", "bundle", "bundler", "cocoapods", "swiftpm")
	pack.On(ruleCurl, "curl", "wget", "wget2", "http", "https", "xh", "httpie", "curlie", "aria2c", "invoke-webrequest", "iwr", "invoke-restmethod", "irm")
	pack.On(ruleSSH, "ssh", "scp", "sftp", "mosh", "ftp", "telnet", "nc", "ncat", "netcat", "socat", "rclone", "azcopy", "smbclient")
	pack.On(ruleTar, "tar", "bsdtar", "gtar")
	pack.On(ruleUnzip, "unzip")
	pack.On(rulePkgMgr, "remove-appxpackage", "uninstall-module", "apt", "apt-get", "aptitude", "apt-cache", "apt-mark", "apt-key", "add-apt-repository", "dpkg", "yum", "dnf", "microdnf", "zypper", "pacman", "yay", "paru", "apk", "emerge", "xbps-install", "xbps-remove", "pkg", "port", "snap", "flatpak", "brew", "winget", "choco", "scoop", "nix-env", "nix", "nix-shell", "nix-collect-garbage", "rpm", "install-package", "uninstall-package", "pkcon")
	pack.On(ruleFileWrite, "set-content", "add-content", "out-file", "clear-content", "new-item", "ni", "md", "export-csv", "tee-object", "export-clixml")
	pack.On(ruleMiscEveryday, "getent", "invoke-command", "icm", "enter-pssession", "dmidecode", "blkid", "ed")
}

func ruleReadTool(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	f, ok := rules.PkAllow(c, 0, "day.read", c.Name+" reads or reports")
	f.NameOnly = !rules.TailNever[c.Name] // man rm, which rm: describe their words
	return f, ok
}

func ruleWorkTool(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	switch c.Name {
	case "make", "gmake", "just", "task", "mage":
		if rules.MakeDryRun(c) {
			return rules.PkAllow(c, 0, "day.make-dry-run", c.Name+" only prints what it would run")
		}
		for _, o := range c.Operands() {
			lo := strings.ToLower(o)
			if strings.HasPrefix(lo, "deploy") || strings.HasPrefix(lo, "publish") || lo == "prod" || strings.HasSuffix(lo, "-prod") || strings.HasSuffix(lo, "-production") || lo == "destroy" || lo == "nuke" {
				return rules.PkUnsure(c, 1.5, "day.make-deploy", c.Name+" "+o+" sounds like a deployment or teardown")
			}
		}
	case "start-process", "saps", "start":
		if v, ok := rules.PkWinVal(c, "verb"); ok && strings.EqualFold(v, "runas") {
			return rules.PkRet(c, 2, 0.5, "sec.runas", "starts a program elevated (administrator)")
		}
	case "ngrok", "cloudflared", "localtunnel", "lt":
		return rules.PkRet(c, 1.5, 0.4, "net.tunnel", "exposes a local service to the internet")
	case "ssh-keygen":
		if c.Flag('R', "") {
			return rules.PkAllow(c, 1, "day.ssh-keygen", "removes a host from known_hosts")
		}
		if f, ok := sshKeygenOverwrite(c); ok {
			return f, true
		}
	case "code", "cursor", "code-insiders":
		if c.Flag(0, "--install-extension", "--uninstall-extension") {
			return rules.PkAllow(c, 1, "day.editor-ext", "manages editor extensions")
		}
	case "flutter", "dart", "expo", "ng", "hugo", "mkdocs":
		for _, o := range c.Operands() {
			lo := strings.ToLower(o)
			if lo == "deploy" || lo == "gh-deploy" || lo == "publish" || lo == "pub" && rules.PkHas(c, "publish") {
				return rules.PkRet(c, 1.5, 0.2, "deploy."+c.Name, "publishes or deploys")
			}
		}
	case "pod":
		return rules.Finding{}, false // publish pack
	}
	f, ok := rules.PkAllow(c, 1, "day.work", c.Name+" builds, tests, lints or opens files locally")
	f.NameOnly = true
	return f, ok
}

var pkNpmReadVerbs = rules.PkSet("ls", "list", "ll", "la", "view", "info", "show", "v", "search", "s", "find", "outdated", "audit", "fund", "doctor", "help", "explain", "why", "prefix", "root", "bin", "bugs", "docs", "home", "repo", "ping", "whoami", "query", "sbom", "diff", "config", "c", "get", "completion", "-v", "--version", "-h", "--help", "version", "licenses", "info", "-V")

var pkNpmWorkVerbs = rules.PkSet("install", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal", "isntall", "add", "ci", "clean-install", "install-clean", "ic", "update", "up", "upgrade", "udpate", "uninstall", "un", "unlink", "remove", "rm", "r", "link", "ln", "prune", "dedupe", "ddp", "rebuild", "rb", "init", "create", "innit", "test", "t", "tst", "start", "stop", "restart", "pack", "cache", "set", "login", "logout", "adduser", "add-user", "pkg", "edit", "explore", "shrinkwrap", "install-test", "it", "install-ci-test", "cit", "star", "unstar", "stars", "exec", "x", "dlx", "run", "run-script", "rum", "urn", "build", "dev", "lint", "format", "fmt", "typecheck", "check", "watch", "serve", "preview", "generate", "storybook", "e2e", "coverage", "clean", "setup", "bootstrap", "workspace", "workspaces", "import", "patch", "patch-commit", "env", "store", "fetch", "node", "plugin", "constraints", "set-script", "upgrade-interactive", "global", "recursive", "-r", "pm")

func ruleNpm(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	pos := rules.PkPos(c.Args, pkVFEveryday1)
	if len(pos) == 0 {
		if len(c.Args) == 0 && (c.Name == "yarn" || c.Name == "yarnpkg" || c.Name == "pnpm" || c.Name == "bun") {
			return rules.PkAllow(c, 1, "day.pkg-install", "installs the project's dependencies")
		}
		return rules.PkAllow(c, 0, "day.npm-info", "prints version or help")
	}
	v := strings.ToLower(pos[0])
	switch v {
	case "publish", "unpublish", "deprecate", "undeprecate", "dist-tag", "owner", "access", "team", "org", "hook", "token":
		return rules.Finding{}, false // publish pack
	}
	if v == "exec" || v == "x" || v == "dlx" {
		return pkRunPackage(c, x, pos[1:])
	}
	if v == "run" || v == "run-script" || v == "rum" || v == "urn" {
		if len(pos) > 1 {
			return pkNpmScript(c, pos[1])
		}
		return rules.PkAllow(c, 0, "day.npm-run-list", "lists scripts")
	}
	if c.Name == "bun" && (strings.HasSuffix(v, ".ts") || strings.HasSuffix(v, ".js") || strings.HasSuffix(v, ".tsx") || strings.HasSuffix(v, ".mjs")) {
		return rules.PkUnsure(c, 0.5, "interp.script", "runs a script file of the project (contents not shown)")
	}
	if v == "config" && len(pos) > 1 && strings.Contains(strings.ToLower(strings.Join(pos[1:], " ")), "auth") {
		return rules.PkRet(c, 1.5, 0.5, "creds.npm-token", "prints a registry auth token")
	}
	if v == "cache" && (rules.PkHas(c, "clean") || rules.PkHas(c, "clear")) {
		return rules.PkAllow(c, 1, "day.npm-cache", "clears the package cache (re-downloaded on demand)")
	}
	if pkNpmReadVerbs.Has(v) {
		return rules.PkAllow(c, 0, "day.npm-read", c.Name+" "+v+" reads package information")
	}
	if pkNpmWorkVerbs.Has(v) {
		if c.Flag('g', "--global") || v == "global" {
			return rules.PkAllow(c, 1, "day.npm-global", "installs or removes a global package")
		}
		return rules.PkAllow(c, 1, "day.npm", c.Name+" "+v+" works on the project's dependencies or scripts")
	}
	// yarn/pnpm/bun <script>: a package.json script.
	if c.Name != "npm" && c.Name != "cnpm" {
		return pkNpmScript(c, pos[0])
	}
	return rules.PkUnsure(c, 1, "day.npm-other", c.Name+" "+v)
}

func pkNpmScript(c *shell.Cmd, script string) (rules.Finding, bool) {
	ls := strings.ToLower(script)
	for _, p := range []string{"deploy", "publish", "release", "destroy", "teardown", "nuke", "db:drop", "db:reset", "drop", "wipe", "purge"} {
		if strings.HasPrefix(ls, p) || strings.Contains(ls, ":"+p) || strings.HasSuffix(ls, "-"+p) || strings.Contains(ls, p+":prod") {
			return rules.PkUnsure(c, 1.5, "day.script-deploy", "runs the project script "+script+", which sounds like a deployment, release or data wipe")
		}
	}
	return rules.PkAllow(c, 0.5, "day.npm-script", "runs the project script "+script)
}

// pkRunPackage: npx/pnpm dlx/bunx/uvx/pipx run: the tool's own rules
// when known, else an unknown package (Uncertain).
func pkRunPackage(c *shell.Cmd, x *rules.Ctx, rest []string) (rules.Finding, bool) {
	var words []string
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--package" || a == "-p" || a == "--spec" || a == "--python" || a == "--from" || a == "--with" {
			i++
			continue
		}
		if strings.HasPrefix(a, "-") && len(words) == 0 {
			continue
		}
		words = append(words, a)
	}
	if len(words) == 0 {
		return rules.PkAllow(c, 0, "day.npx", "no package to run")
	}
	name := words[0]
	// Strip a version or scope: create-react-app@latest, @scope/pkg@1.
	base := name
	if i := strings.LastIndex(base, "@"); i > 0 {
		base = base[:i]
	}
	if i := strings.LastIndex(base, "/"); i >= 0 && strings.HasPrefix(base, "@") {
		base = base[i+1:]
	}
	inner := rules.PkInner(c, append([]string{base}, words[1:]...))
	if f, ok := rules.PkEval(inner, x); ok {
		if f.Uncertain && f.Score() < 1.5 {
			return rules.PkUnsure(c, 1, "day.npx-run", "runs the package "+name)
		}
		return f, true
	}
	if strings.Contains(name, "://") && !strings.HasPrefix(strings.ToLower(name), "git+") {
		// a tarball from any web server, run at once: like curl | sh
		return rules.PkUnsure(c, 2, "remote.npx-url", "downloads and runs a package from a URL (code nobody has reviewed)")
	}
	if strings.Contains(name, "://") || strings.HasPrefix(name, "github:") || strings.HasPrefix(name, "git+") {
		return rules.PkUnsure(c, 1.2, "remote.npx-git", "downloads and runs a package from a git repository")
	}
	return rules.PkUnsure(c, 1, "day.npx-run", "downloads and runs the package "+name)
}

func ruleNpx(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	rest := c.Args
	if c.Name == "pipx" || c.Name == "dlx" {
		if len(rest) > 0 && rest[0] != "run" {
			switch strings.ToLower(rest[0]) {
			case "install", "upgrade", "upgrade-all", "inject", "list", "ensurepath", "reinstall", "reinstall-all", "uninstall", "uninstall-all", "runpip", "environment", "completions", "--version":
				return rules.PkAllow(c, 1, "day.pipx", "manages isolated Python tools")
			}
		}
		if len(rest) > 0 && rest[0] == "run" {
			rest = rest[1:]
		}
	}
	return pkRunPackage(c, x, rest)
}

var pkCargoVerbs = rules.PkSet("build", "b", "test", "t", "run", "r", "check", "c", "clippy", "fmt", "doc", "d", "new", "init", "add", "remove", "rm", "update", "bench", "tree", "metadata", "install", "uninstall", "search", "clean", "fix", "vendor", "generate-lockfile", "locate-project", "pkgid", "verify-project", "version", "help", "login", "logout", "package", "report", "info", "nextest", "watch", "expand", "audit", "deny", "outdated", "machete", "llvm-cov", "tarpaulin", "make", "leptos", "tauri", "binstall", "udeps", "insta", "criterion", "flamegraph", "miri", "fetch", "config", "rustc", "rustdoc", "bloat", "hack", "semver-checks", "zigbuild", "lambda", "xtask", "dist", "component", "-v", "-V", "--version", "--help", "-h", "--list")

func ruleCargo(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	pos := rules.PkPos(c.Args, pkVFEveryday2)
	if len(pos) == 0 {
		return rules.PkAllow(c, 0, "day.cargo", "prints version or help")
	}
	v := strings.ToLower(pos[0])
	switch v {
	case "publish", "yank", "owner":
		return rules.Finding{}, false // publish pack
	}
	if strings.HasPrefix(v, "+") && len(pos) > 1 { // cargo +nightly build
		v = strings.ToLower(pos[1])
	}
	if pkCargoVerbs.Has(v) {
		return rules.PkAllow(c, 1, "day.cargo", "cargo "+v+" builds, tests or manages the crate")
	}
	return rules.PkUnsure(c, 1, "day.cargo-other", "cargo "+v+" (a cargo extension)")
}

func ruleGo(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	ops := rules.PkLowOps(c)
	if len(ops) == 0 {
		return rules.PkAllow(c, 0, "day.go", "prints usage")
	}
	switch ops[0] {
	case "build", "test", "vet", "run", "fmt", "mod", "get", "install", "generate", "env", "version", "list", "doc", "tool", "clean", "work", "bug", "fix", "help", "telemetry":
		return rules.PkAllow(c, 1, "day.go", "go "+ops[0]+" builds, tests or manages the module")
	}
	return rules.PkUnsure(c, 1, "day.go-other", "go "+ops[0])
}

func rulePip(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	ops := rules.PkLowOps(c)
	if len(ops) == 0 {
		return rules.PkAllow(c, 0, "day.pip", "prints version or help")
	}
	switch ops[0] {
	case "list", "show", "freeze", "check", "search", "inspect", "index", "hash", "debug", "help", "completion", "config", "cache":
		return rules.PkAllow(c, 0, "day.pip-read", "reads installed packages")
	case "install", "download", "wheel", "uninstall":
		if c.Flag(0, "--break-system-packages") {
			return rules.PkAllow(c, 1.2, "day.pip-system", "installs into the system Python")
		}
		return rules.PkAllow(c, 1, "day.pip", "pip "+ops[0]+" manages Python packages")
	}
	return rules.PkUnsure(c, 1, "day.pip-other", "pip "+ops[0])
}

func ruleUv(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	pos := rules.PkPos(c.Args, pkVFEveryday3)
	if len(pos) == 0 {
		return rules.PkAllow(c, 0.5, "day.pyenv", c.Name+" without a command")
	}
	v := strings.ToLower(pos[0])
	if v == "publish" {
		return rules.Finding{}, false // publish pack
	}
	if v == "run" && len(pos) > 1 && (c.Name == "uv" || c.Name == "poetry" || c.Name == "pdm" || c.Name == "hatch" || c.Name == "rye" || c.Name == "pipenv" || c.Name == "conda" || c.Name == "mamba" || c.Name == "micromamba") {
		if f, ok := rules.PkEval(rules.PkInner(c, pkPayload(c.Args, "run", pkRunnerVals)), x); ok {
			return f, true
		}
		return rules.PkUnsure(c, 0.5, "day.run", "runs "+pos[1]+" in the project environment")
	}
	if v == "tool" && len(pos) > 1 && pos[1] == "run" && len(pos) > 2 {
		return pkRunPackage(c, x, pos[2:])
	}
	if (c.Name == "conda" || c.Name == "mamba" || c.Name == "micromamba") && (v == "remove" || v == "uninstall") && c.Flag(0, "--all") || v == "env" && len(pos) > 1 && pos[1] == "remove" {
		return rules.PkAllow(c, 1.2, "day.conda-remove", "removes an environment")
	}
	return rules.PkAllow(c, 1, "day."+c.Name, c.Name+" "+v+" manages the project's Python environment")
}

func ruleJvm(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	// publishing goals are judged by the publish pack; the rest builds.
	return rules.PkAllow(c, 1, "day."+c.Name, c.Name+" builds and tests the project")
}

func ruleDotnet(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	ops := rules.PkLowOps(c)
	if len(ops) == 0 {
		return rules.PkAllow(c, 0, "day.dotnet", "prints usage")
	}
	if ops[0] == "nuget" && len(ops) > 1 && (ops[1] == "push" || ops[1] == "delete") {
		return rules.Finding{}, false // publish pack
	}
	if ops[0] == "ef" && len(ops) > 2 && ops[1] == "database" && ops[2] == "drop" {
		return rules.PkRet(c, 2.5, 0.5, "db.ef-drop", "drops the database")
	}
	if ops[0] == "user-secrets" && len(ops) > 1 && ops[1] == "list" {
		return rules.PkRet(c, 1.5, 0.5, "creds.user-secrets", "prints the project's user secrets")
	}
	return rules.PkAllow(c, 1, "day.dotnet", "dotnet "+ops[0]+" builds, tests or manages the project")
}

func ruleComposer(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	ops := rules.PkLowOps(c)
	if len(ops) > 0 && (ops[0] == "exec" || ops[0] == "run-script" || ops[0] == "run") && len(ops) > 1 {
		if f, ok := rules.PkEval(rules.PkInner(c, pkPayload(c.Args, ops[0], pkRunnerVals)), x); ok && f.Score() >= 1.5 {
			return f, true
		}
	}
	return rules.PkAllow(c, 1, "day."+c.Name, c.Name+" manages the project's dependencies")
}

// ruleCurl: plain downloads and API calls are allowed; deleting remote
// resources through a raw HTTP call confirms. Secrets and pipes to shells
// are judged by the creds and remote packs.
func ruleCurl(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	req := httpRequestOf(c)
	local := true
	for _, u := range req.urls {
		if !rules.PkLocalHost(u) {
			local = false
		}
	}
	if f, ok := httpMethodFinding(c, req, local); ok {
		return f, true
	}
	if c.Flag('k', "--insecure") && !local {
		return rules.PkAllow(c, 1, "net.http-insecure", "fetches without checking TLS certificates")
	}
	return rules.PkAllow(c, 0.5, "net.http", c.Name+" fetches or calls a URL")
}

// pkRemoteShell: the word after ssh's host names a shell that reads the
// script fed on stdin (bash, /bin/sh, /usr/bin/env ...): any shell of the
// facts table, by name or path.
func pkRemoteShell(word string) bool {
	w := strings.ToLower(word)
	return w == "/usr/bin/env" || facts.IsShell(path.Base(w))
}

// pkSSHStdin returns the commands fed to ssh's stdin: here-docs and
// here-strings, echo/printf earlier in the pipeline (known), or a pipe or
// input file whose content is not visible (fed, not known).
func pkSSHStdin(c *shell.Cmd, x *rules.Ctx) (code string, known, fed bool) {
	if s := rules.PkStdinCode(c); s != "" {
		return strings.ReplaceAll(s, shell.Dyn, "$X"), true, true
	}
	for _, r := range c.Redirs {
		if r.Op == "<" {
			return "", false, true
		}
	}
	if len(c.PipedFrom) == 0 {
		return "", false, false
	}
	up := c.PipedFrom[len(c.PipedFrom)-1]
	if up != "echo" && up != "printf" {
		return "", false, true
	}
	for _, o := range rules.PkAll(x) {
		if o.Name == up && len(o.PipedTo) > 0 && o.PipedTo[0] == c.Name {
			args := o.Args
			for len(args) > 0 && strings.HasPrefix(args[0], "-") {
				args = args[1:]
			}
			code := strings.Join(args, " ")
			if up == "printf" || rules.PkHas(&o, "-e") {
				code = strings.NewReplacer(`\n`, "\n", `\t`, "\t").Replace(code)
			}
			return strings.ReplaceAll(code, shell.Dyn, "$X"), true, true
		}
	}
	return "", false, true
}

// ruleSSH: a remote shell or copy. A remote command is judged like a local
// one (it runs on the other machine); the session itself is Uncertain.
func ruleSSH(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	switch c.Name {
	case "ssh":
		var pos []string
		if host, cmd, ok := rules.SshSplit(c.Args); ok {
			pos = append([]string{host}, cmd...)
		}
		remoteShell := len(pos) == 1
		var rest []string
		if len(pos) > 1 {
			rest = strings.Fields(strings.Join(pos[1:], " "))
		}
		if rf := rest; len(rf) > 0 && pkRemoteShell(rf[0]) {
			// ssh host bash, ssh host 'bash -s', ssh host sh -l: stdin is the script
			remoteShell = true
			for _, w := range rf[1:] {
				if !strings.HasPrefix(w, "-") {
					remoteShell = false
				}
			}
		}
		if remoteShell {
			// ssh host (or ssh host bash) runs what arrives on stdin.
			if code, known, fed := pkSSHStdin(c, x); fed {
				if !known {
					return rules.PkUnsure(c, 1.6, "net.ssh-stdin", "feeds a script to a shell on a remote host; its commands are not visible here")
				}
				f := rules.Bash(code, "~", "~")
				if f.Score() >= 1.5 || f.RedLine {
					f.Rule = "ssh/" + f.Rule
					f.Reason = "on the remote host: " + f.Reason
					f.Marked = c.Raw
					return f, true
				}
				return rules.PkUnsure(c, 1, "net.ssh-command", "runs commands on a remote host")
			}
		}
		if len(pos) > 1 {
			if f, ok := rules.JudgeElsewhere(c, strings.Join(pos[1:], " "), "ssh", "on the remote host"); ok {
				return f, true
			}
			return rules.PkUnsure(c, 1, "net.ssh-command", "runs a command on a remote host")
		}
		if len(pos) == 0 {
			return rules.PkAllow(c, 0, "net.ssh-help", "prints usage")
		}
		return rules.PkUnsure(c, 1, "net.ssh", "opens a remote shell")
	case "nc", "ncat", "netcat", "socat", "telnet":
		if c.Flag('l', "--listen") {
			if c.Flag('e', "--exec") || c.Flag('c', "--sh-exec") || rules.PkHasPrefix(c, "exec:", "system:") {
				return rules.PkRet(c, 2.5, 0.8, "net.bind-shell", "serves a shell to the network (backdoor)")
			}
			return rules.PkAllow(c, 1, "net.listen", "listens on a port")
		}
		if c.Flag('e', "--exec") || c.Flag('c', "--sh-exec") || rules.PkHasPrefix(c, "exec:", "system:") {
			return rules.PkRet(c, 2.5, 0.8, "net.reverse-shell", "connects a shell to a remote host (reverse shell)")
		}
		return rules.PkUnsure(c, 1, "net.raw-connection", "opens a raw network connection")
	}
	if c.Name == "scp" {
		if f, ok := rules.RuleScpDest(c, x); ok {
			return f, true
		}
	}
	switch ops := rules.PkLowOps(c); {
	case c.Name == "mosh":
		return rules.PkAllow(c, 1, "net."+c.Name, "mosh opens a shell on another host")
	case c.Name == "rclone" && len(ops) > 0 && (ops[0] == "config" || ops[0] == "listremotes" || ops[0] == "version" || ops[0] == "help" ||
		ops[0] == "ls" || ops[0] == "lsd" || ops[0] == "lsl" || ops[0] == "lsf" || ops[0] == "lsjson" || ops[0] == "size" || ops[0] == "about" || ops[0] == "check" || ops[0] == "cat" || ops[0] == "tree" || ops[0] == "mount" || ops[0] == "serve"):
		return rules.PkAllow(c, 1, "net.rclone", "rclone "+ops[0]+" works with remote storage without copying files")
	}
	return rules.PkAllow(c, 1, "net."+c.Name, c.Name+" copies files to or from another host")
}

func ruleTar(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	extract := c.Flag('x', "--extract", "--get")
	if len(c.Args) > 0 && !strings.HasPrefix(c.Args[0], "-") && strings.Contains(c.Args[0], "x") {
		extract = true // tar xzf a.tgz
	}
	if !extract {
		return rules.PkAllow(c, 0.5, "day.tar", "creates or lists an archive")
	}
	if d, ok := rules.PkVal(c, "-C", "--directory"); ok {
		if p := rules.PkAbs(d, x); p == "/usr/local" || p == "/opt" || strings.HasPrefix(p, "/usr/local/") || strings.HasPrefix(p, "/opt/") {
			return rules.PkAllow(c, 1.2, "day.tar-install", "extracts a tool into "+d+" (the documented install for many SDKs)")
		}
		if pkSystemDir(d, x) {
			return rules.PkRet(c, 2.8, rules.RedLineAt, "sys.extract-over-system", "extracts an archive over a system folder ("+d+"), overwriting system files")
		}
		f, _ := rules.PkWriteTarget(c, x, d, "tar -x")
		if f.Score() >= 1.5 || f.RedLine {
			f.Reason = "extracts an archive over " + d + ": " + f.Reason
			return f, true
		}
	}
	if c.Flag('P', "--absolute-names") {
		return rules.PkRet(c, 2, 0.5, "fs.tar-absolute", "extracts with absolute paths (can overwrite system files)")
	}
	return rules.PkAllow(c, 1, "day.tar-extract", "extracts an archive")
}

func ruleUnzip(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if d, ok := rules.PkVal(c, "-d"); ok {
		if pkSystemDir(d, x) {
			return rules.PkRet(c, 2.8, rules.RedLineAt, "sys.extract-over-system", "extracts an archive over a system folder ("+d+"), overwriting system files")
		}
		f, _ := rules.PkWriteTarget(c, x, d, "unzip")
		if f.Score() >= 1.5 || f.RedLine {
			f.Reason = "extracts an archive over " + d + ": " + f.Reason
			return f, true
		}
	}
	return rules.PkAllow(c, 1, "day.unzip", "extracts an archive")
}

// ruleFileWrite: PowerShell cmdlets that write files; the path rules judge
// the target (registry drives are the sysfiles pack's).
func ruleFileWrite(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	p, ok := rules.PkWinVal(c, "path", "literalpath", "filepath")
	if !ok {
		if ops := c.Operands(); len(ops) > 0 {
			p = ops[0]
		}
	}
	lp := strings.ToLower(p)
	if strings.HasPrefix(lp, "hklm:") || strings.HasPrefix(lp, "hkcu:") || strings.HasPrefix(lp, "registry::") || strings.HasPrefix(lp, "env:") || strings.HasPrefix(lp, "variable:") || strings.HasPrefix(lp, "function:") || strings.HasPrefix(lp, "alias:") || strings.HasPrefix(lp, "cert:") || strings.HasPrefix(lp, "wsman:") {
		if strings.HasPrefix(lp, "cert:") || strings.HasPrefix(lp, "wsman:") {
			return rules.PkRet(c, 2.2, 0.6, "sys.ps-provider", "changes certificates or remoting settings")
		}
		return rules.PkAllow(c, 0.5, "day.ps-provider", "sets a PowerShell variable, function or environment entry")
	}
	if p == "" && (c.Name == "new-item" || c.Name == "ni" || c.Name == "md") {
		return rules.PkAllow(c, 0.5, "day.new-item", "creates an item")
	}
	return rules.PkWriteTarget(c, x, p, c.Name)
}

func ruleMiscEveryday(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	switch c.Name {
	case "getent":
		if ops := rules.PkLowOps(c); len(ops) > 0 && (ops[0] == "shadow" || ops[0] == "gshadow") {
			return rules.PkRet(c, 1.5, 0.5, "creds.getent-shadow", "prints system password hashes")
		}
		return rules.PkAllow(c, 0, "day.getent", "reads the name databases")
	case "invoke-command", "icm", "enter-pssession":
		if rules.PkWinFlag(c, "computername", "cn", "session", "hostname") {
			return rules.PkUnsure(c, 1.2, "net.ps-remote", "runs PowerShell on a remote computer")
		}
		return rules.PkUnsure(c, 1, "day.invoke-command", "runs a script block")
	case "dmidecode", "blkid":
		return rules.PkAllow(c, 0.5, "day.hwinfo", "reads hardware information")
	case "ed":
		return rules.PkAllow(c, 1, "day.editor", "opens a line editor")
	}
	return rules.Finding{}, false
}

// pkSystemDir: the root or a top-level system folder (extracting over it
// replaces system files).
func pkSystemDir(d string, x *rules.Ctx) bool {
	p := strings.TrimRight(rules.PkAbs(d, x), "/")
	switch p {
	case "", "/", "c:", "/etc", "/usr", "/bin", "/sbin", "/boot", "/lib", "/lib64", "/var", "/usr/bin", "/usr/lib", "/usr/sbin", "/root", "c:/windows", "c:/windows/system32", "/system", "/library":
		return p != "" || d == "/"
	}
	return strings.HasPrefix(p, "/etc/") || strings.HasPrefix(p, "/boot/") || strings.HasPrefix(p, "c:/windows/")
}

// pkRunnerVals are the options of `uv run`, `poetry run`, `conda run`,
// `bundle exec`... that take a separate value.
var pkRunnerVals = rules.PkSet("--with", "--with-requirements", "--python", "-p", "--package", "--extra", "--group",
	"--only-group", "--env-file", "--directory", "--project", "--index", "--default-index", "--index-url",
	"--extra-index-url", "-n", "--name", "--prefix", "--environment", "-e", "--gemfile", "--keep-file-descriptors",
	"--cache-dir", "--config-file", "--config-setting", "-C", "--script", "--from")

// pkPayload is the command a runner starts: the words after its verb
// (run, exec) and the runner's own options, kept verbatim, so `uv run
// bash -c 'code'` hands bash its -c and the code.
func pkPayload(args []string, verb string, vals *rules.Set) []string {
	i := 0
	for i < len(args) && args[i] != verb {
		if vals.Has(args[i]) {
			i++
		}
		i++
	}
	i++ // the verb
	for i < len(args) {
		a := args[i]
		if a == "--" {
			return args[i+1:]
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		if vals.Has(a) {
			i++
		}
		i++
	}
	if i > len(args) {
		return nil
	}
	return args[i:]
}

// Flag sets hoisted out of the rules (built once, not per command).
var (
	pkVFEveryday1 = rules.PkSet("--prefix", "-C", "--cwd", "--dir", "-w", "--workspace", "--filter", "-F", "--registry", "--loglevel", "--cache", "--userconfig")
	pkVFEveryday2 = rules.PkSet("-p", "--package", "--manifest-path", "--target", "--features", "-F", "--bin", "--example", "--test", "--bench", "-j", "--jobs", "--profile", "--color", "-Z", "--config", "--target-dir")
	pkVFEveryday3 = rules.PkSet("-p", "--python", "--project", "--directory", "--with", "--from", "-n", "--name", "-c", "--channel", "-e", "--extra", "--group", "--index-url", "--extra-index-url")
)

// sshKeygenOverwrite: ssh-keygen generating a key (-t/-b/-N, not -l/-y/-F/-R)
// with -f naming one of the default key files of ~/.ssh (id_rsa,
// id_ed25519...), which ssh and git use, and the "y" to its overwrite
// question fed on stdin (<<< y, yes |): an existing key there is replaced
// and the old private key is gone for good. A new file name
// (id_ed25519_work) stays everyday.
func sshKeygenOverwrite(c *shell.Cmd) (rules.Finding, bool) {
	if c.Flag('l', "") || c.Flag('y', "") || c.Flag('F', "") || c.Flag('e', "") || c.Flag('i', "") || c.Flag('p', "") || c.Flag('c', "") {
		return rules.Finding{}, false
	}
	f, ok := rules.PkVal(c, "-f")
	if !ok {
		return rules.Finding{}, false
	}
	// Only with an answer fed on stdin: alone, ssh-keygen asks before it
	// overwrites and the agent's closed stdin says no (a new file is no loss).
	fed := len(c.PipedFrom) > 0
	for _, r := range c.Redirs {
		if r.Op == "<<<" || r.Op == "<<" || r.Op == "<<-" || r.Op == "<" {
			fed = true
		}
	}
	if !fed {
		return rules.Finding{}, false
	}
	base := strings.ToLower(f)
	if i := strings.LastIndexAny(base, `/\`); i >= 0 {
		if !strings.Contains(base[:i+1], ".ssh") {
			return rules.Finding{}, false
		}
		base = base[i+1:]
	} else {
		return rules.Finding{}, false
	}
	switch base {
	case "id_rsa", "id_ed25519", "id_ecdsa", "id_dsa", "id_ed25519_sk", "id_ecdsa_sk", "identity":
		return rules.PkRet(c, 2, 0.5, "creds.ssh-key-overwrite", "writes a new key over "+f+", a default SSH key ssh and git use: the existing private key would be lost")
	}
	return rules.Finding{}, false
}
