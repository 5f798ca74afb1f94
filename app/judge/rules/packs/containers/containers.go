package containers

// Containers and clusters: docker/podman/nerdctl, compose, kubectl, helm,
// local cluster tools. Reads and builds are allowed; removing containers,
// images or stopping services is confirm; removing volumes (data) in bulk,
// namespaces or persistent volumes is block.

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

func init() {
	pack.On(ruleDocker, "docker", "podman", "nerdctl", "finch", "lima-nerdctl")
	pack.On(ruleCompose, "docker-compose", "podman-compose")
	pack.On(ruleKubectl, "kubectl", "oc", "k", "microk8s.kubectl", "kubecolor")
	pack.On(ruleHelm, "helm")
	pack.On(ruleLocalCluster, "minikube", "kind", "k3d", "colima", "multipass", "vagrant")
}

var pkDockerGlobalVal = rules.PkSet("-H", "--host", "-c", "--context", "--config", "-l", "--log-level", "--tlscacert", "--tlscert", "--tlskey",
	"--connection", "--url", "--root", "--runroot", "--storage-driver", "--namespace", "-n", "--address", "--cgroup-manager", "--identity")

// pkDockerSub returns the subcommand words (e.g. ["volume","prune"]) and
// the index in Args where the subcommand's own arguments start.
func pkDockerSub(c *shell.Cmd) (words []string, rest []string) {
	args := c.Args
	i := 0
	for i < len(args) {
		a := args[i]
		if len(a) > 1 && a[0] == '-' {
			if !strings.Contains(a, "=") && pkDockerGlobalVal.Has(a) {
				i++
			}
			i++
			continue
		}
		break
	}
	if i >= len(args) {
		return nil, nil
	}
	w := strings.ToLower(args[i])
	switch w {
	case "container", "image", "volume", "network", "system", "builder", "buildx", "compose", "context", "plugin", "node", "service", "stack", "swarm", "secret", "config", "trust", "manifest", "machine", "pod", "kube", "generate", "scout":
		if i+1 < len(args) {
			return []string{w, strings.ToLower(args[i+1])}, args[i+2:]
		}
		return []string{w}, nil
	}
	return []string{w}, args[i+1:]
}

