package hostproto

// ReadClaude exposes the Claude reader to the external parity test, which
// must live outside the package: it imports app/judge, whose rules import
// app/install, which imports this package.
var ReadClaude = readClaude

// JSONEqual exposes the golden tests' JSON comparison to the parity test.
var JSONEqual = jsonEqual
