# tribunal — build, package, install and test.
#
#   make            build the binaries and assemble the plugin in dist/marketplace/tribunal
#   make install    the above, then install it into Claude Code through a local marketplace
#   make test       what a contributor runs before committing: gofmt, vet, go test ./...
#   make check      every tier, as CI runs it (see "Run the tests" in README.md)
#   make fmt        gofmt every Go directory that vet and lint check
#   make staticcheck  staticcheck (pinned in scripts/test.sh); make check runs it
#   make release    cross-build linux/darwin × amd64/arm64 into dist/release/tribunal
#   make bench      the benchmarks: hooks, task start, review (scripts/bench-*.sh)

GO       ?= go
CLAUDE   ?= claude
# The version is the plugin manifest's, the one source of truth (a test in
# internal/version keeps the Go default and the marketplace entry equal to it).
VERSION  := $(shell sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' plugin/.claude-plugin/plugin.json)
LDFLAGS  := -s -w -X github.com/tribunal-cc/tribunal/internal/version.Version=$(VERSION)
BINARIES := stop-gate session-start prompt-submit tribunal-session tribunal-schema tribunal-mcp tribunal-otel
PLATFORMS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64

MARKET   := dist/marketplace
PLUGIN   := $(MARKET)/tribunal
RELEASE  := dist/release/tribunal

export CGO_ENABLED = 0

.PHONY: all build plugin install uninstall test check release bench clean fmt vet staticcheck \
	test-race test-load test-fuzz test-e2e test-browser test-calibration test-stress test-otel test-bench

all: plugin

build:
	@mkdir -p build/bin
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o build/bin/ $(addprefix ./cmd/,$(BINARIES))

# plugin-files assembles everything but the binaries into $(1).
define plugin-files
	rm -rf $(1)
	mkdir -p $(1)/.claude-plugin $(1)/hooks $(1)/bin $(1)/agents $(1)/skills $(1)/commands
	cp plugin/.claude-plugin/plugin.json plugin/.claude-plugin/icon.png $(1)/.claude-plugin/
	cp hooks/hooks.json $(1)/hooks/hooks.json
	cp agents/*.md $(1)/agents/
	cp -R plugin/skills/. $(1)/skills/
	cp -R plugin/commands/. $(1)/commands/
	cp config.json README.md LICENSE $(1)/
endef

plugin: build
	$(call plugin-files,$(PLUGIN))
	cp $(addprefix build/bin/,$(BINARIES)) $(PLUGIN)/bin/
	mkdir -p $(MARKET)/.claude-plugin
	cp plugin/marketplace.json $(MARKET)/.claude-plugin/marketplace.json
	@echo "plugin assembled in $(PLUGIN)"

install: plugin
	@./scripts/install.sh "$(CLAUDE)" "$(MARKET)"

uninstall:
	@./scripts/install.sh --uninstall "$(CLAUDE)"

release:
	$(call plugin-files,$(RELEASE))
	for p in $(PLATFORMS); do \
		os=$${p%/*}; arch=$${p#*/}; \
		for b in $(BINARIES); do \
			GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -ldflags '$(LDFLAGS)' \
				-o $(RELEASE)/bin/$$os-$$arch/$$b ./cmd/$$b || exit 1; \
		done; \
	done
	for b in $(BINARIES); do cp plugin/launcher.sh $(RELEASE)/bin/$$b; chmod +x $(RELEASE)/bin/$$b; done
	mkdir -p dist/release/.claude-plugin
	cp plugin/marketplace.json dist/release/.claude-plugin/marketplace.json
	tar -C dist/release -czf dist/tribunal-$(VERSION).tar.gz .claude-plugin tribunal
	@echo "release in dist/tribunal-$(VERSION).tar.gz"

# The tiers of the suite (scripts/test.sh; durations in README.md). The
# race detector needs cgo, which the static builds above switch off; the
# script switches it back on for the tiers that use it.
test:
	./scripts/test.sh test

check:
	./scripts/test.sh check

test-race test-load test-fuzz test-e2e test-browser test-calibration test-stress test-otel test-bench:
	./scripts/test.sh $(@:test-%=%)

bench: build
	./scripts/bench-stop-gate.sh
	./scripts/bench-session-start.sh
	./scripts/bench-stop-judge.sh
	./scripts/bench-task-start.sh
	./scripts/bench-review.sh
	./scripts/bench-judge-cases.sh
	./scripts/bench-start.sh
	TRIBUNAL_TIMING=1 $(GO) test -count=1 -run TestIterationCriticalPath -v ./internal/session

fmt:
	./scripts/test.sh fmt

staticcheck:
	./scripts/test.sh staticcheck

vet:
	$(GO) vet ./...

clean:
	rm -rf build dist