func ruleDocker(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	sub, rest := pkDockerSub(c)
	if len(sub) == 0 {
		return rules.PkAllow(c, 0, "docker.help", "shows docker usage")
	}
	rc := &shell.Cmd{Name: c.Name, Args: rest, Raw: c.Raw, PipedFrom: c.PipedFrom}
	verb := sub[len(sub)-1]
	group := ""
	if len(sub) == 2 {
		group = sub[0]
	}
	if group == "compose" {
		return pkComposeVerb(c, verb, rest)
	}
	all := rc.Flag('a', "--all")
	force := rc.Flag('f', "--force")
	dynOps := false
	for _, o := range rc.Operands() {
		if rules.PkDyn(o) {
			dynOps = true
		}
	}
	switch verb {
	case "prune":
		switch group {
		case "system":
			if rc.Flag(0, "--volumes") {
				return rules.PkRet(c, 2.8, 0.7, "docker.system-prune-volumes", "deletes all unused containers, images and volumes: volume data cannot be recovered")
			}
			if all {
				return rules.PkRet(c, 2.2, 0.3, "docker.system-prune-all", "deletes all stopped containers, unused networks and every unused image")
			}
			return rules.PkRet(c, 2, 0.2, "docker.system-prune", "deletes stopped containers, unused networks and dangling images")
		case "volume":
			if all {
				return rules.PkRet(c, 2.8, 0.7, "docker.volume-prune-all", "deletes every unused volume: their data cannot be recovered")
			}
			return rules.PkRet(c, 2.4, 0.5, "docker.volume-prune", "deletes unused volumes: their data cannot be recovered")
		case "container":
			return rules.PkRet(c, 2, 0.2, "docker.container-prune", "deletes all stopped containers")
		case "image":
			if all {
				return rules.PkRet(c, 2, 0.1, "docker.image-prune-all", "deletes every image not used by a container")
			}
			return rules.PkRet(c, 1.5, 0.1, "docker.image-prune", "deletes dangling images")
		case "network":
			return rules.PkRet(c, 1.5, 0.1, "docker.network-prune", "deletes unused networks")
		case "builder", "buildx":
			return rules.PkAllow(c, 1, "docker.builder-prune", "clears the build cache (rebuilt on demand)")
		}
		return rules.PkRet(c, 2, 0.2, "docker.prune", "deletes unused docker objects")
	case "rm", "remove", "delete":
		switch group {
		case "volume":
			if dynOps {
				return rules.PkRet(c, 2.4, 0.6, "docker.volume-rm-many", "deletes volumes chosen at run time (often all of them): their data cannot be recovered")
			}
			return rules.PkRet(c, 2.4, 0.5, "docker.volume-rm", "deletes volumes: their data cannot be recovered")
		case "network", "context", "plugin", "secret", "config", "manifest":
			return rules.PkRet(c, 1.5, 0.1, "docker."+group+"-rm", "removes a docker "+group)
		case "service", "stack":
			return rules.PkRet(c, 2.2, 0.3, "docker."+group+"-rm", "removes a running swarm "+group)
		case "image":
			return pkDockerRmi(c, rc, dynOps)
		case "machine", "pod":
			return rules.PkRet(c, 2.2, 0.3, "docker."+group+"-rm", "removes a "+group+" and what it holds")
		}
		if rc.Flag('v', "--volumes") {
			return rules.PkRet(c, 2.3, 0.4, "docker.rm-volumes", "removes containers together with their anonymous volumes")
		}
		if dynOps || all {
			return rules.PkRet(c, 2.2, 0.3, "docker.rm-many", "removes containers chosen at run time (often all of them)")
		}
		if force {
			return rules.PkRet(c, 2, 0.2, "docker.rm-force", "kills and removes running containers")
		}
		return rules.PkRet(c, 1.5, 0.1, "docker.rm", "removes containers and their writable layer")
	case "rmi":
		return pkDockerRmi(c, rc, dynOps)
	case "kill":
		return rules.PkRet(c, 2, 0.2, "docker.kill", "kills running containers")
	case "stop":
		if group == "pod" || group == "machine" {
			return rules.PkRet(c, 2, 0.2, "docker.stop", "stops a "+group)
		}
		return rules.PkRet(c, 1.5, 0.1, "docker.stop", "stops running containers")
	case "leave":
		return rules.PkRet(c, 2.2, 0.3, "docker.swarm-leave", "leaves the swarm")
	case "scale":
		return rules.PkRet(c, 1.5, 0.1, "docker.scale", "changes how many replicas run")
	case "push":
		if group == "" || group == "image" || group == "manifest" || group == "buildx" {
			return rules.PkRet(c, 2, 0.3, "publish.docker-push", "publishes an image to a registry")
		}
	case "run", "create":
		if group == "" || group == "container" {
			return pkDockerRun(c, rc, x)
		}
	case "exec":
		return pkDockerExec(c, rc, x)
	case "login":
		return rules.PkAllow(c, 1, "docker.login", "logs in to a registry")
	case "logout":
		return rules.PkAllow(c, 1, "docker.logout", "logs out of a registry")
	case "update", "pause", "unpause", "restart", "rename", "start", "attach", "wait", "commit", "tag", "cp", "save", "load", "import", "export", "pull", "build", "use", "connect", "disconnect", "init", "bake", "install", "enable", "disable", "upgrade", "rollback", "unlock", "join", "promote", "demote", "annotate", "sign", "revoke":
		if verb == "disable" || verb == "revoke" || verb == "demote" {
			return rules.PkRet(c, 1.5, 0.1, "docker."+verb, "changes docker configuration")
		}
		if verb == "build" && rc.Flag(0, "--push") {
			return rules.PkRet(c, 2, 0.3, "publish.docker-push", "builds and publishes an image to a registry")
		}
		return rules.PkAllow(c, 1, "docker."+verb, "controlled, reversible docker operation")
	case "ps", "ls", "list", "images", "logs", "inspect", "version", "info", "stats", "top", "port", "history", "events", "diff", "df", "search", "help", "dryrun", "show", "du", "imagetools", "quickview", "cves", "recommendations", "compare", "healthcheck", "exists", "mount", "unmount", "umount":
		return rules.PkAllow(c, 0, "docker.read", "reads docker state")
	}
	return rules.PkUnsure(c, 1, "docker.other", "docker command")
}

func pkDockerRmi(c, rc *shell.Cmd, dynOps bool) (rules.Finding, bool) {
	if dynOps || rc.Flag('a', "--all") {
		return rules.PkRet(c, 2, 0.2, "docker.rmi-many", "removes images chosen at run time (often all of them)")
	}
	return rules.PkRet(c, 1.5, 0.1, "docker.rmi", "removes images (can be pulled or rebuilt)")
}

