/* record.c - the record of a group's last verified compose (see record.h).
 *
 * It holds what the compose read, as the recorder noted it (fs/inputs.h),
 * and nothing else: it knows what a fact is (a kind, a place, an
 * identity), never what a fact is for.  It lies in the group's lock file
 * from CLAWMD_LOCK_RECORD_AT on, after the flat document's ownership
 * region (group/group.h: neither is written into the other).
 */
#include "compose/record.h"
#include "layout/providers.h"
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
 * The record, in the host's byte order (it never leaves the host):
 *	magic[8] length:u32 ndefused:u32 layout:u64 nwarnings:u32 nfacts:u32
 *	nwarnings x { len:u32 bytes }
 *	nfacts x { kind:u8 at:u8 pathlen:u16 base:u16 ident path NUL }
 * where a type fact's ident is its mode:u32 alone (most facts of a group
 * with many skills are types: each byte less is a byte less to checksum).
 *	checksum:u64 of everything before it (clawmd_hash64)
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

/* ---- a watched pass: what a verification rests on (watch.h) -------------- */

static const char *group_name(const struct clawmd_dir *gd)
{
	const char *slash = strrchr(gd->path, '/');
	return slash ? slash + 1 : gd->path;
}

/* The groups directory watched for the group's name; -1: do not memoize
 * it.  Each fact of the group watches its own name there (watch_fact):
 * the agent writing its own notes in the group makes events nobody
 * counts. */
static int watch_group(const struct clawmd_layout *lay, const struct clawmd_dir *gd,
		       struct clawmd_watch *w)
{
	struct stat a, c;
	if (clawmd_watch_dir(w, CLAWMD_WATCH_ALL, lay->root, lay->groups, group_name(gd)) < 0)
		return -1;
	/* It was opened before the groups directory was watched: is it still
	 * the one at its name? */
	if (fstat(gd->fd, &a) < 0 || lstat(gd->path, &c) < 0 || a.st_dev != c.st_dev ||
	    a.st_ino != c.st_ino)
		return -1;
	return 0;
}

/* Where a host path's watches begin: ROOT when it lies under ROOT, else
 * the source directory the fact lies in (a copied fragment's imports lie
 * levels below it, and a directory swapped there makes no event on any
 * watched inode unless each level is watched for the next), else the
 * path's own directory.  Returned in *out (freed by the caller). */
static const char *anchor_of(char **out, const struct clawmd_layout *lay,
			     const struct clawmd_input *f, bool listing)
{
	size_t rl = strlen(lay->root);
	*out = NULL;
	if (!strncmp(f->path, lay->root, rl) && (f->path[rl] == '/' || !f->path[rl]))
		return lay->root;
	if (f->base)
		return *out = clawmd_xstrndup(f->path, f->base);
	if (listing)
		return f->path;
	const char *slash = strrchr(f->path, '/');
	return *out = clawmd_xstrndup(f->path, slash && slash != f->path ? (size_t)(slash - f->path) : 1);
}

/* A directory's content is its entries: watched for any of them. */
static bool is_listing(const struct clawmd_input *f)
{
	return f->kind == CLAWMD_INPUT_CONTENT && S_ISDIR(f->id.mode);
}

static int watch_group_fact(struct clawmd_watch *w, int g, const struct clawmd_input *f,
			    int gfd)
{
	char p[4200];
	const char *slash = strrchr(f->path, '/');
	/* An entry of the group directory is watched there by name; one
	 * deeper, by its directory's watch (each directory is a fact). */
	if (slash)
		snprintf(p, sizeof(p), "/proc/self/fd/%d/%.*s", gfd, (int)(slash - f->path), f->path);
	else
		snprintf(p, sizeof(p), "/proc/self/fd/%d", gfd);
	if (!slash && clawmd_watch_dir(w, g, NULL, p, f->path) < 0)
		return -1;
	if (f->kind == CLAWMD_INPUT_NAMES)
		return slash ? clawmd_watch_dir(w, g, NULL, p, slash + 1) : 0;
	snprintf(p, sizeof(p), "/proc/self/fd/%d/%s", gfd, f->path);
	if (is_listing(f))
		return clawmd_watch_dir(w, g, NULL, p, NULL);
	return clawmd_watch_obj(w, g, p, f->kind == CLAWMD_INPUT_CONTENT, false);
}

