package config

import "runtime"

var isDarwin = runtime.GOOS == "darwin"