// pkDockerRun flags containers that get the host: the root filesystem or
// system dirs mounted, privileged mode, host namespaces, the docker socket.
func pkDockerRun(c, rc *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if f, ok := pkContainerCmd(c, rc.Args, pkDockerRunVal, 1, x); ok {
		return f, true
	}
	if rc.Flag(0, "--privileged") {
		return rules.PkRet(c, 2.2, 0.5, "docker.run-privileged", "runs a privileged container with full access to the host")
	}
	for _, k := range []string{"--pid", "--ipc", "--uts", "--userns", "--cgroupns"} {
		if v, ok := rules.PkVal(rc, k); ok && v == "host" {
			return rules.PkRet(c, 2, 0.4, "docker.run-host-ns", "runs a container in the host's namespaces")
		}
	}
	if v, ok := rules.PkVal(rc, "--cap-add"); ok && (strings.EqualFold(v, "ALL") || strings.EqualFold(v, "SYS_ADMIN")) {
		return rules.PkRet(c, 2.2, 0.5, "docker.run-caps", "runs a container with admin capabilities over the host")
	}
	for i, a := range rc.Args {
		var spec string
		switch {
		case a == "-v" || a == "--volume" || a == "--mount":
			if i+1 < len(rc.Args) {
				spec = rc.Args[i+1]
			}
		case strings.HasPrefix(a, "--volume=") || strings.HasPrefix(a, "--mount="):
			_, spec, _ = strings.Cut(a, "=")
		case strings.HasPrefix(a, "-v") && len(a) > 2 && a[2] != '-':
			spec = a[2:]
		default:
			continue
		}
		src := spec
		if strings.Contains(spec, "source=") || strings.Contains(spec, "src=") {
			for _, kv := range strings.Split(spec, ",") {
				k, v, _ := strings.Cut(kv, "=")
				if k == "source" || k == "src" {
					src = v
				}
			}
		} else {
			from := 0
			if len(spec) > 2 && spec[1] == ':' && (spec[0]|0x20 >= 'a' && spec[0]|0x20 <= 'z') && (spec[2] == '\\' || spec[2] == '/') {
				from = 2 // C:\data:/data
			}
			if j := strings.Index(spec[from:], ":"); j >= 0 {
				src = spec[:from+j]
			}
		}
		if pkHostMountRisky(src, x) {
			if f, ok := pkMountedInner(c, rc, x); ok {
				return f, true
			}
			return rules.PkRet(c, 2, 0.5, "docker.run-host-mount", "mounts a host system directory, the home or the docker socket into a container")
		}
	}
	// $HOME and ~ mounts the walker sees only as unknown words.
	for _, w := range rules.PkRawWords(c.Raw) {
		lw := strings.ToLower(w)
		for _, pre := range []string{"$home:", "${home}:", "~:", "~/:", "%userprofile%:", "$env:userprofile:", "$home/.ssh", "${home}/.ssh", "$home/.aws", "${home}/.aws", "$home/.kube", "/:/"} {
			if strings.HasPrefix(lw, pre) {
				if f, ok := pkMountedInner(c, rc, x); ok {
					return f, true
				}
				return rules.PkRet(c, 2, 0.5, "docker.run-host-mount", "mounts the home folder or its credentials into a container")
			}
		}
	}
	// Any other bind mount (the project: -v "$PWD":/src): what the
	// command does to the mounted folder happens on the host.
	if f, ok := pkMountedInner(c, rc, x); ok {
		return f, true
	}
	return rules.PkAllow(c, 1, "docker.run", "runs a container")
}

// pkMounts returns the container's bind mounts as container path -> host
// path (home spellings the walker leaves unknown are read from the source
// text).
func pkMounts(c, rc *shell.Cmd, x *rules.Ctx) map[string]string {
	m := map[string]string{}
	addSpec := func(spec string) {
		spec = strings.ReplaceAll(strings.ReplaceAll(spec, `"`, ""), "'", "")
		low := strings.ToLower(spec)
		for _, h := range []string{"$home", "${home}", "~", "%userprofile%", "$env:userprofile"} {
			if strings.HasPrefix(low, h+":") || strings.HasPrefix(low, h+"/:") {
				spec = x.Home + spec[strings.Index(spec, ":"):]
				break
			}
		}
		for _, h := range []string{"$pwd", "${pwd}", "$(pwd)", "`pwd`", "%cd%", "${pwd}", "$env:pwd", "."} {
			// The project folder itself (-v "$PWD":/src, -v .:/app).
			if (strings.HasPrefix(low, h+":") || strings.HasPrefix(low, h+"/:")) && x.Cwd != "" && !rules.PkDyn(x.Cwd) {
				spec = x.Cwd + spec[strings.Index(spec, ":"):]
				break
			}
		}
		if strings.HasPrefix(spec, "./") && x.Cwd != "" && !rules.PkDyn(x.Cwd) {
			spec = strings.TrimRight(x.Cwd, "/") + spec[1:] // -v ./data:/data
		}
		src, rest, ok := strings.Cut(spec, ":")
		if !ok || !strings.HasPrefix(src, "/") && !strings.HasPrefix(src, "~") || rules.PkDyn(src) {
			return
		}
		dst, _, _ := strings.Cut(rest, ":")
		if strings.HasPrefix(dst, "/") {
			if p := rules.PkAbs(src, x); p != "" {
				m[strings.TrimRight(dst, "/")] = p
			}
		}
	}
	for i, a := range rc.Args {
		if (a == "-v" || a == "--volume") && i+1 < len(rc.Args) {
			addSpec(rc.Args[i+1])
		}
	}
	for i, w := range rules.PkRawWords(c.Raw) {
		if i > 0 && strings.Contains(w, ":/") {
			addSpec(w)
		}
	}
	// "$(pwd)":/src and `pwd`:/src, which the word split above cuts apart.
	for _, h := range []string{`"$(pwd)"`, `$(pwd)`, "`pwd`", "\"`pwd`\""} {
		for rest := c.Raw; ; {
			k := strings.Index(rest, h+":/")
			if k < 0 {
				break
			}
			rest = rest[k+len(h)+1:]
			if end := strings.IndexAny(rest, " \t\"':"); end >= 0 {
				addSpec("$pwd:" + rest[:end])
			} else {
				addSpec("$pwd:" + rest)
			}
		}
	}
	return m
}

