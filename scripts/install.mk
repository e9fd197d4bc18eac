# install.mk - `make install` and `make uninstall`, included by the Makefile.
#
#   make install PREFIX=/usr/local DESTDIR=
#
# Installs the command (the static front as BINDIR/clawmd, and the full
# program it hands over to as BINDIR/../libexec/clawmd/clawmd, where the
# front looks for it: cmd/front.c), the static library and its public header, clawmd.pc,
# the man pages, the README, the doc/ pages and LICENSE, and the bash, zsh
# and fish completions.  Every directory can be overridden (BINDIR, LIBDIR, INCLUDEDIR,
# MANDIR, PKGCONFIGDIR, BASHCOMPDIR, ZSHCOMPDIR, FISHCOMPDIR, DOCDIR).  DESTDIR
# is prepended to every path and never recorded in clawmd.pc, as packagers
# expect.
#
# Nothing here is decided at build time: the programs hold no installation
# path (the front finds the full program relative to itself, and the SARIF
# log carries its rules' help), and clawmd.pc is written straight into the
# destination with the PREFIX of this install.  So `make && make install
# PREFIX=...` installs what that PREFIX needs, and an install writes nothing
# into the build directory the tests run from.

PREFIX       ?= /usr/local
BINDIR       ?= $(PREFIX)/bin
LIBDIR       ?= $(PREFIX)/lib
INCLUDEDIR   ?= $(PREFIX)/include
MANDIR       ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
BASHCOMPDIR  ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR   ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR  ?= $(PREFIX)/share/fish/vendor_completions.d
DOCDIR       ?= $(PREFIX)/share/doc/clawmd
INSTALL      ?= install
# Not a setting: the front finds the full program relative to itself.
FULLDIR      := $(abspath $(BINDIR)/../libexec/clawmd)

MAN_PAGES    := $(sort $(wildcard doc/man/*.1))
DOC_PAGES    := $(sort $(wildcard doc/*.md))
VERSION      := $(shell sed -n 's/^\#define CLAWMD_VERSION "\(.*\)"/\1/p' lib/include/clawmd/base.h)
API_HEADERS  := $(sort $(wildcard lib/include/clawmd/*.h))
# Only a static library is built, so its dependencies go in Libs: a plain
# `pkg-config --libs clawmd` links.  libgit2, cJSON and md4c are dlopen()ed
# on first use (lib/sys/git.c, lib/sys/dlload.c), never linked.
PC_LIBS      := $(shell pkg-config --libs yaml-0.1) -ldl

install: all
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(FULLDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR)/clawmd \
		$(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR) \
		$(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR) $(DESTDIR)$(DOCDIR)
	$(INSTALL) -m 755 $(FULL) $(DESTDIR)$(FULLDIR)/clawmd
	$(INSTALL) -m 755 $(FRONT) $(DESTDIR)$(BINDIR)/clawmd
	$(INSTALL) -m 644 $(BUILD)/libclawmd.a $(DESTDIR)$(LIBDIR)/libclawmd.a
	$(INSTALL) -m 644 lib/include/clawmd.h $(DESTDIR)$(INCLUDEDIR)/clawmd.h
	$(INSTALL) -m 644 $(API_HEADERS) $(DESTDIR)$(INCLUDEDIR)/clawmd/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' -e 's|@VERSION@|$(VERSION)|g' \
	    -e 's|@PC_LIBS@|$(PC_LIBS)|g' scripts/clawmd.pc.in >$(DESTDIR)$(PKGCONFIGDIR)/clawmd.pc
	chmod 644 $(DESTDIR)$(PKGCONFIGDIR)/clawmd.pc
	$(INSTALL) -m 644 $(MAN_PAGES) $(DESTDIR)$(MANDIR)/man1/
	$(INSTALL) -m 644 contrib/clawmd.bash-completion $(DESTDIR)$(BASHCOMPDIR)/clawmd
	$(INSTALL) -m 644 contrib/_clawmd $(DESTDIR)$(ZSHCOMPDIR)/_clawmd
	$(INSTALL) -m 644 contrib/clawmd.fish $(DESTDIR)$(FISHCOMPDIR)/clawmd.fish
	$(INSTALL) -m 644 README.md LICENSE $(DOC_PAGES) $(DESTDIR)$(DOCDIR)/
	@# Two installs side by side (this one and the Debian package, say):
	@# the one first on PATH runs, silently.  Say so, once.
	@if [ -z "$(DESTDIR)" ]; then for c in $$(which -a clawmd 2>/dev/null); do \
		[ "$$c" -ef "$(BINDIR)/clawmd" ] || echo "make install: note: another clawmd is installed at $$c;" \
			"the one first on PATH runs ('make uninstall PREFIX=...' or 'apt remove clawmd' removes one)" >&2; \
	done; fi

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/clawmd $(DESTDIR)$(FULLDIR)/clawmd $(DESTDIR)$(LIBDIR)/libclawmd.a \
		$(DESTDIR)$(INCLUDEDIR)/clawmd.h $(DESTDIR)$(PKGCONFIGDIR)/clawmd.pc \
		$(addprefix $(DESTDIR)$(INCLUDEDIR)/clawmd/,$(notdir $(API_HEADERS))) \
		$(DESTDIR)$(BASHCOMPDIR)/clawmd $(DESTDIR)$(ZSHCOMPDIR)/_clawmd \
		$(DESTDIR)$(FISHCOMPDIR)/clawmd.fish $(DESTDIR)$(DOCDIR)/README.md \
		$(DESTDIR)$(DOCDIR)/LICENSE $(addprefix $(DESTDIR)$(DOCDIR)/,$(notdir $(DOC_PAGES))) \
		$(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN_PAGES)))
	@# The directories that are clawmd's own (named clawmd) go too, when
	@# empty; the shared ones (bin, lib, share/man, ...) stay.
	@for d in $(DESTDIR)$(FULLDIR) $(DESTDIR)$(INCLUDEDIR)/clawmd $(DESTDIR)$(DOCDIR); do \
		case $${d##*/} in clawmd) ! [ -d "$$d" ] || rmdir "$$d" 2>/dev/null || \
			echo "make uninstall: $$d is not empty: left in place" >&2 ;; esac; \
	done

.PHONY: install uninstall
