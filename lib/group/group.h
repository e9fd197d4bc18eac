/*
 * group.h - the group handle (struct clawmd_group, opaque in the public
 * API): one group of one root, its name checked once, here.
 *
 * Every per-group step (the record, the plan, the comparison, the apply,
 * the lint, status, render --group, migrate) takes the handle and asks it
 * for what it needs:
 *
 *	clawmd_group_open(&g, root, "main", &err);       // the name, checked
 *	clawmd_group_dir(&gd, g, &err);          // opened on first use, once
 *	clawmd_group_config(&cfg, g, &err);      // read and parsed once
 *	clawmd_group_lock(g, &err);              // held until clawmd_group_free()
 *
 * The directory is opened without following a symlink, the first time a
 * step needs it, and every later step works on that same directory
 * whatever is renamed onto its path meanwhile.  It is opened lazily so
 * that a watched pass can answer a no-op compose with no system call on
 * the group at all (compose/record.c).
 */
#ifndef CLAWMD_GROUP_GROUP_H
#define CLAWMD_GROUP_GROUP_H

#include "clawmd.h"
#include "fs/fs.h"
#include "fs/inputs.h"

#include <sys/types.h>

/* Where a group's container.json stands (clawmd_group_config()). */
enum clawmd_config_state {
	CONFIG_UNREAD,	    /* not read yet: the first ask reads the file */
	CONFIG_GIVEN_KNOWN, /* the host gave bytes that parsed before: parsed when first asked for */
	CONFIG_DONE,	    /* read or parsed: config_rc says how it went */
};

struct cJSON;

struct clawmd_group {
	const struct clawmd_layout *lay;
	struct clawmd_pass *pass; /* the root's: NULL, a pass or a watched pass */
	char *name;
	char *path;		/* lay->groups/<name>, absolute */
	char *shown;		/* the path as messages show it */
	struct clawmd_dir dir;	/* fd -1 until clawmd_group_dir() */
	int lock;		/* -1 unless held */
	char *lockpath;		/* STATE/locks/<name>, once a lock was asked for */
	/* container.json as read once (or as the host gave it) */
	enum clawmd_config_state config_state;
	int config_rc;		/* CONFIG_DONE: 0, or the error its read or parse gave */
	bool config_given;	/* the host's, not the file's */
	uint64_t config_digest;	/* of the text the host gave: keys the no-op record */
	bool config_absent;	/* no container.json: all defaults */
	struct clawmd_buf config_text;
	/* config_text as clawmd_group_config() parsed it; NULL before, or
	 * when the text is no JSON value the reader takes.  Dropped with the
	 * text it was parsed from. */
	struct cJSON *config_doc;
	struct clawmd_group_config config;
	/* The error config_rc stands for, kept for whoever asks again: NULL
	 * until there is one.  Apart, since its message is a kilobyte and a
	 * group (opened at every spawn) is then past malloc's per-thread
	 * cache of small blocks, a third of a no-op's allocating. */
	struct clawmd_err *config_err;
	/* A config read again (clawmd_group_refresh) leaves the old one here
	 * until the next such read or the handle is freed: what a caller took
	 * from it stays valid meanwhile. */
	struct clawmd_group_config config_retired;
	struct clawmd_input config_seen; /* container.json as its read found it */
	struct timespec config_since;	 /* when that read began */
	/* What the compose under way read (on only while one runs). */
	struct clawmd_inputs inputs;
};

/* clawmd_config_parse(), keeping in *keep the JSON value the text held
 * (NULL when it held none), also when the config is refused: what reads
 * the same text as nanoclaw reads its row (compose/flat.c) takes that
 * rather than parse the text again.  cJSON_Delete() frees it. */
int clawmd_config_parse_doc(struct clawmd_group_config *out, const char *json, size_t len,
			    const char *path, struct clawmd_err *err, struct cJSON **keep);

/* The JSON value of container.json's text as nanoclaw's runner reads it
 * (JSON.parse: the last of a key given twice, any depth, "\u0000"; see
 * config.c), or NULL when it holds none (*end: where cJSON stopped).  The
 * one parse of container.json: the reader's and the flat document's.
 * *dup: the dotted path of the first key given twice, or NULL (caller
 * frees).  cJSON must be loaded (clawmd_dl_need_cjson()). */
struct cJSON *clawmd_config_json(const char *json, size_t len, const char **end, char **dup);

/* container.json as messages name it: the group's file, or (given) the
 * text the host gave in its place, "<file> (given by the host)", as its
 * parse errors say.  Warnings name the file either way: a compose's
 * warnings are the same whether the host gave the bytes or the file held
 * them (record_property).  Caller frees. */
char *clawmd_group_config_shown(const struct clawmd_group *g, bool given);

/* The group's directory, opened on first use: EFS for a missing one, a
 * symlink or anything but a directory. */
int clawmd_group_dir(const struct clawmd_dir **out, struct clawmd_group *g,
		     struct clawmd_err *err);

/* The lock without waiting and without creating its file: 0 when taken,
 * 1 when the file is missing or another process holds it. */
int clawmd_group_trylock(struct clawmd_group *g);

/* Let go of the lock (compose drops it as soon as it is done). */
void clawmd_group_unlock(struct clawmd_group *g);

/*
 * The lock file holds what clawmd keeps about the group, in two regions
 * at fixed places, each written in place by one pwrite, without
 * truncating the file:
 *
 *	[0, CLAWMD_LOCK_OWNERS)      which flat entries clawmd wrote
 *	                             (compose/flat.c), always written whole
 *	[CLAWMD_LOCK_RECORD_AT, ..)  the no-op record (compose/record.c),
 *	                             its own length inside it
 *
 * Neither is ever written past its bounds, so a write of one that a crash
 * tears cannot tear the other, and each checks its own bytes.  A group
 * that never had a flat document has a hole (zeros) where the first
 * region would be.  The file exists once the group was composed: keeping
 * these here makes no inode of their own.
 */
#define CLAWMD_LOCK_OWNERS 4096
#define CLAWMD_LOCK_RECORD_AT CLAWMD_LOCK_OWNERS

/* STATE/locks/<name>, whether or not it exists (freed by the caller). */
char *clawmd_group_lock_path(const struct clawmd_group *g);

/* Write `len` bytes at `at` into the lock file the group holds (its lock
 * is opened read-only: no-op composes open nothing for writing); -1 when
 * the lock is not held or the file at its path is another one now. */
int clawmd_group_lock_write(const struct clawmd_group *g, const void *data, size_t len, off_t at);

/* A compose plans from the inputs as they are when it begins: container.json
 * read earlier through the handle is read again when it changed since, or
 * changed too soon after that read to tell. */
void clawmd_group_refresh(struct clawmd_group *g);

#endif
