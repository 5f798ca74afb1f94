package opts

import "strings"

// The option grammar of each judged program, from its documentation
// (git's parse-options and the git-* manual pages, GNU getopt_long and the
// coreutils/findutils/tar/wget manuals, OpenSSH, rsync, curl, kubectl).
// Keys are the program name, or "git SUB" / "git SUB SUBSUB" for git's
// subcommands. Only options that change how the words are read (values)
// or what the command does (force, delete, dry run) need to be listed:
// an unknown flag is read as a flag without a value.

// git's parse-options: unique prefixes of long options, --no-X negation,
// -h is usage and changes nothing, --help opens the manual.
//
// The common options go in more, joined on first use (build): a
// concatenation here ran at every judge start, ~150 of them.
func gitSub(o string) *Spec {
	return &Spec{Opts: o, more: "h|help! help-all!", Abbrev: true, Negate: true}
}

// gnu is a GNU getopt_long program: unique prefixes, options anywhere.
func gnu(o string) *Spec { return &Spec{Opts: o, more: "help! version!", Abbrev: true} }

var table = map[string]*Spec{
	// git's own options before the subcommand: exact names only
	// (git.c's handle_options does no abbreviation), and they stop at
	// the subcommand.
	"git": {Opts: "C= c= git-dir= work-tree= namespace= exec-path? config-env= super-prefix= p|paginate P|no-pager " +
		"bare no-replace-objects no-lazy-fetch literal-pathspecs glob-pathspecs noglob-pathspecs icase-pathspecs " +
		"no-optional-locks no-advice list-cmds= attr-source= h|help! v|version! html-path! man-path! info-path!", Stop: true},

	"git checkout": gitSub("b= B= l detach t|track? guess f|force m|merge ours|2 theirs|3 orphan= conflict= p|patch " +
		"ignore-skip-worktree-bits ignore-other-worktrees overwrite-ignore recurse-submodules? overlay " +
		"pathspec-from-file= pathspec-file-nul q|quiet progress U|unified= inter-hunk-context= auto-advance"),
	"git switch": gitSub("c|create= C|force-create= d|detach guess f|force|discard-changes m|merge conflict= q|quiet " +
		"progress t|track? orphan= ignore-other-worktrees recurse-submodules? overwrite-ignore"),
	"git restore": gitSub("s|source= p|patch W|worktree S|staged q|quiet progress ours|2 theirs|3 m|merge conflict= " +
		"ignore-unmerged ignore-skip-worktree-bits recurse-submodules? overlay pathspec-from-file= pathspec-file-nul " +
		"U|unified= inter-hunk-context= auto-advance"),
	"git reset": gitSub("q|quiet refresh mixed soft hard merge keep recurse-submodules? p|patch N|intent-to-add " +
		"pathspec-from-file= pathspec-file-nul U|unified= inter-hunk-context= auto-advance"),
	"git clean": gitSub("q|quiet n|dry-run! f|force i|interactive d e|exclude= x X"),
	"git push": gitSub("v|verbose q|quiet repo= all branches mirror d|delete tags n|dry-run! porcelain f|force " +
		"force-with-lease? force-if-includes recurse-submodules= thin receive-pack= exec= u|set-upstream progress " +
		"prune no-verify follow-tags signed? atomic o|push-option= 4|ipv4 6|ipv6"),
	"git branch": gitSub("v|verbose q|quiet t|track? u|set-upstream-to= unset-upstream color? r|remotes contains= " +
		"no-contains= with= without= a|all d|delete D m|move M c|copy C l|list show-current create-reflog " +
		"edit-description f|force merged= no-merged= column? sort= points-at= i|ignore-case recurse-submodules format= abbrev? omit-empty"),
	"git tag": gitSub("l|list n? d|delete v|verify a|annotate m|message= F|file= s|sign u|local-user= f|force " +
		"contains= no-contains= merged= no-merged= points-at= sort= format= column? i|ignore-case e|edit " +
		"create-reflog cleanup= trailer= color? omit-empty"),
	"git rm": gitSub("n|dry-run! q|quiet cached f|force r ignore-unmatch sparse pathspec-from-file= pathspec-file-nul"),
	"git mv": gitSub("v|verbose n|dry-run! f|force k sparse"),
	"git add": gitSub("n|dry-run! v|verbose i|interactive p|patch e|edit f|force u|update A|all N|intent-to-add " +
		"refresh ignore-errors ignore-missing sparse chmod= pathspec-from-file= pathspec-file-nul renormalize " +
		"ignore-removal U|unified= inter-hunk-context= auto-advance"),
	"git commit": gitSub("q|quiet v|verbose F|file= author= date= m|message= c|reedit-message= C|reuse-message= " +
		"fixup= squash= reset-author trailer= s|signoff t|template= e|edit cleanup= status S|gpg-sign? a|all " +
		"i|include interactive p|patch o|only n|no-verify post-rewrite z|null amend dry-run! short branch " +
		"ahead-behind porcelain long u|untracked-files? pathspec-from-file= pathspec-file-nul allow-empty " +
		"allow-empty-message U|unified= inter-hunk-context="),
	"git fetch": gitSub("all a|append atomic upload-pack= f|force m|multiple t|tags n j|jobs= prefetch p|prune " +
		"P|prune-tags recurse-submodules? dry-run! write-fetch-head k|keep 4|ipv4 6|ipv6 depth= shallow-since= " +
		"shallow-exclude= deepen= unshallow update-shallow refmap= o|server-option= q|quiet v|verbose progress " +
		"u|update-head-ok negotiation-tip= negotiate-only filter= set-upstream show-forced-updates auto-maintenance auto-gc"),
	"git pull": gitSub("q|quiet v|verbose recurse-submodules? r|rebase? n stat summary log? signoff squash commit " +
		"edit cleanup= ff ff-only verify verify-signatures autostash s|strategy= X|strategy-option= S|gpg-sign? " +
		"allow-unrelated-histories all a|append upload-pack= f|force t|tags p|prune j|jobs= dry-run! k|keep depth= " +
		"shallow-since= shallow-exclude= deepen= unshallow update-shallow refmap= o|server-option= 4|ipv4 6|ipv6 " +
		"negotiation-tip= show-forced-updates set-upstream"),
	"git clone": gitSub("v|verbose q|quiet progress reject-shallow n|no-checkout bare mirror l|local no-hardlinks " +
		"s|shared recurse-submodules? recursive? j|jobs= template= reference= reference-if-able= dissociate " +
		"o|origin= b|branch= revision= u|upload-pack= depth= shallow-since= shallow-exclude= single-branch tags " +
		"shallow-submodules separate-git-dir= ref-format= c|config= server-option= 4|ipv4 6|ipv6 filter= " +
		"also-filter-submodules remote-submodules sparse bundle-uri="),
	"git rebase": gitSub("onto= keep-base i|interactive x|exec= r|rebase-merges? continue skip abort quit edit-todo " +
		"show-current-patch root autosquash autostash f|force-rebase m|merge s|strategy= X|strategy-option= " +
		"S|gpg-sign? q|quiet v|verbose n|no-stat stat C= update-refs empty= keep-empty ff fork-point signoff " +
		"committer-date-is-author-date reset-author-date ignore-date ignore-whitespace whitespace= " +
		"reapply-cherry-picks apply verify rerere-autoupdate"),
	"git stash":           gitSub("q|quiet"),
	"git stash push":      gitSub("p|patch S|staged k|keep-index q|quiet u|include-untracked a|all m|message= pathspec-from-file= pathspec-file-nul"),
	"git stash drop":      gitSub("q|quiet"),
	"git stash pop":       gitSub("q|quiet index"),
	"git worktree":        gitSub(""),
	"git worktree add":    gitSub("f|force detach checkout lock reason= orphan q|quiet track guess-remote b= B= relative-paths"),
	"git worktree remove": gitSub("f|force"),
	"git worktree move":   gitSub("f|force"),
	"git worktree prune":  gitSub("n|dry-run! v|verbose expire="),
	"git gc":              gitSub("q|quiet prune? aggressive auto force keep-largest-pack cruft max-cruft-size= detach"),
	"git update-ref":      gitSub("m= d no-deref z stdin create-reflog batch-updates"),
	"git submodule":       gitSub("q|quiet cached"),
	"git difftool":        gitSub("d|dir-diff y|no-prompt prompt rotate-to= skip-to= t|tool= tool-help! symlinks x|extcmd= g|gui trust-exit-code"),
	"git ls-remote":       gitSub("h|heads b|branches t|tags refs upload-pack= exec= q|quiet exit-code get-url sort= symref o|server-option="),
	"git archive":         gitSub("l|list v|verbose format= prefix= o|output= add-file= add-virtual-file= worktree-attributes remote= exec= mtime="),
	"git grep":            gitSub("h H O|open-files-in-pager? e= f= A|after-context= B|before-context= C|context= m|max-count= max-depth= threads="),
	"git log":             gitSub("output= n|max-count= skip= since= until= author= committer= grep= format= pretty? ext-diff"),
	"git diff":            gitSub("output= ext-diff textconv U|unified="),
	"git config":          gitSub("global system local worktree f|file= blob= get get-all get-regexp get-urlmatch= replace-all add unset unset-all rename-section remove-section l|list e|edit t|type= default= show-origin show-scope z|null name-only includes comment= fixed-value"),
	"git bisect":          gitSub(""),
	"git filter-branch":   {Opts: "env-filter= tree-filter= index-filter= parent-filter= msg-filter= commit-filter= tag-name-filter= subdirectory-filter= prune-empty original= d= f|force state-branch= setup="},

	// coreutils
	"rm":    gnu("f|force i I interactive? one-file-system no-preserve-root preserve-root? r|R|recursive d|dir v|verbose"),
	"cp":    gnu("a|archive attributes-only backup? b copy-contents d f|force i|interactive H l|link L|dereference n|no-clobber P|no-dereference p preserve? no-preserve= parents R|r|recursive reflink? remove-destination sparse= strip-trailing-slashes s|symbolic-link S|suffix= t|target-directory= T|no-target-directory u|update? v|verbose x|one-file-system Z context? keep-directory-symlink debug"),
	"mv":    gnu("backup? b debug exchange f|force i|interactive n|no-clobber no-copy strip-trailing-slashes S|suffix= t|target-directory= T|no-target-directory u|update? v|verbose Z|context"),
	"chmod": gnu("c|changes f|silent|quiet v|verbose no-preserve-root preserve-root reference= R|recursive"),
	"chown": gnu("c|changes f|silent|quiet v|verbose dereference h|no-dereference from= no-preserve-root preserve-root reference= R|recursive H L P"),
	"ln":    gnu("backup? b d|F|directory f|force i|interactive L|logical n|no-dereference P|physical r|relative s|symbolic S|suffix= t|target-directory= T|no-target-directory v|verbose"),

	// runners
	"xargs": {Opts: "0|null a|arg-file= d|delimiter= E= e|eof? I= i|replace? L= l|max-lines? n|max-args= P|max-procs= " +
		"p|interactive process-slot-var= r|no-run-if-empty s|max-chars= show-limits! t|verbose x|exit o|open-tty " +
		"help! version! J= R= S=", Abbrev: true, Stop: true},
	"parallel": {Opts: "j|jobs|P|max-procs= a|arg-file= d|delimiter= colsep|C= joblog= results= S|sshlogin= tmpdir= " +
		"workdir|wd= I= i|replace? E|eof= n|max-args= N= L|max-lines= l? s|max-chars= X m x|xargs k|keep-order " +
		"0|null q|quote dry-run! help! version! bar progress eta halt= timeout= retries= tag tagstring= " +
		"env= basefile= transfer trc= return= cleanup shebang pipe|spreadstdin block|block-size= recstart= " +
		"recend= header= u|ungroup group line-buffer v|verbose t", Abbrev: true, Stop: true},
	"watch": {Opts: "b|beep c|color C|no-color d|differences? e|errexit g|chgexit n|interval= p|precise t|no-title " +
		"w|no-wrap x|exec q|equexit= r|no-rerun s|shotsfile= h|help! v|version!", Abbrev: true, Stop: true},

	// network
	// OpenSSH: getopt, options before the host and again after it, until
	// the remote command starts (see SSH).
	"ssh": {Opts: "4 6 A a C f G g K k M N n q s T t V! v X x Y y B= b= c= D= E= e= F= I= i= J= L= l= m= O= o= P= p= Q=! R= S= W= w="},
	"scp": {Opts: "3 4 6 A B C O p q R r T v c= D= F= i= J= l= o= P= S= X="},
	"rsync": {Opts: "v|verbose q|quiet c|checksum a|archive r|recursive R|relative b|backup backup-dir= suffix= " +
		"u|update l|links L|copy-links H|hard-links p|perms E|executability o|owner g|group D devices specials " +
		"t|times n|dry-run! W|whole-file x|one-file-system B|block-size= e|rsh= rsync-path= existing " +
		"ignore-existing remove-source-files del delete delete-before delete-during delete-delay delete-after " +
		"delete-excluded force max-delete= max-size= min-size= partial partial-dir= z|compress compress-level= " +
		"C|cvs-exclude f|filter= F exclude= exclude-from= include= include-from= files-from= 0|from0 " +
		"T|temp-dir= compare-dest= copy-dest= link-dest= P i|itemize-changes log-file= out-format= password-file= " +
		"port= sockopts= blocking-io stats h|human-readable progress list-only! bwlimit= chown= chmod= " +
		"usermap= groupmap= M|remote-option= info= debug= iconv= timeout= contimeout= inplace append " +
		"checksum-choice= zc= 8|8-bit-output k|copy-dirlinks K|keep-dirlinks S|sparse help! version!"},
	"curl": {Opts: "X|request= d|data= data-raw= data-binary= data-urlencode= data-ascii= F|form= form-string= " +
		"H|header= o|output= O|remote-name u|user= A|user-agent= e|referer= b|cookie= c|cookie-jar= T|upload-file= " +
		"x|proxy= U|proxy-user= K|config= m|max-time= connect-timeout= retry= w|write-out= r|range= E|cert= " +
		"key= cacert= capath= y|speed-time= Y|speed-limit= z|time-cond= Q|quote= t|telnet-option= json= url= " +
		"resolve= connect-to= interface= local-port= limit-rate= max-filesize= netrc-file= oauth2-bearer= " +
		"output-dir= proxy-header= request-target= unix-socket= abstract-unix-socket= C|continue-at= " +
		"D|dump-header= trace= trace-ascii= stderr= ciphers= s|silent S|show-error f|fail L|location k|insecure " +
		"I|head G|get i|include v|verbose N|no-buffer n|netrc l|list-only a|append j|junk-session-cookies " +
		"J|remote-header-name g|globoff Z|parallel 0|http1.0 h|help! V|version! M|manual!", Abbrev: true, HelpAnywhere: true},
	"wget": gnu("O|output-document= o|output-file= a|append-output= i|input-file= B|base= e|execute= t|tries= " +
		"T|timeout= w|wait= Q|quota= P|directory-prefix= U|user-agent= header= method= body-data= body-file= " +
		"post-data= post-file= user= password= http-user= http-password= load-cookies= save-cookies= " +
		"l|level= A|accept= R|reject= D|domains= X|exclude-directories= I|include-directories= " +
		"c|continue N|timestamping r|recursive m|mirror p|page-requisites k|convert-links q|quiet v|verbose " +
		"nv|no-verbose S|server-response spider! nc|no-clobber delete-after b|background V|version! h|help!"),
	"kubectl": {Opts: "n|namespace= context= cluster= user= kubeconfig= s|server= token= as= as-group= " +
		"l|selector= f|filename= o|output= field-selector= grace-period= timeout= dry-run? A|all-namespaces " +
		"all force R|recursive cascade? k|kustomize= c|container= p|previous i|stdin t|tty wait? " +
		"request-timeout= v= h|help!", HelpAnywhere: true},
	// helm (cobra/pflag): a string option takes the next word even when it
	// starts with a dash (--description --help is a description).
	"helm": {Opts: "n|namespace= kube-context= kubeconfig= f|values= set= set-string= version= o|output= " +
		"timeout= wait dry-run? debug h|help! description= name-template= post-renderer= post-renderer-args= repo= " +
		"username= password= ca-file= cert-file= key-file= keyring= set-file= set-json= set-literal= history-max= " +
		"max-history= deletion-propagation= labels= l|selector= a|api-versions= kube-version= output-dir= " +
		"registry-config= repository-config= repository-cache= kube-apiserver= kube-as-user= kube-as-group= " +
		"kube-ca-file= kube-token= burst-limit= qps=", HelpAnywhere: true},
	// terraform and tofu: Go flags, one dash; -help after the subcommand.
	"terraform": {Opts: "help! h! version! v! chdir= var= var-file= target= replace= state= lock-timeout= " +
		"parallelism= input= lock= auto-approve refresh=", SingleDash: true, HelpAnywhere: true},

	// interpreters (short options only; -c / -e take the code)
	"python": {Opts: "b B d E h i I O q s S u v V x P R c= m= W= X=", Stop: true, Ends: "cm"},
	"ruby":   {Opts: "a c d l n p s S v w y U e= r= I= C= E= F= T? W? x? 0?", Stop: true},

	// disks
	"mkfs": {Opts: "t|type= V|verbose c l= q n= b= L= U= O= E= m= i= I= N= f F h|help! version!"},
}

