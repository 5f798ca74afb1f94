package cache_test

import (
	"github.com/agent-guard/agent-guard/app/judge"
	"github.com/agent-guard/agent-guard/app/judge/cache"
)

// The judge uses *Cache through its Cache interface.
var _ judge.Cache = (*cache.Cache)(nil)
