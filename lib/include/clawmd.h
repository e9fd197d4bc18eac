/*
 * clawmd.h - the whole public API of libclawmd.
 *
 * libclawmd owns the instruction files of container-based agent hosts: it
 * composes each group's import-only CLAUDE.md (compose), cuts legacy layouts
 * over (migrate), reproduces Claude Code's memory loading (render) and lints
 * the result (check).  The clawmd command is a thin shell over this header.
 *
 * The parts, each its own header under clawmd/, from the bottom up:
 *	base.h     errors, buffers, names
 *	json.h     JSON documents as clawmd prints them
 *	fs.h       the safe filesystem: directory handles, the atomic write
 *	claude.h   Claude Code's own rules: releases, @-imports, text files
 *	runtime.h  the agent runtimes, one row each (CLAWMD_RUNTIME_*, the
 *	           table of doc/runtimes.md) and those clawmd.json adds
 *	layout.h   where everything lives: ROOT, clawmd.json, mounts; the root handle
 *	group.h    one group: the group handle, its container.json, its entry
 *	compose.h  plan, changes, apply; passes over many groups
 *	migrate.h  the one-shot legacy cutover
 *	render.h   each runtime's memory loading (what the agent reads)
 *	lint.h     findings for check, the fleet view for status
 *
 * Calling sequence for the per-spawn job (a root for the host's lifetime,
 * a group handle a spawn):
 *
 *	struct clawmd_err err = CLAWMD_ERR_INIT;
 *	struct clawmd_root root;
 *	struct clawmd_group *g;
 *	struct clawmd_plan plan;
 *	struct clawmd_changes changes;
 *	struct clawmd_compose_opts opts = CLAWMD_COMPOSE_OPTS_INIT;
 *	clawmd_root_init(&root);
 *	if (clawmd_root_load(&root, dir, &err) < 0) ...   // ROOT, clawmd.json
 *	root.pass = clawmd_pass_watch();                   // optional: inotify
 *	if (clawmd_group_open(&g, &root, "main", &err) < 0 ||
 *	    clawmd_compose(&plan, &changes, g, &opts, &err) < 0)
 *		... err.msg names the file, key or path; err.code the cause ...
 *	clawmd_changes_release(&changes);
 *	clawmd_plan_release(&plan);
 *	clawmd_group_free(g);
 *	...
 *	clawmd_root_release(&root);                        // at exit
 *
 * check and status take the same handle (clawmd_lint_group,
 * clawmd_group_status_get), migrate the root (clawmd_migrate).
 *
 * Errors: every action returns 0 or a negative enum clawmd_code and fills the
 * caller's struct clawmd_err, which keeps the *first* error: its code, the
 * saved errno and a message that names the file, key or path.  Predicates
 * return bool.  The library never prints and never exits.  The one exception
 * is memory exhaustion, which aborts (as git's xmalloc does): every caller
 * would have to give up anyway, and the code stays readable.
 *
 * Ownership: structs are caller-allocated, but for the group handle, which
 * clawmd_group_open() allocates and clawmd_group_free() frees.  _init sets one up without
 * allocating, _release frees what it holds, _free frees it and the struct.
 * Passing NULL to _release or _free is a no-op.  Strings handed back are
 * owned by the struct that holds them.
 */
#ifndef CLAWMD_H
#define CLAWMD_H

#include "clawmd/base.h"
#include "clawmd/json.h"
#include "clawmd/fs.h"
#include "clawmd/claude.h"
#include "clawmd/runtime.h"
#include "clawmd/layout.h"
#include "clawmd/group.h"
#include "clawmd/compose.h"
#include "clawmd/migrate.h"
#include "clawmd/render.h"
#include "clawmd/lint.h"
#include "clawmd/exit.h"

#endif
