/* record.c - the record of a group's last verified compose (see record.h).
 *
 * It holds what the compose read, as the recorder noted it (fs/inputs.h),
 * and nothing else: it knows what a fact is (a kind, a place, an
 * identity), never what a fact is for.  It lies in the group's lock file
 * from CLAWMD_LOCK_RECORD_AT on, after the flat document's ownership
 * region (group/group.h: neither is written into the other).
 */
#include "compose/record.h"
#include "compose/pass.h"
#include "group/group.h"
#include "fs/inputs.h"
#include "fs/stamp.h"
#include "base/util.h"
#include "compose/watch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * The record, in the host's byte order (it never leaves the host), is
 *	magic[8]  RECORD_HEAD
 *	nwarnings x RECORD_WARNING
 *	nfacts x RECORD_FACT
 *	checksum:u64 of everything before it (clawmd_hash64)
 * where each RECORD_ table below lists its fields in the order they lie.
 * The writer (clawmd_record_save) and the reader (record_head,
 * record_warnings, record_fact) both walk these tables, so the format is
 * written here and nowhere else.  A field is (an lvalue, whether it is
 * there): its size is its type's.
 *
 * Binary because reading it is most of what a no-op does: parsing the
 * same in text took more instructions than the rest of the process.  It
 * is rewritten in place without truncating the lock file (no-op composes
 * make no mutating system call on their way); `length` says where it ends.
 * Paths end in a NUL so that a check can use them where they lie: a no-op
 * copies nothing onto its stack (every page of stack a process touches is
 * a page fault, and a no-op is mostly process start).
 */
#define RECORD_MAGIC "clawmd\x07\n"
#define RECORD_MAX (4 * 1024 * 1024)

struct record_head {
	uint32_t length; /* of the whole record, its checksum included */
	uint32_t ndefused;
	uint64_t digest; /* record_digest(): the layout, the version, a given config */
	uint32_t nwarnings, nfacts;
};

#define RECORD_HEAD(X, h)                                                                          \
	X((h).length, true)                                                                        \
	X((h).ndefused, true)                                                                      \
	X((h).digest, true)                                                                        \
	X((h).nwarnings, true)                                                                     \
	X((h).nfacts, true)

/* A warning: its length, then its bytes (no NUL). */
#define RECORD_WARNING(X, len) X(len, true)

/* A fact (struct clawmd_input *f, its path `pathlen` bytes long): its
 * identity is a type fact's mode alone (most facts of a group with many
 * skills are types: each byte less is a byte less to checksum), then its
 * path and a NUL. */
#define RECORD_FACT(X, f, pathlen)                                                                 \
	X((f)->kind, true)                                                                         \
	X((f)->at, true)                                                                           \
	X(pathlen, true)                                                                           \
	X((f)->base, true)                                                                         \
	X((f)->id.mode, (f)->kind == CLAWMD_INPUT_TYPE)                                            \
	X((f)->id, (f)->kind != CLAWMD_INPUT_TYPE)

/* The bytes of the header, for the bound every record passes. */
#define FIELD_SIZE(lv, there) +sizeof(lv)
#define HEAD_SIZE (0 RECORD_HEAD(FIELD_SIZE, *(struct record_head *)0))

static int read_record(struct clawmd_buf *out, int fd)
{
	clawmd_buf_clear(out);
	for (;;) {
		clawmd_buf_grow(out, 16384);
		ssize_t n = pread(fd, out->ptr + out->len, out->cap - out->len - 1,
				  (off_t)(CLAWMD_LOCK_RECORD_AT + out->len));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		size_t asked = out->cap - out->len - 1;
		out->len += (size_t)n;
		out->ptr[out->len] = '\0';
		if (out->len > RECORD_MAX)
			return -1;
		if ((size_t)n < asked) /* a regular file: a short read is its end */
			break;
	}
	return 0;
}

/* A bounds-checked reader over the record. */
struct cursor {
	const char *p, *end;
	bool bad;
};

static const void *take(struct cursor *c, size_t n)
{
	if (c->bad || (size_t)(c->end - c->p) < n) {
		c->bad = true;
		return NULL;
	}
	const void *at = c->p;
	c->p += n;
	return at;
}

#define TAKE(c, var) (take((c), sizeof(var)) ? memcpy(&(var), (c)->p - sizeof(var), sizeof(var)) : NULL)

/* Look at fact `f` now.  Within a plain pass, a host path is looked at
 * once for all its groups; the key ('0' + at, '0' + kind, path) is built
 * on the heap: a no-op touches as little stack as it can. */
