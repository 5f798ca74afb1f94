package opts

// find has its own grammar (findutils' find(1), POSIX find): leading
// options (-H -L -P -D list -O level), starting points up to the first
// word that starts with "-" or is "(" or "!", then an expression whose
// primaries take a fixed number of arguments (-name PATTERN, -fprintf
// FILE FORMAT) or a command up to ";" or "+" (-exec). A word that is an
// argument is not a primary: in `find . -gid -delete` "-delete" is a
// group name.

// FindPrimary is one primary or operator of a find expression.
type FindPrimary struct {
	Name string   // "-delete", "-exec", "(", "-o"...
	Args []string // its arguments (for -exec: the command, without ; or +)
	// Term is how an -exec/-ok command ended: ";", "+", or "" when the
	// list ran out first (find refuses that expression).
	Term string
}

// Find is a find command line read with find's grammar.
type Find struct {
	Starts []string
	Expr   []FindPrimary
}

// findArgs: primaries and how many arguments follow them; a primary not
// listed takes none (unknown primaries are read as taking none, so a word
// after them is read as a primary: fail closed for -delete).
var findArgs = map[string]int{
	"-name": 1, "-iname": 1, "-path": 1, "-ipath": 1, "-wholename": 1, "-iwholename": 1, "-regex": 1, "-iregex": 1,
	"-lname": 1, "-ilname": 1, "-type": 1, "-xtype": 1, "-user": 1, "-group": 1, "-uid": 1, "-gid": 1, "-perm": 1,
	"-size": 1, "-mtime": 1, "-atime": 1, "-ctime": 1, "-mmin": 1, "-amin": 1, "-cmin": 1, "-newer": 1,
	"-anewer": 1, "-cnewer": 1, "-links": 1, "-inum": 1, "-samefile": 1, "-maxdepth": 1, "-mindepth": 1,
	"-fstype": 1, "-used": 1, "-fprint": 1, "-fprint0": 1, "-fls": 1, "-printf": 1, "-regextype": 1,
	"-context": 1, "-files0-from": 1, "-fprintf": 2, "-Bmin": 1, "-Bnewer": 1, "-Btime": 1, "-flags": 1,
}

// findExec are the primaries whose arguments are a command.
var findExec = map[string]bool{"-exec": true, "-execdir": true, "-ok": true, "-okdir": true}

// ParseFind reads the words after "find".
func ParseFind(args []string) Find {
	var f Find
	i := 0
	for i < len(args) {
		a := args[i]
		switch {
		case a == "-H" || a == "-L" || a == "-P":
			i++
			continue
		case a == "-D" || a == "-O":
			i += 2
			continue
		case len(a) > 2 && (a[:2] == "-D" || a[:2] == "-O"):
			i++
			continue
		}
		break
	}
	for i < len(args) {
		a := args[i]
		if len(a) > 0 && a[0] == '-' || a == "(" || a == "!" {
			break
		}
		f.Starts = append(f.Starts, a)
		i++
	}
	for i < len(args) {
		a := args[i]
		p := FindPrimary{Name: a}
		i++
		switch {
		case findExec[a]:
			for i < len(args) && args[i] != ";" && args[i] != "+" {
				p.Args = append(p.Args, args[i])
				i++
			}
			if i < len(args) {
				p.Term = args[i]
				i++
			}
		default:
			n := findArgs[a]
			if len(a) == 8 && a[:6] == "-newer" { // -newerXY REF
				n = 1
			}
			for k := 0; k < n && i < len(args); k++ {
				p.Args = append(p.Args, args[i])
				i++
			}
		}
		f.Expr = append(f.Expr, p)
	}
	return f
}

// Has reports whether the expression holds the primary (as a primary,
// not as another primary's argument).
func (f *Find) Has(name string) bool {
	for _, p := range f.Expr {
		if p.Name == name {
			return true
		}
	}
	return false
}

// Execs returns the commands of -exec, -execdir, -ok and -okdir.
func (f *Find) Execs() [][]string {
	var out [][]string
	for _, p := range f.Expr {
		if findExec[p.Name] && len(p.Args) > 0 {
			out = append(out, p.Args)
		}
	}
	return out
}

// Writes returns the files -fprint, -fprint0, -fprintf and -fls write.
func (f *Find) Writes() []string {
	var out []string
	for _, p := range f.Expr {
		switch p.Name {
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			if len(p.Args) > 0 {
				out = append(out, p.Args[0])
			}
		}
	}
	return out
}