// pkMountedInner judges the container's command with the paths of host
// bind mounts put back (docker run -v /:/host alpine rm -rf /host is
// rm -rf / on the host); only a block-level result is reported.
func pkMountedInner(c, rc *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	mounts := pkMounts(c, rc, x)
	if len(mounts) == 0 {
		return rules.Finding{}, false
	}
	args := rc.Args
	i := 0
	for i < len(args) && len(args[i]) > 1 && args[i][0] == '-' {
		if pkDockerRunVal.Has(args[i]) && !strings.Contains(args[i], "=") {
			i++
		}
		i++
	}
	if i+1 >= len(args) {
		return rules.Finding{}, false
	}
	words := append([]string(nil), args[i+1:]...)
	mapped := false
	for j, w := range words {
		for dst, src := range mounts {
			if dst == "" {
				continue
			}
			if w == dst || strings.HasPrefix(w, dst+"/") {
				mapped = true
				words[j] = src + strings.TrimPrefix(w, dst)
				if src == "/" && w != dst {
					words[j] = strings.TrimPrefix(w, dst)
				}
			}
		}
	}
	if c.Depth >= rules.PkMaxDepth {
		return rules.Finding{}, false
	}
	// Judged as a command line so sh -c '...' and chroot /host ... open up;
	// mounted paths inside a -c string are put back too.
	var line []string
	for _, w := range words {
		for dst, src := range mounts {
			if dst != "" && strings.Contains(w, dst+"/") && strings.ContainsAny(w, " ;|&") {
				w = strings.ReplaceAll(w, dst+"/", strings.TrimRight(src, "/")+"/")
				mapped = true
			} else if dst != "" && strings.ContainsAny(w, " ;|&") && (strings.HasSuffix(w, " "+dst) || strings.Contains(w, " "+dst+" ") || strings.Contains(w, " "+dst+";")) {
				w = strings.ReplaceAll(w, " "+dst, " "+src) // sh -c 'rm -rf /src'
				mapped = true
			}
		}
		line = append(line, rules.ShellQuote(strings.ReplaceAll(w, shell.Dyn, "$X")))
	}
	f := rules.BashOn(strings.Join(line, " "), x.Cwd, x.Home, x.M.Deeper())
	// A host folder the command names through its mount is judged like
	// the host path (the project mounted and wiped is a question); else
	// only a block-level result speaks.
	if f.Score() < 2.5 && !f.RedLine && !(mapped && f.Score() >= 1.5) {
		return rules.Finding{}, false
	}
	f.Rule = "docker.run-host/" + f.Rule
	f.Reason = "inside a container, on a host folder it mounts: " + f.Reason
	f.Marked = c.Raw
	return f, true
}

func pkHostMountRisky(src string, x *rules.Ctx) bool {
	if src == "" || rules.PkDyn(src) && !strings.HasPrefix(src, shell.Dyn+"/") {
		return false // $(pwd):/app and friends: the project
	}
	if !strings.HasPrefix(src, "/") && !strings.HasPrefix(src, "~") && !strings.HasPrefix(src, shell.Dyn) && !(len(src) > 1 && src[1] == ':') {
		return false // named volume or relative project path
	}
	p := rules.PkAbs(src, x)
	home := strings.ToLower(strings.TrimRight(x.Home, "/"))
	switch {
	case p == "/" || p == "c:/" || p == "c:" || p == home:
		return true
	case strings.HasSuffix(p, "docker.sock"):
		return true
	}
	for _, d := range []string{"/etc", "/root", "/var", "/usr", "/bin", "/sbin", "/boot", "/dev", "/proc", "/sys", "/lib", "/home", "/users", "c:/windows"} {
		if p == d || strings.HasPrefix(p, d+"/") && d != "/var" && d != "/home" && d != "/users" {
			return true
		}
		if (d == "/var" || d == "/home" || d == "/users") && p == d {
			return true
		}
	}
	if p == "/var/run" || p == "/run" || strings.HasPrefix(p, "/var/lib/docker") {
		return true
	}
	if home != "" && (strings.HasPrefix(p, home+"/.ssh") || strings.HasPrefix(p, home+"/.aws") || strings.HasPrefix(p, home+"/.kube") || strings.HasPrefix(p, home+"/.config/gcloud") || strings.HasPrefix(p, home+"/.gnupg")) {
		return true
	}
	return false
}