static int look(struct clawmd_ident *now, const struct clawmd_input *f, struct clawmd_pass *pass,
		struct clawmd_input_dirs *dirs, struct clawmd_buf *key)
{
	if (!pass || pass->watched || f->at == CLAWMD_AT_GROUP)
		return clawmd_input_look(now, f, dirs);
	char head[2] = {(char)('0' + f->at), (char)('0' + f->kind)};
	clawmd_buf_clear(key);
	clawmd_buf_put(key, head, 2);
	clawmd_buf_puts(key, f->path);
	struct clawmd_pass_memo *m = clawmd_pass_slot(pass->v, pass->cap, key->ptr, key->len);
	if (m->key) {
		*now = m->id;
		return m->rc;
	}
	int rc = clawmd_input_look(now, f, dirs);
	if (rc == 0)
		clawmd_pass_put(pass, key->ptr, key->len, rc, now);
	return rc;
}

/* Everything the plan depends on besides the files: a record made under
 * another layout or by another version proves nothing. */
static uint64_t layout_digest(const struct clawmd_layout *lay)
{
	return clawmd_layout_digest(lay) ^ clawmd_fnv1a64(CLAWMD_VERSION, sizeof(CLAWMD_VERSION));
}

/* A config the host gave is no file with an identity: the record is then
 * keyed by its text too, so one made for another config proves nothing. */
static uint64_t record_digest(const struct clawmd_group *g)
{
	uint64_t d = layout_digest(g->lay);
	if (g->config_given) /* digested once, when the host gave it */
		d ^= 0x9e3779b97f4a7c15ULL * (g->config_digest | 1);
	return d;
}

bool clawmd_record_known(struct clawmd_plan *plan, const struct clawmd_group *g)
{
	struct clawmd_pass *pass = g->pass;
	return pass && pass->watch &&
	       clawmd_watch_hit(pass->watch, plan, record_digest(g), g->name);
}

/* ---- is the record still true? ------------------------------------------ */

#define GET(lv, there)                                                                             \
	if (there)                                                                                 \
		TAKE(c, lv);

/* The record's header; false when it is no record of this layout. */
static bool record_head(struct cursor *c, struct record_head *h, const struct clawmd_buf *rec,
			const struct clawmd_group *g)
{
	uint32_t len = 0;
	uint64_t sum = 0;
	if (rec->len < 8 + sizeof(h->length) + 8 || memcmp(rec->ptr, RECORD_MAGIC, 8))
		return false;
	memcpy(&len, rec->ptr + 8, sizeof(h->length)); /* the head's first field */
	if (len > rec->len || len < 8 + HEAD_SIZE + 8)
		return false;
	/* The checksum first: a torn or half-rewritten record is no record. */
	memcpy(&sum, rec->ptr + len - 8, 8);
	if (sum != clawmd_hash64(rec->ptr, len - 8))
		return false;
	*c = (struct cursor){rec->ptr + 8, rec->ptr + len - 8, false};
	RECORD_HEAD(GET, *h)
	return !c->bad && h->digest == record_digest(g) && h->nwarnings <= 4096;
}

static char **record_warnings(struct cursor *c, uint32_t n)
{
	char **warnings = clawmd_xcalloc(n + 1, sizeof(*warnings));
	for (uint32_t i = 0; i < n; i++) {
		uint32_t wl = 0;
		RECORD_WARNING(GET, wl)
		const char *w = take(c, wl);
		if (!w) {
			clawmd_strv_free(warnings, i);
			return NULL;
		}
		warnings[i] = clawmd_xstrndup(w, wl);
	}
	return warnings;
}

/* The next fact of the record, its path where it lies (read only: the
 * record is checked, not kept); false at a torn one. */
static bool record_fact(struct cursor *c, struct clawmd_input *f)
{
	uint16_t pl = 0;
	const char *pp;
	f->kind = f->at = 0;
	f->base = 0;
	memset(&f->id, 0, sizeof(f->id));
	RECORD_FACT(GET, f, pl)
	if (!(pp = take(c, (size_t)pl + 1)) || pp[pl] || !f->kind || f->kind > CLAWMD_INPUT_NAMES ||
	    !f->at || f->at > CLAWMD_AT_HOST_NOFOLLOW ||
	    (f->base && (f->base >= pl || pp[f->base] != '/')))
		return false;
	if (f->at == CLAWMD_AT_GROUP)
		f->base = 0;
	f->path = (char *)pp;
	return true;
}

