/*
 * front.c - what makes a build of clawmd its static front.
 *
 * Why a front: the container runner runs `clawmd compose GROUP` before
 * every spawn, and nearly always nothing changed.  That answer takes a
 * few dozen stats, but a dynamically linked program first pays the
 * dynamic loader (mapping libc, relocating, resolving symbols; ~0.4 ms
 * here, a fifth of a trivial program's whole run).  A static program
 * does not.  Yet clawmd cannot be wholly static: it loads libgit2, cJSON
 * and md4c on first use (lib/sys/dl.h), and a static glibc that dlopen()s
 * the system's shared libraries breaks when libc6 is upgraded.
 *
 * So the installed `clawmd` is the same code linked statically with this
 * file, which replaces lib/sys/dl.c: it has no library loader.  It runs only
 * compose (cmd/clawmd.c), only for one group, and asks the no-op record
 * alone (record_only, cmd/compose.c).  Any other run, and any library
 * needed on the way (an unkept clawmd.json, say), hands over to the full
 * program, dynamically linked, which does the whole job from the start
 * (cmd_handover() in cmd/opt.c).  Nothing was printed or written by then:
 * the front writes nothing, and holds back its only early output, the
 * clawmd.json warnings, until it knows it is answering.
 *
 * This file defines the functions of lib/sys/dl.h, a private header: the
 * front is a link-time substitute for lib/sys/dl.c, and including its
 * header keeps the two type-checked against each other.  It is the one
 * file of cmd/ that includes a private header, and it links only against
 * the private archive (the Makefile): a host's libclawmd.a has its loader
 * built in, with no name left to replace.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "sys/dl.h"
#include "cmd.h"

bool cmd_front = true;

void *clawmd_dl_open(const char *soname, const char *fallback)
{
	cmd_handover();
}

/* Unreachable: no handle is ever returned. */
void *clawmd_dl_sym(void *handle, const char *name)
{
	abort();
}

const char *clawmd_dl_error(void)
{
	return "the static front loads no library";
}