// pkDockerExec judges the command run inside the container like a local one.
func pkDockerExec(c, rc *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	// Options, the container, then the command verbatim.
	vals := pkVFContainers1
	args := rc.Args
	i := 0
	for i < len(args) && len(args[i]) > 1 && args[i][0] == '-' {
		if vals.Has(args[i]) {
			i++
		}
		i++
	}
	if i+1 < len(args) {
		if f, ok := rules.PkEval(rules.PkInner(c, args[i+1:]), x); ok && f.Score() >= 1.5 {
			f.Rule = "docker.exec/" + f.Rule
			f.Reason = "inside a container: " + f.Reason
			return f, true
		}
	}
	return rules.PkAllow(c, 1, "docker.exec", "runs a command inside a container")
}

func ruleCompose(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	pos := rules.PkPos(c.Args, pkVFContainers2)
	if len(pos) == 0 {
		return rules.PkAllow(c, 0, "compose.help", "shows usage")
	}
	// Arguments after the verb.
	idx := rules.PkIndex(c.Args, pos[0])
	return pkComposeVerb(c, strings.ToLower(pos[0]), c.Args[idx+1:])
}

func pkComposeVerb(c *shell.Cmd, verb string, rest []string) (rules.Finding, bool) {
	// "docker compose -f x.yml down": the verb may follow compose flags.
	if strings.HasPrefix(verb, "-") {
		pos := rules.PkPos(append([]string{verb}, rest...), pkVFContainers3)
		if len(pos) == 0 {
			return rules.PkAllow(c, 0, "compose.help", "shows usage")
		}
		verb = strings.ToLower(pos[0])
		all := append([]string{verb}, rest...)
		idx := rules.PkIndex(all, pos[0])
		rest = all[idx+1:]
	}
	rc := &shell.Cmd{Name: "compose", Args: rest}
	switch verb {
	case "down":
		if rc.Flag('v', "--volumes") {
			return rules.PkRet(c, 2.6, 0.6, "compose.down-volumes", "stops the stack and deletes its volumes: their data cannot be recovered")
		}
		if v, ok := rules.PkVal(rc, "--rmi"); ok && v != "" {
			return rules.PkRet(c, 2.1, 0.2, "compose.down-rmi", "stops the stack, removes its containers, networks and images")
		}
		return rules.PkRet(c, 2, 0.2, "compose.down", "stops the stack and removes its containers and networks")
	case "rm":
		if rc.Flag('v', "--volumes") {
			return rules.PkRet(c, 2.3, 0.4, "compose.rm-volumes", "removes service containers and their anonymous volumes")
		}
		return rules.PkRet(c, 1.8, 0.1, "compose.rm", "removes stopped service containers")
	case "kill":
		return rules.PkRet(c, 2, 0.2, "compose.kill", "kills the stack's containers")
	case "stop", "pause":
		return rules.PkRet(c, 1.5, 0.1, "compose.stop", "stops the stack's services")
	case "push":
		return rules.PkRet(c, 2, 0.3, "publish.compose-push", "publishes the stack's images to a registry")
	case "run", "exec":
		if verb == "exec" {
			if f, ok := rules.PkComposeExec(c, rc.Args); ok {
				return f, true
			}
		}
		if f, ok := pkContainerCmd(c, rc.Args, rules.PkComposeRunVal, 1, nil); ok {
			return f, true
		}
		return rules.PkAllow(c, 1, "compose."+verb, "runs a command in a service container")
	case "up", "start", "restart", "build", "pull", "create", "unpause", "scale", "watch", "cp", "attach", "wait", "alpha", "publish":
		if verb == "publish" {
			return rules.PkRet(c, 2, 0.3, "publish.compose", "publishes the compose application")
		}
		return rules.PkAllow(c, 1, "compose."+verb, "runs the project's containers")
	case "ps", "logs", "config", "ls", "images", "top", "port", "events", "version", "convert", "stats", "help":
		return rules.PkAllow(c, 0, "compose.read", "reads the stack's state")
	}
	return rules.PkUnsure(c, 1, "compose.other", "compose command")
}

