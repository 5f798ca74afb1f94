# Small front door; the real work is in scripts/.
.PHONY: build test dist

# bin/ holds the tray, the hook and its fallback judge side by side, the
# layout install expects.
build:
	CGO_ENABLED=0 go build -o bin/agent-guard-hook ./cmd/agent-guard-hook
	CGO_ENABLED=0 go build -o bin/agent-guard-judge ./cmd/agent-guard-judge
	go build -tags migrated_fynedo -o bin/agent-guard ./cmd/agent-guard

test:
	scripts/test.sh

dist:
	scripts/dist.sh