bool clawmd_record_fresh(struct clawmd_plan *plan, const struct clawmd_group *grp)
{
	const struct clawmd_dir *gd = &grp->dir;
	struct clawmd_pass *pass = grp->pass;
	struct clawmd_buf rec = CLAWMD_BUF_INIT, key = CLAWMD_BUF_INIT;
	struct clawmd_input_dirs dirs;
	struct record_head h;
	struct cursor c;
	bool fresh = false;
	char **warnings = NULL;
	/* A watched pass: every watch before the look it stands in for. */
	struct clawmd_watch *watch = pass ? pass->watch : NULL;

	clawmd_input_dirs_init(&dirs, gd->fd);
	dirs.by_path = pass && !pass->watched;
	if (read_record(&rec, grp->lock) < 0 || !record_head(&c, &h, &rec, grp))
		goto out;
	if (watch)
		clawmd_watch_start(watch, grp->lay, gd, h.nfacts);
	if (!(warnings = record_warnings(&c, h.nwarnings)))
		goto out;
	for (uint32_t i = 0; i < h.nfacts; i++) {
		struct clawmd_input f;
		struct clawmd_ident now;
		if (!record_fact(&c, &f))
			goto out;
		if (watch)
			clawmd_watch_fact(watch, &f);
		if (look(&now, &f, pass, &dirs, &key) < 0 || !clawmd_input_same(&f, &now))
			goto out;
	}
	fresh = c.p == c.end;
	if (watch)
		clawmd_watch_end(watch, fresh, h.digest, warnings, h.nwarnings, h.ndefused);
out:
	if (fresh) {
		plan->warnings = warnings;
		plan->nwarnings = h.nwarnings;
		plan->ndefused = h.ndefused;
	} else if (warnings) {
		clawmd_strv_free(warnings, h.nwarnings);
	}
	clawmd_input_dirs_release(&dirs);
	clawmd_buf_release(&key);
	clawmd_buf_release(&rec);
	return fresh;
}

/* ---- recording ---------------------------------------------------------- */

void clawmd_record_forget(const struct clawmd_group *g)
{
	struct stat st;
	if (fstat(g->lock, &st) == 0 && st.st_size > CLAWMD_LOCK_RECORD_AT)
		(void)clawmd_group_lock_write(g, "-", 1, CLAWMD_LOCK_RECORD_AT); /* no magic: no record */
}

#define PUT(lv, there)                                                                             \
	if (there)                                                                                 \
		clawmd_buf_put(&rec, &(lv), sizeof(lv));

void clawmd_record_save(struct clawmd_group *g, const struct clawmd_plan *plan)
{
	struct clawmd_inputs *in = &g->inputs;
	struct clawmd_buf rec = CLAWMD_BUF_INIT;
	/* Only what was looked at clearly after it last changed. */
	if (!in->on || !clawmd_inputs_settle(in))
		return;
	struct record_head h = {
		.length = 0, /* known at the end, written there */
		.ndefused = (uint32_t)plan->ndefused,
		.digest = record_digest(g),
		.nwarnings = (uint32_t)plan->nwarnings,
		.nfacts = (uint32_t)in->n,
	};
	clawmd_buf_put(&rec, RECORD_MAGIC, 8);
	RECORD_HEAD(PUT, h)
	for (size_t i = 0; i < plan->nwarnings; i++) {
		uint32_t wl = (uint32_t)strlen(plan->warnings[i]);
		RECORD_WARNING(PUT, wl)
		clawmd_buf_put(&rec, plan->warnings[i], wl);
	}
	for (size_t i = 0; i < in->n; i++) {
		const struct clawmd_input *f = &in->v[i];
		size_t pl = strlen(f->path);
		uint16_t pl16 = (uint16_t)pl;
		if (pl >= 4096)
			goto out;
		RECORD_FACT(PUT, f, pl16)
		clawmd_buf_put(&rec, f->path, pl + 1);
	}
	h.length = (uint32_t)(rec.len + 8);
	memcpy(rec.ptr + 8, &h.length, sizeof(h.length)); /* the head's first field */
	uint64_t sum = clawmd_hash64(rec.ptr, rec.len);
	clawmd_buf_put(&rec, &sum, 8);
	(void)clawmd_group_lock_write(g, rec.ptr, rec.len, CLAWMD_LOCK_RECORD_AT);
out:
	clawmd_buf_release(&rec);
}