var pkKubeVal = rules.PkSet("-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user", "-s", "--server", "--token", "-l", "--selector", "-o", "--output", "-f", "--filename", "-c", "--container", "--field-selector", "--replicas", "--type", "--image", "-p", "--patch", "--as", "--request-timeout", "--grace-period", "--timeout", "-k", "--kustomize", "--for", "--sort-by", "--tail", "--since", "--template", "--from-literal", "--from-file", "--port", "--target-port", "--name", "--cascade", "--dry-run", "-L", "--label-columns", "--resource", "--subresource")

func ruleKubectl(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	pos := rules.PkPos(c.Args, pkKubeVal)
	if len(pos) == 0 {
		return rules.PkAllow(c, 0, "kube.help", "shows usage")
	}
	verb := strings.ToLower(pos[0])
	objs := pos[1:]
	dry := false
	if v, ok := rules.PkVal(c, "--dry-run"); ok && v != "none" {
		dry = true
	}
	allNs := c.Flag('A', "--all-namespaces")
	all := c.Flag(0, "--all")
	switch verb {
	case "get", "describe", "logs", "top", "explain", "api-resources", "api-versions", "version", "cluster-info", "diff", "wait", "events", "auth", "completion", "plugin", "options", "help", "kustomize", "port-forward", "proxy", "alpha":
		if verb == "get" && pkKubeSecretRead(c, objs) {
			return rules.PkRet(c, 1.5, 0.5, "creds.kube-secret", "prints Kubernetes secrets' contents")
		}
		return rules.PkAllow(c, 0, "kube.read", "reads cluster state")
	case "config":
		if len(objs) > 0 {
			switch strings.ToLower(objs[0]) {
			case "view":
				if c.Flag(0, "--raw") || c.Flag(0, "--flatten") {
					return rules.PkRet(c, 1.5, 0.5, "creds.kube-config-raw", "prints cluster credentials")
				}
				return rules.PkAllow(c, 0, "kube.config-view", "shows the kubeconfig without secrets")
			case "delete-context", "delete-cluster", "delete-user", "unset":
				return rules.PkAllow(c, 1, "kube.config-edit", "edits the local kubeconfig")
			}
		}
		return rules.PkAllow(c, 1, "kube.config", "reads or switches the local kubeconfig")
	}
	if dry {
		return rules.PkAllow(c, 0, "kube.dry-run", "dry run: nothing changes")
	}
	switch verb {
	case "delete":
		if len(objs) > 0 {
			kind := strings.ToLower(objs[0])
			kinds := strings.Split(kind, ",")
			for _, k := range kinds {
				k, _, _ = strings.Cut(k, "/")
				switch k {
				case "ns", "namespace", "namespaces", "pv", "persistentvolume", "persistentvolumes", "pvc", "persistentvolumeclaim", "persistentvolumeclaims", "crd", "crds", "customresourcedefinition", "customresourcedefinitions", "node", "nodes", "no", "all", "statefulset", "statefulsets", "sts", "clusterrole", "clusterrolebinding":
					return rules.PkRet(c, 2.8, 0.6, "kube.delete-"+k, "deletes "+k+" and everything in or on it; data in volumes cannot be recovered")
				}
			}
		}
		if all || allNs {
			return rules.PkRet(c, 2.8, 0.6, "kube.delete-all", "deletes every matching resource")
		}
		return rules.PkRet(c, 2, 0.3, "kube.delete", "deletes cluster resources")
	case "drain":
		return rules.PkRet(c, 2.2, 0.3, "kube.drain", "evicts every pod from a node")
	case "cordon", "uncordon", "taint":
		return rules.PkRet(c, 1.5, 0.2, "kube."+verb, "changes node scheduling")
	case "scale":
		if v, ok := rules.PkVal(c, "--replicas"); ok && v == "0" {
			return rules.PkRet(c, 2.2, 0.3, "kube.scale-zero", "scales workloads to zero: the service goes down")
		}
		return rules.PkRet(c, 1.5, 0.1, "kube.scale", "changes how many replicas run")
	case "apply", "create", "replace", "patch", "edit", "set", "rollout", "autoscale", "expose", "run", "label", "annotate", "debug", "certificate":
		if verb == "rollout" && len(objs) > 0 {
			switch strings.ToLower(objs[0]) {
			case "status", "history":
				return rules.PkAllow(c, 0, "kube.rollout-read", "reads rollout state")
			}
		}
		if verb == "replace" && c.Flag(0, "--force") {
			return rules.PkRet(c, 2.2, 0.3, "kube.replace-force", "deletes and recreates resources")
		}
		if verb == "apply" && c.Flag(0, "--prune") {
			return rules.PkRet(c, 2.3, 0.3, "kube.apply-prune", "applies manifests and deletes resources missing from them")
		}
		if verb == "run" {
			if i := rules.PkIndex(c.Args, "--"); i >= 0 && i+1 < len(c.Args) {
				if f, ok := pkContainerCmd(c, append([]string{"pod"}, c.Args[i+1:]...), nil, 1, x); ok {
					return f, true
				}
			}
		}
		if verb == "run" || verb == "debug" || verb == "label" || verb == "annotate" {
			return rules.PkAllow(c, 1, "kube."+verb, "controlled cluster change")
		}
		return rules.PkRet(c, 1.5, 0.1, "kube."+verb, "changes cluster resources")
	case "exec", "attach", "cp":
		if verb == "exec" {
			if i := rules.PkIndex(c.Args, "--"); i >= 0 && i+1 < len(c.Args) {
				if f, ok := rules.PkEval(rules.PkInner(c, c.Args[i+1:]), x); ok && f.Score() >= 1.5 {
					f.Rule = "kube.exec/" + f.Rule
					f.Reason = "inside a pod: " + f.Reason
					return f, true
				}
			}
		}
		return rules.PkAllow(c, 1, "kube."+verb, "runs or copies inside a pod")
	}
	return rules.PkUnsure(c, 1.5, "kube.other", "kubectl command")
}

