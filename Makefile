# Build and install the hangul tools, their man pages and shell completions.
#
#   make install PREFIX=/usr/local     build (release) and install
#   make install DESTDIR=/tmp/stage    install under a staging root (for packages)
#   make uninstall PREFIX=/usr/local   remove what install put there
#
# The programs are built with the Swift runtime linked in statically
# (--static-swift-stdlib), so the installed programs need only the C library
# and ICU, not the Swift toolchain they were built with.
# install-files copies from BUILD_DIR without building (the tests use it).

PREFIX ?= /usr/local
DESTDIR ?=
SWIFT_BUILD = swift build -c release --static-swift-stdlib --scratch-path .build-release
BINDIR = $(DESTDIR)$(PREFIX)/bin
MANDIR = $(DESTDIR)$(PREFIX)/share/man
BASHDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
PROGRAMS = hangul-compose hangul-decompose hangul-reviews hangul-normalize hangul-wrongmode
PAGES1 = $(wildcard man/*.1)
PAGES5 = $(wildcard man/*.5)

.PHONY: all build install install-files uninstall completions

all: build

build:
	$(SWIFT_BUILD)

# Remake completions/ from the programs' options (the tests check it is current).
completions:
	swift build
	python3 tools/completions.py "$$(swift build --show-bin-path)"

install: build
	$(MAKE) install-files BUILD_DIR="$$($(SWIFT_BUILD) --show-bin-path)"

install-files:
	@test -n "$(BUILD_DIR)" || { echo "BUILD_DIR is not set" >&2; exit 2; }
	install -d "$(BINDIR)" "$(MANDIR)/man1" "$(MANDIR)/man5" "$(BASHDIR)" "$(ZSHDIR)" "$(FISHDIR)"
	for program in $(PROGRAMS); do \
	  install -m 755 "$(BUILD_DIR)/$$program" "$(BINDIR)/$$program" || exit 1; \
	  install -m 644 "completions/bash/$$program" "$(BASHDIR)/$$program" || exit 1; \
	  install -m 644 "completions/zsh/_$$program" "$(ZSHDIR)/_$$program" || exit 1; \
	  install -m 644 "completions/fish/$$program.fish" "$(FISHDIR)/$$program.fish" || exit 1; \
	done
	install -m 644 $(PAGES1) "$(MANDIR)/man1"
	install -m 644 $(PAGES5) "$(MANDIR)/man5"

uninstall:
	for program in $(PROGRAMS); do \
	  rm -f "$(BINDIR)/$$program" "$(BASHDIR)/$$program" "$(ZSHDIR)/_$$program" "$(FISHDIR)/$$program.fish"; \
	done
	for page in $(notdir $(PAGES1)); do rm -f "$(MANDIR)/man1/$$page"; done
	for page in $(notdir $(PAGES5)); do rm -f "$(MANDIR)/man5/$$page"; done
