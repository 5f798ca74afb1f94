# Small front door; the real work is in scripts/.
.PHONY: build test dist

# bin/ holds the tray and the hook side by side, the layout install expects.
build:
	CGO_ENABLED=0 go build -o bin/agent-guard-hook ./cmd/agent-guard-hook
	go build -tags migrated_fynedo -o bin/agent-guard ./cmd/agent-guard

test:
	scripts/test.sh

dist:
	scripts/dist.sh
