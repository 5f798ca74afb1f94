package peer

import (
	"encoding/binary"
	"errors"
)

// parseProcArgs splits KERN_PROCARGS2: argc (int32), the exec path, NUL
// padding, argc arguments, then the environment, all NUL-terminated.
func parseProcArgs(b []byte) (exe string, args, env []string, err error) {
	if len(b) < 4 {
		return "", nil, nil, errors.New("kern.procargs2: short answer")
	}
	argc := int(binary.LittleEndian.Uint32(b))
	b = b[4:]
	next := func() (string, bool) {
		for i, c := range b {
			if c == 0 {
				s := string(b[:i])
				b = b[i+1:]
				return s, true
			}
		}
		return "", false
	}
	exe, ok := next()
	if !ok {
		return "", nil, nil, errors.New("kern.procargs2: no exec path")
	}
	for len(b) > 0 && b[0] == 0 {
		b = b[1:]
	}
	for i := 0; i < argc; i++ {
		a, ok := next()
		if !ok {
			return "", nil, nil, errors.New("kern.procargs2: arguments cut off")
		}
		args = append(args, a)
	}
	for {
		e, ok := next()
		if !ok || e == "" {
			break
		}
		env = append(env, e)
	}
	if len(args) > 0 {
		args = args[1:] // argv[0]
	}
	return exe, args, env, nil
}
