# Build and install the hangul tools, their man pages and shell completions.
#
#   make install PREFIX=/usr/local     build (release) and install
#   make uninstall PREFIX=/usr/local   remove what install put there
#
# install-files copies from BUILD_DIR without building (the tests use it).

PREFIX ?= /usr/local
BINDIR = $(PREFIX)/bin
MANDIR = $(PREFIX)/share/man
BASHDIR = $(PREFIX)/share/bash-completion/completions
ZSHDIR = $(PREFIX)/share/zsh/site-functions
FISHDIR = $(PREFIX)/share/fish/vendor_completions.d
PROGRAMS = hangul-compose hangul-decompose hangul-reviews hangul-normalize
PAGES1 = $(wildcard man/*.1)
PAGES5 = $(wildcard man/*.5)

.PHONY: all build install install-files uninstall

all: build

build:
	swift build -c release

install: build
	$(MAKE) install-files BUILD_DIR="$$(swift build -c release --show-bin-path)"

install-files:
	@test -n "$(BUILD_DIR)" || { echo "BUILD_DIR is not set" >&2; exit 2; }
	install -d "$(BINDIR)" "$(MANDIR)/man1" "$(MANDIR)/man5" "$(BASHDIR)" "$(ZSHDIR)" "$(FISHDIR)"
	for program in $(PROGRAMS); do \
	  install -m 755 "$(BUILD_DIR)/$$program" "$(BINDIR)/$$program" || exit 1; \
	  "$(BUILD_DIR)/$$program" --generate-completion-script bash > "$(BASHDIR)/$$program" || exit 1; \
	  "$(BUILD_DIR)/$$program" --generate-completion-script zsh > "$(ZSHDIR)/_$$program" || exit 1; \
	  "$(BUILD_DIR)/$$program" --generate-completion-script fish > "$(FISHDIR)/$$program.fish" || exit 1; \
	done
	install -m 644 $(PAGES1) "$(MANDIR)/man1"
	install -m 644 $(PAGES5) "$(MANDIR)/man5"

uninstall:
	for program in $(PROGRAMS); do \
	  rm -f "$(BINDIR)/$$program" "$(BASHDIR)/$$program" "$(ZSHDIR)/_$$program" "$(FISHDIR)/$$program.fish"; \
	done
	for page in $(notdir $(PAGES1)); do rm -f "$(MANDIR)/man1/$$page"; done
	for page in $(notdir $(PAGES5)); do rm -f "$(MANDIR)/man5/$$page"; done