func pkKubeSecretRead(c *shell.Cmd, objs []string) bool {
	if len(objs) == 0 {
		return false
	}
	k := strings.ToLower(objs[0])
	k, _, _ = strings.Cut(k, "/")
	if k != "secret" && k != "secrets" {
		return false
	}
	o, _ := rules.PkVal(c, "-o", "--output")
	o = strings.ToLower(o)
	return o == "yaml" || o == "json" || strings.HasPrefix(o, "jsonpath") || strings.HasPrefix(o, "go-template") || strings.HasPrefix(o, "custom-columns")
}

func ruleHelm(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	pos := rules.PkPos(c.Args, pkVFContainers4)
	if len(pos) == 0 {
		return rules.PkAllow(c, 0, "helm.help", "shows usage")
	}
	verb := strings.ToLower(pos[0])
	if rules.PkDryFlag(c, pkVFContainers4, "--dry-run") {
		return rules.PkAllow(c, 0, "helm.dry-run", "dry run: nothing changes")
	}
	switch verb {
	case "uninstall", "delete", "del", "un":
		return rules.PkRet(c, 2.2, 0.3, "helm.uninstall", "removes a release and its resources from the cluster")
	case "install", "upgrade", "rollback":
		return rules.PkRet(c, 1.5, 0.1, "helm."+verb, "changes what runs in the cluster")
	case "push":
		return rules.PkRet(c, 2, 0.3, "publish.helm-push", "publishes a chart to a registry")
	case "list", "ls", "status", "get", "history", "show", "inspect", "search", "repo", "template", "lint", "version", "dependency", "dep", "package", "pull", "fetch", "env", "help", "verify", "completion", "create", "test", "plugin", "registry":
		return rules.PkAllow(c, 0, "helm.read", "reads or renders charts")
	}
	return rules.PkUnsure(c, 1, "helm.other", "helm command")
}

func ruleLocalCluster(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	ops := rules.PkLowOps(c)
	if len(ops) == 0 {
		return rules.PkAllow(c, 0, "cluster.help", "shows usage")
	}
	verb := ops[0]
	if verb == "kubectl" && c.Name == "minikube" {
		if i := rules.PkIndex(c.Args, "--"); i >= 0 && i+1 < len(c.Args) {
			if f, ok := rules.PkEval(rules.PkInner(c, append([]string{"kubectl"}, c.Args[i+1:]...)), x); ok {
				return f, true
			}
		}
		return rules.PkAllow(c, 0.5, "cluster.kubectl", "runs the bundled kubectl")
	}
	if c.Name == "kind" || c.Name == "k3d" {
		if len(ops) > 1 && (verb == "delete" || verb == "cluster" && (ops[1] == "delete" || ops[1] == "rm")) {
			return rules.PkRet(c, 2, 0.2, "cluster.delete", "deletes a local cluster and its workloads")
		}
		return rules.PkAllow(c, 1, "cluster."+c.Name, "manages a local cluster")
	}
	switch verb {
	case "delete", "destroy", "purge", "remove":
		if c.Flag(0, "--all") || c.Flag(0, "--purge") {
			return rules.PkRet(c, 2.3, 0.3, "cluster.delete-all", "deletes every local cluster/VM and its data")
		}
		return rules.PkRet(c, 2, 0.2, "cluster.delete", "deletes a local cluster/VM and its data")
	case "stop", "halt", "suspend":
		return rules.PkAllow(c, 1, "cluster.stop", "stops a local cluster/VM")
	}
	return rules.PkAllow(c, 1, "cluster."+c.Name, "manages a local cluster/VM")
}

