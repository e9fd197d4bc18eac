/*
 * inputs.h - the recorder: what a compose read, as it read it (private).
 *
 * A compiler that writes a dependency file lists every header it opened,
 * not the headers someone thinks it should have opened.  clawmd does the
 * same: every listing, stat and read the plan and the comparison make is
 * noted here at the moment it is made, as one typed fact:
 *
 *	what	the content of a file or a directory (its identity: device,
 *		inode, mode, size, mtime, ctime), only the kind of thing
 *		there (a file, a directory, a symlink, nothing), or the names
 *		in a directory that match a pattern (their digest);
 *	where	a path relative to the group directory (nothing the agent
 *		planted is followed) or an absolute path on the host;
 *	when	the time the look began, for the racy window (fs/stamp.h).
 *
 * The no-op record (compose/record.c) saves exactly these facts and checks
 * exactly these facts; it knows nothing of what they are for.  A new input
 * of the plan is a new note at its read, and nothing else.
 *
 *	clawmd_inputs_start(&g->inputs);                  // a compose begins
 *	fd = ... open, fstat(fd, &st), read ...
 *	clawmd_inputs_note(&g->inputs, CLAWMD_INPUT_CONTENT, CLAWMD_AT_GROUP, "x.md", &st);
 *	...
 *	if (!g->inputs.lost) ... save g->inputs.v[0, n) ...
 *
 * Something read that no stat can vouch for makes the whole recording
 * lost (clawmd_inputs_lose): no record is made, the next compose is full.
 * A NULL recorder notes nothing.
 */
#ifndef CLAWMD_FS_INPUTS_H
#define CLAWMD_FS_INPUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>

#include "fs/stamp.h"

enum clawmd_input_kind {
	CLAWMD_INPUT_CONTENT = 1, /* what was read: the identity (a directory's: its entries) */
	CLAWMD_INPUT_TYPE,	  /* only the kind of thing there; mode 0: nothing */
	CLAWMD_INPUT_NAMES,	  /* names matching the path's last component, a
				     "*SUFFIX" pattern: ino the digest, size the count */
};

enum clawmd_input_at {
	CLAWMD_AT_GROUP = 1,	/* relative to the group directory; no symlink followed */
	CLAWMD_AT_HOST,		/* an absolute host path, symlinks followed */
	CLAWMD_AT_HOST_NOFOLLOW, /* likewise, its last component not followed */
};

struct clawmd_input {
	uint8_t kind, at;
	/* A host path below a directory looked at once for all its facts
	 * (a source directory): path[0, base) is that directory, looked up
	 * as a stat would, and the rest is looked up from it; 0: the whole
	 * path at once.  Both find the same object; from the directory, a
	 * path walk of two components instead of the whole path, for the
	 * fifty skills of a group. */
	uint16_t base;
	uint32_t seq; /* the order of the looks (not recorded) */
	char *path;
	struct clawmd_ident id;
};

struct clawmd_inputs {
	struct clawmd_input *v;
	size_t n, cap;
	struct timespec since; /* when the earliest look noted began */
	bool on;	       /* between start and release */
	bool lost;	       /* something no stat can vouch for was read */
};

void clawmd_inputs_init(struct clawmd_inputs *in);
void clawmd_inputs_release(struct clawmd_inputs *in);
/* Forget every fact; the looks that follow begin now. */
void clawmd_inputs_start(struct clawmd_inputs *in);
/* No record can rest on this recording. */
void clawmd_inputs_lose(struct clawmd_inputs *in);

/* The identity a stat gives (NULL: nothing there). */
void clawmd_ident_of(struct clawmd_ident *out, const struct stat *st);

/* Note what a look at `path` found: `st` from the fstat of what was read
 * (CONTENT) or the stat that was made (TYPE); NULL when nothing was there. */
void clawmd_inputs_note(struct clawmd_inputs *in, enum clawmd_input_kind kind,
			enum clawmd_input_at at, const char *path, const struct stat *st);
/* The same for the host path `dir`/`rel` (a source directory and a path in
 * it; see struct clawmd_input's base). */
void clawmd_inputs_note_in(struct clawmd_inputs *in, enum clawmd_input_kind kind,
			   enum clawmd_input_at at, const char *dir, const char *rel,
			   const struct stat *st);
/* Note a fact looked at earlier (a pass's memory, a handle's cache), with
 * the time its look began. */
void clawmd_inputs_add(struct clawmd_inputs *in, const struct clawmd_input *f,
		       struct timespec since);

/* The names in directory `dir` (an open fd, at `dir_path`) that end in
 * `suffix`, as one listing sees them, and that listing noted as a NAMES
 * fact.  Unsorted; -1 with errno when it cannot be listed. */
int clawmd_inputs_list(char ***names, size_t *n, struct clawmd_inputs *in, int dir,
		       enum clawmd_input_at at, const char *dir_path, const char *suffix);

/* The facts in one order, each once: a path looked at twice must have
 * been found the same (else the recording is lost); content outweighs a
 * type.  Then false when the recording cannot be saved: lost, or a
 * content fact that may have changed after its look without its identity
 * showing it (fs/stamp.h). */
bool clawmd_inputs_settle(struct clawmd_inputs *in);

/* ---- looking again: the check of a record ------------------------------- */

/* Where facts are looked up: the group directory, and the host
 * directories facts have as their base, each opened once. */
#define CLAWMD_INPUT_HOST_DIRS 4
struct clawmd_input_dirs {
	int group;
	struct {
		char *path;
		size_t len; /* strlen(path): compared for each fact */
		int fd; /* -1: nothing there (or not a directory), -2: cannot tell */
	} host[CLAWMD_INPUT_HOST_DIRS];
	size_t nhost;
	bool by_path; /* host paths whole: a pass looks at each once anyway */
};

void clawmd_input_dirs_init(struct clawmd_input_dirs *d, int group_fd);
void clawmd_input_dirs_release(struct clawmd_input_dirs *d);

/* Look at fact `f` now: its identity as `f` would have recorded it.  -1:
 * cannot tell. */
int clawmd_input_look(struct clawmd_ident *now, const struct clawmd_input *f,
		      struct clawmd_input_dirs *d);
/* Whether what a look found now is what `f` recorded. */
bool clawmd_input_same(const struct clawmd_input *f, const struct clawmd_ident *now);

#endif