/* Watch what fact `f` rests on; called before the fact is looked at. */
static int watch_fact(const struct clawmd_layout *lay, struct clawmd_watch *w, int g,
		      const struct clawmd_input *f, int gfd)
{
	if (f->at == CLAWMD_AT_GROUP)
		return watch_group_fact(w, g, f, gfd);
	/* A host source: by path from its anchor down, shared by every group. */
	char *own;
	const char *anchor = anchor_of(&own, lay, f, is_listing(f));
	int rc = -1;
	if (is_listing(f)) {
		rc = clawmd_watch_dir(w, CLAWMD_WATCH_ALL, anchor, f->path, NULL);
		free(own);
		return rc;
	}
	char *full = clawmd_xstrdup(f->path);
	char *slash = strrchr(full, '/');
	if (slash && slash != full) {
		*slash = '\0';
		rc = clawmd_watch_dir(w, CLAWMD_WATCH_ALL, anchor, full, slash + 1);
		*slash = '/';
		if (rc == 0 && f->kind != CLAWMD_INPUT_NAMES)
			rc = clawmd_watch_obj(w, CLAWMD_WATCH_ALL, full, f->kind == CLAWMD_INPUT_CONTENT,
					      f->at == CLAWMD_AT_HOST);
	}
	free(full);
	free(own);
	return rc;
}

bool clawmd_record_known(struct clawmd_plan *plan, const struct clawmd_group *g)
{
	struct clawmd_pass *pass = g->pass;
	return pass && pass->watch &&
	       clawmd_watch_hit(pass->watch, plan, record_digest(g), g->name);
}

/* ---- is the record still true? ------------------------------------------ */

/* The record's header; false when it is no record of this layout. */
static bool record_head(struct cursor *c, const struct clawmd_buf *rec, uint32_t *ndefused,
			uint64_t *digest, uint32_t *nwarnings, uint32_t *nfacts,
			const struct clawmd_group *g)
{
	uint32_t len = 0;
	uint64_t sum = 0;
	if (rec->len < 8 + 4 + 8 || memcmp(rec->ptr, RECORD_MAGIC, 8))
		return false;
	memcpy(&len, rec->ptr + 8, 4);
	if (len > rec->len || len < 8 + 4 + 4 + 8 + 4 + 4 + 8)
		return false;
	/* The checksum first: a torn or half-rewritten record is no record. */
	memcpy(&sum, rec->ptr + len - 8, 8);
	if (sum != clawmd_hash64(rec->ptr, len - 8))
		return false;
	*c = (struct cursor){rec->ptr + 12, rec->ptr + len - 8, false};
	TAKE(c, *ndefused);
	TAKE(c, *digest);
	TAKE(c, *nwarnings);
	TAKE(c, *nfacts);
	return !c->bad && *digest == record_digest(g) && *nwarnings <= 4096;
}