// Flag sets hoisted out of the rules (built once, not per command).
var (
	pkVFContainers1 = rules.PkSet("-e", "--env", "-u", "--user", "-w", "--workdir", "--env-file", "--detach-keys")
	pkVFContainers2 = rules.PkSet("-f", "--file", "-p", "--project-name", "--profile", "--env-file", "--project-directory", "--ansi", "--parallel", "--progress")
	pkVFContainers3 = rules.PkSet("-f", "--file", "-p", "--project-name", "--profile", "--env-file", "--project-directory", "--ansi", "--parallel", "--progress")
	pkVFContainers4 = rules.PkSet("-n", "--namespace", "--kube-context", "--kubeconfig", "-f", "--values", "--set", "--set-string", "--version", "--repo", "-o", "--output", "--timeout", "--post-renderer", "--description",
		"--name-template", "--post-renderer-args", "--username", "--password", "--ca-file", "--cert-file", "--key-file", "--keyring",
		"--set-file", "--set-json", "--set-literal", "--history-max", "--max-history", "--deletion-propagation", "--labels",
		"-l", "--selector", "--api-versions", "--kube-version", "--output-dir", "--registry-config", "--repository-config",
		"--repository-cache", "--kube-apiserver", "--kube-as-user", "--kube-as-group", "--kube-ca-file", "--kube-token")
)

// pkContainerCmd judges the command a container is asked to run (docker
// run IMAGE CMD, compose run/exec SERVICE CMD) when it reaches out of the
// container: databases, clouds, clusters, publishing, credentials. What it
// does to the container's own throwaway file system is not judged here.
func pkContainerCmd(c *shell.Cmd, args []string, vals *rules.Set, skip int, x *rules.Ctx) (rules.Finding, bool) {
	i := 0
	for i < len(args) && len(args[i]) > 1 && args[i][0] == '-' {
		if vals.Has(args[i]) && !strings.Contains(args[i], "=") {
			i++
		}
		i++
	}
	if i >= len(args) {
		return rules.Finding{}, false
	}
	words := args[i+skip:]
	// Images whose entrypoint is a CLI: the arguments go to it.
	img := strings.ToLower(args[i])
	if j := strings.LastIndex(img, ":"); j > strings.LastIndex(img, "/") {
		img = img[:j]
	}
	for suffix, prog := range pkEntrypoints {
		if img == suffix || strings.HasSuffix(img, "/"+suffix) {
			words = append([]string{prog}, words...)
			break
		}
	}
	if len(words) == 0 {
		return rules.Finding{}, false
	}
	inner := rules.PkInner(c, words)
	if x == nil {
		x = &rules.Ctx{Cwd: "/", Home: "/root"}
	}
	f, ok := rules.PkEval(inner, x)
	if !ok || f.Score() < 1.5 && !f.RedLine {
		return rules.Finding{}, false
	}
	for _, p := range []string{"fs.", "dyn.", "power.", "proc.", "shell.", "path.", "res.", "sys.", "svc.", "cron."} {
		if strings.HasPrefix(f.Rule, p) {
			return rules.Finding{}, false
		}
	}
	f.Rule = "container/" + f.Rule
	f.Reason = "from a container: " + f.Reason
	f.Marked = c.Raw
	return f, true
}

// pkEntrypoints maps images (registry prefix and tag dropped) to the CLI
// their entrypoint runs.
var pkEntrypoints = map[string]string{"amazon/aws-cli": "aws", "hashicorp/terraform": "terraform", "bitnami/kubectl": "kubectl", "alpine/helm": "helm", "pulumi/pulumi": "pulumi", "opentofu/opentofu": "tofu", "gcr.io/google.com/cloudsdktool/google-cloud-cli": "gcloud", "rancher/kubectl": "kubectl"}

// docker run's options that take a value.
var (
	pkDockerRunVal = rules.PkSet("-e", "--env", "-v", "--volume", "-p", "--publish", "--name", "-w", "--workdir", "--network", "--net", "-u", "--user", "--entrypoint", "--env-file", "-l", "--label", "--mount", "--platform", "--restart", "-h", "--hostname", "--add-host", "--cpus", "-m", "--memory", "--device", "--cap-add", "--cap-drop", "--security-opt", "--log-driver", "--log-opt", "--pid", "--ipc", "--tmpfs", "--ulimit", "--shm-size", "--gpus", "--dns", "--link", "--expose", "--health-cmd", "--runtime", "--pull", "--stop-signal", "--cidfile", "-a", "--attach", "--uts", "--userns", "--cgroupns", "--memory-swap", "--cpu-shares", "-c", "--label-file", "--volumes-from", "--group-add", "--mac-address", "--ip", "--network-alias", "--detach-keys", "--init-path", "--isolation", "--storage-opt", "--sysctl")
)