// Lookup returns the grammar for a program ("rm", "git checkout").
func Lookup(key string) *Spec { return table[key] }

// ParseFor parses args with the grammar of key; programs without a
// grammar are read POSIX-style with GNU permutation (unknown flags, no
// values), which is what Parse does for an empty Spec.
func ParseFor(key string, args []string) Args {
	s := table[key]
	if s == nil {
		s = empty
	}
	return Parse(s, args)
}

var empty = &Spec{}

// Git reads a git command line: git's own options, the subcommand (and a
// sub-subcommand where the table has one: "stash drop", "worktree
// remove") and the subcommand's options.
type Git struct {
	Global Args   // git's own options (-C, -c, --git-dir...)
	Sub    string // "checkout", "worktree remove"; "" when there is none
	Args   Args   // the subcommand's options and operands
	Words  []string
}

// ParseGit reads args (the words after "git").
func ParseGit(args []string) Git {
	g := Git{Global: Parse(table["git"], args)}
	rest := g.Global.Operands
	if len(rest) == 0 {
		return g
	}
	sub := strings.ToLower(rest[0])
	words := rest[1:]
	if len(words) > 0 {
		if _, ok := table["git "+sub+" "+words[0]]; ok {
			sub += " " + words[0]
			words = words[1:]
		}
	}
	g.Sub, g.Words = sub, words
	s := table["git "+sub]
	if s == nil {
		s = gitGeneric
	}
	g.Args = Parse(s, words)
	return g
}

// gitGeneric reads a subcommand without a table entry: parse-options
// rules, every long option unknown.
var gitGeneric = gitSub("")