static char **record_warnings(struct cursor *c, uint32_t n)
{
	char **warnings = clawmd_xcalloc(n + 1, sizeof(*warnings));
	for (uint32_t i = 0; i < n; i++) {
		uint32_t wl = 0;
		const char *w = TAKE(c, wl) ? take(c, wl) : NULL;
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
	uint8_t kind = 0, at = 0;
	uint16_t pl = 0, base = 0;
	const char *pp;
	TAKE(c, kind);
	TAKE(c, at);
	TAKE(c, pl);
	TAKE(c, base);
	memset(&f->id, 0, sizeof(f->id));
	if (kind == CLAWMD_INPUT_TYPE)
		TAKE(c, f->id.mode);
	else
		TAKE(c, f->id);
	if (!(pp = take(c, (size_t)pl + 1)) || pp[pl] || !kind || kind > CLAWMD_INPUT_NAMES || !at ||
	    at > CLAWMD_AT_HOST_NOFOLLOW || (base && (base >= pl || pp[base] != '/')))
		return false;
	f->kind = kind;
	f->at = at;
	f->base = at == CLAWMD_AT_GROUP ? 0 : base;
	f->path = (char *)pp;
	return true;
}

bool clawmd_record_fresh(struct clawmd_plan *plan, const struct clawmd_group *grp)
{
	const struct clawmd_layout *lay = grp->lay;
	const struct clawmd_dir *gd = &grp->dir;
	struct clawmd_pass *pass = grp->pass;
	struct clawmd_buf rec = CLAWMD_BUF_INIT, key = CLAWMD_BUF_INIT;
	struct clawmd_input_dirs dirs;
	struct cursor c;
	bool fresh = false;
	char **warnings = NULL;
	uint32_t ndefused = 0, nwarnings = 0, nfacts = 0;
	uint64_t digest = 0;
	struct clawmd_watch *watch = pass ? pass->watch : NULL;
	int slot = -1, g = -1; /* g: slot while every watch could be added */

	clawmd_input_dirs_init(&dirs, gd->fd);
	dirs.by_path = pass && !pass->watched;
	if (read_record(&rec, grp->lock) < 0 ||
	    !record_head(&c, &rec, &ndefused, &digest, &nwarnings, &nfacts, grp))
		goto out;
	/* A watched pass: every watch before the look it stands in for.  The
	 * agent decides how many MCP fragments it has, and each is a watch out
	 * of the host's limit (fs.inotify.max_user_watches) that every group
	 * shares: past what a large group needs, stats do. */
	if (watch && nfacts <= 4096 && (slot = clawmd_watch_begin(watch, group_name(gd))) >= 0)
		g = watch_group(lay, gd, watch) == 0 ? slot : -1;
	if (!(warnings = record_warnings(&c, nwarnings)))
		goto out;
	for (uint32_t i = 0; i < nfacts; i++) {
		struct clawmd_input f;
		struct clawmd_ident now;
		if (!record_fact(&c, &f))
			goto out;
		if (g >= 0 && watch_fact(lay, watch, g, &f, gd->fd) < 0)
			g = -1;
		if (look(&now, &f, pass, &dirs, &key) < 0 || !clawmd_input_same(&f, &now))
			goto out;
	}
	fresh = c.p == c.end;
	if (fresh && g >= 0)
		clawmd_watch_verified(watch, g, digest, warnings, nwarnings, ndefused);
	if (slot >= 0 && g < 0)
		clawmd_watch_refuse(watch, slot);
out:
	if (fresh) {
		plan->warnings = warnings;
		plan->nwarnings = nwarnings;
		plan->ndefused = ndefused;
	} else if (warnings) {
		clawmd_strv_free(warnings, nwarnings);
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

void clawmd_record_save(struct clawmd_group *g, const struct clawmd_plan *plan)
{
	struct clawmd_inputs *in = &g->inputs;
	struct clawmd_buf rec = CLAWMD_BUF_INIT;
	/* Only what was looked at clearly after it last changed. */
	if (!in->on || !clawmd_inputs_settle(in))
		return;
	uint32_t zero = 0, u32;
	uint64_t u64 = record_digest(g);
	clawmd_buf_put(&rec, RECORD_MAGIC, 8);
	clawmd_buf_put(&rec, &zero, 4); /* the length, below */
	u32 = (uint32_t)plan->ndefused;
	clawmd_buf_put(&rec, &u32, 4);
	clawmd_buf_put(&rec, &u64, 8);
	u32 = (uint32_t)plan->nwarnings;
	clawmd_buf_put(&rec, &u32, 4);
	u32 = (uint32_t)in->n;
	clawmd_buf_put(&rec, &u32, 4);
	for (size_t i = 0; i < plan->nwarnings; i++) {
		u32 = (uint32_t)strlen(plan->warnings[i]);
		clawmd_buf_put(&rec, &u32, 4);
		clawmd_buf_put(&rec, plan->warnings[i], u32);
	}
	for (size_t i = 0; i < in->n; i++) {
		const struct clawmd_input *f = &in->v[i];
		size_t pl = strlen(f->path);
		uint16_t pl16 = (uint16_t)pl;
		if (pl >= 4096)
			goto out;
		clawmd_buf_put(&rec, &f->kind, 1);
		clawmd_buf_put(&rec, &f->at, 1);
		clawmd_buf_put(&rec, &pl16, 2);
		clawmd_buf_put(&rec, &f->base, 2);
		if (f->kind == CLAWMD_INPUT_TYPE)
			clawmd_buf_put(&rec, &f->id.mode, sizeof(f->id.mode));
		else
			clawmd_buf_put(&rec, &f->id, sizeof(f->id));
		clawmd_buf_put(&rec, f->path, pl + 1);
	}
	u32 = (uint32_t)(rec.len + 8);
	memcpy(rec.ptr + 8, &u32, 4);
	u64 = clawmd_hash64(rec.ptr, rec.len);
	clawmd_buf_put(&rec, &u64, 8);
	(void)clawmd_group_lock_write(g, rec.ptr, rec.len, CLAWMD_LOCK_RECORD_AT);
out:
	clawmd_buf_release(&rec);
}
