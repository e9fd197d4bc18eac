/* record.c - the record of a group's last verified compose (see record.h). */
#include "compose/record.h"
#include "compose/pass.h"
#include "group/group.h"
#include "fs/stamp.h"
#include "base/util.h"
#include "compose/watch.h"
#include "compose/persona.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * The record, in the host's byte order (it never leaves the host):
 *	magic[8] length:u32 ndefused:u32 layout:u64 nwarnings:u32 nfacts:u32
 *	nwarnings x { len:u32 bytes }
 *	nfacts x { base:u8 flags:u8 pathlen:u16 mode:u32 dev ino size:u64
 *		   mtime ctime:{s, ns}:i64 path NUL }
 *	checksum:u64 of everything before it
 * Binary because reading it is most of what a no-op does: parsing the
 * same in text took more instructions than the rest of the process.  It
 * is rewritten in place without truncating the lock file (no-op composes
 * make no mutating system call on their way); `length` says where it ends.
 * Paths end in a NUL so that a check can use them where they lie: a no-op
 * copies nothing onto its stack (every page of stack a process touches is
 * a page fault, and a no-op is mostly process start).
 */
#define RECORD_MAGIC "clawmd\x02\n"
#define RECORD_MAX (4 * 1024 * 1024)

/* Where a fact's path is looked up. */
enum base {
	B_GROUP,   /* the group directory (the agent's: never followed) */
	B_FRAG,	   /* its .claude-fragments (likewise) */
	B_SKILLS,  /* the host's skills directory */
	B_MODULES, /* the host's modules directory */
	B_BASE,	   /* the shared base itself (path ".") */
	B_N,
};

#define F_TYPE 1      /* only the file type counts; 0 is "nothing there" */
#define F_FOLLOW 2    /* a host source: symlinks followed, as plan.c does */
#define F_RACY_ONLY 4 /* a parent directory: checked when saving, not recorded */
#define F_NOLINK 8    /* on a path copy mode reads beneath its root: no record
			 is made while it is a symlink (see source_facts) */
#define F_LIST 16     /* the group's persona files, *.prepend.md: their names
			 (digest, count), not an object (see persona_ident) */

struct fact {
	int base, flags;
	char *path;
	struct clawmd_ident id;
};

struct facts {
	struct fact *v;
	size_t n, cap;
};

struct bases {
	struct clawmd_pass *pass;
	struct clawmd_buf full; /* a host source's full path, built here */
	struct clawmd_buf key;	/* a fact's key in the pass, built here */
	int fd[B_N];
	int state[B_N]; /* 0 not opened yet, 1 open, -1 absent, -2 unreadable */
	const struct clawmd_layout *lay;
	const struct clawmd_dir *gd;
};

static void bases_init(struct bases *b, const struct clawmd_layout *lay, const struct clawmd_dir *gd)
{
	b->pass = NULL;
	b->full = b->key = (struct clawmd_buf)CLAWMD_BUF_INIT;
	for (int i = 0; i < B_N; i++)
		b->fd[i] = -1, b->state[i] = 0;
	b->lay = lay;
	b->gd = gd;
}

static void bases_release(struct bases *b)
{
	for (int i = B_FRAG; i < B_N; i++)
		if (b->fd[i] >= 0)
			close(b->fd[i]);
	clawmd_buf_release(&b->full);
	clawmd_buf_release(&b->key);
}

static bool absent_errno(int e)
{
	return e == ENOENT || e == ENOTDIR || e == ELOOP;
}

/* Open a base on first use.  The fragments directory is the agent's, so
 * it is opened without following a symlink; the host's directories are
 * opened as plan.c opens them. */
static int base_fd(struct bases *b, int base)
{
	if (b->state[base] == 0) {
		const int dflags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
		int fd = -1;
		switch (base) {
		case B_GROUP:
			fd = b->gd->fd;
			break;
		case B_FRAG:
			fd = openat(b->gd->fd, CLAWMD_FRAGMENTS_DIR, dflags | O_NOFOLLOW);
			break;
		case B_SKILLS:
			fd = open(b->lay->skills, dflags);
			break;
		case B_MODULES:
			errno = ENOENT;
			fd = b->lay->modules ? open(b->lay->modules, dflags) : -1;
			break;
		}
		b->fd[base] = fd;
		b->state[base] = fd >= 0 ? 1 : absent_errno(errno) ? -1 : -2;
	}
	return b->state[base];
}

static int stat_fact_now(struct bases *b, const struct fact *f, struct clawmd_ident *id);

/* Stat one fact's path into `id` (mode 0: nothing there).  -1: cannot tell.
 * Within a pass, a host source is stat'ed once for all its groups. */
static int stat_fact(struct bases *b, const struct fact *f, struct clawmd_ident *id)
{
	if (!b->pass || b->pass->watched || f->base == B_GROUP || f->base == B_FRAG)
		return stat_fact_now(b, f, id);
	/* The key ('0' + base, '0' + flags, path) is built on the heap: a no-op
	 * touches as little stack as it can (see the record's format). */
	char head[2] = {(char)('0' + f->base), (char)('0' + f->flags)};
	clawmd_buf_clear(&b->key);
	clawmd_buf_put(&b->key, head, 2);
	clawmd_buf_puts(&b->key, f->path);
	struct clawmd_pass_memo *m = clawmd_pass_slot(b->pass->v, b->pass->cap, b->key.ptr, b->key.len);
	if (m->key) {
		*id = m->id;
		return m->rc;
	}
	int rc = stat_fact_now(b, f, id);
	if (rc == 0)
		clawmd_pass_put(b->pass, b->key.ptr, b->key.len, rc, id);
	return rc;
}

/* The listing of the group's persona files as an identity: which names
 * there are, not what they hold (each file is a fact of its own).  A name
 * created, removed or renamed changes it. */
static int persona_ident(struct bases *b, struct clawmd_ident *id)
{
	char **names;
	size_t n;
	if (clawmd_persona_list(&names, &n, b->gd->fd) < 0)
		return -1;
	uint64_t h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < n; i++)
		h = clawmd_fnv1a64(names[i], strlen(names[i]) + 1) ^ (h * 0x100000001b3ULL);
	clawmd_strv_free(names, n);
	id->mode = S_IFDIR;
	id->ino = h;
	id->size = n;
	return 0;
}

static int stat_fact_now(struct bases *b, const struct fact *f, struct clawmd_ident *id)
{
	struct stat st;
	int rc;
	memset(id, 0, sizeof(*id));
	if (f->flags & F_LIST)
		return persona_ident(b, id);
	if (f->base == B_BASE || f->base == B_SKILLS || f->base == B_MODULES) {
		/* Host sources by path: opening their directory first would cost
		 * two more system calls than the longer walks. */
		const char *dir = f->base == B_BASE	 ? b->lay->base
				  : f->base == B_SKILLS ? b->lay->skills
							 : b->lay->modules;
		if (!dir)
			return 0;
		clawmd_buf_clear(&b->full);
		clawmd_buf_puts(&b->full, dir);
		clawmd_buf_putc(&b->full, '/');
		clawmd_buf_puts(&b->full, f->path);
		const char *path = strcmp(f->path, ".") ? b->full.ptr : dir;
		rc = (f->flags & F_FOLLOW) ? stat(path, &st) : lstat(path, &st);
	} else {
		int s = base_fd(b, f->base);
		if (s == -1)
			return 0;
		if (s < 0)
			return -1;
		if (!strcmp(f->path, "."))
			rc = fstat(b->fd[f->base], &st);
		else
			rc = fstatat(b->fd[f->base], f->path, &st,
				     (f->flags & F_FOLLOW) ? 0 : AT_SYMLINK_NOFOLLOW);
	}
	if (rc < 0)
		return absent_errno(errno) ? 0 : -1;
	id->mode = (uint32_t)st.st_mode;
	id->dev = (uint64_t)st.st_dev;
	id->ino = (uint64_t)st.st_ino;
	id->size = (uint64_t)st.st_size;
	id->ms = (int64_t)st.st_mtim.tv_sec;
	id->mns = (int64_t)st.st_mtim.tv_nsec;
	id->cs = (int64_t)st.st_ctim.tv_sec;
	id->cns = (int64_t)st.st_ctim.tv_nsec;
	return 0;
}

static bool same(const struct fact *f, const struct clawmd_ident *now)
{
	const struct clawmd_ident *was = &f->id;
	if (f->flags & F_TYPE)
		return (was->mode & S_IFMT) == (now->mode & S_IFMT);
	return was->mode == now->mode && was->dev == now->dev && was->ino == now->ino &&
	       was->size == now->size && was->ms == now->ms && was->mns == now->mns &&
	       was->cs == now->cs && was->cns == now->cns;
}

/* Could this object have changed after `since` without its identity
 * showing it (fs/stamp.h)?  Only what is clearly older than the look is
 * recorded: a later change then gives a later mtime or ctime, or a new
 * inode, and the next compose sees it. */
static bool racy(const struct clawmd_ident *id, struct timespec since)
{
	return id->mode && clawmd_stamp_racy_ns(id->ms * 1000000000LL + id->mns,
						id->cs * 1000000000LL + id->cns,
						id->mns || id->cns, since);
}

/* ---- the text of a record ----------------------------------------------- */

/* The record's checksum: it only has to catch a torn or stale write, so
 * eight bytes a step (FNV-1a's byte a step was a tenth of a no-op). */
static uint64_t checksum(const char *p, size_t len)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ len;
	for (; len >= 8; p += 8, len -= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	uint64_t w = 0;
	memcpy(&w, p, len);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 29);
}

/* Everything the plan depends on besides the files: a record made under
 * another layout or by another version proves nothing. */
static uint64_t layout_digest(const struct clawmd_layout *lay)
{
	struct clawmd_buf b = CLAWMD_BUF_INIT;
	const char *v[] = {lay->base,	 lay->skills,	 lay->modules ? lay->modules : "",
			   lay->groups,	 lay->ct_base,	 lay->ct_skills,
			   lay->ct_modules, lay->ct_group, CLAWMD_VERSION,
			   lay->mode == CLAWMD_MODE_COPY ? "copy" : "symlink",
			   lay->import_local ? "local" : "-"};
	for (size_t i = 0; i < CLAWMD_ARRAY_SIZE(v); i++)
		clawmd_buf_put(&b, v[i], strlen(v[i]) + 1);
	/* What the entry may import from the group. */
	for (size_t i = 0; i < lay->noptional; i++)
		clawmd_buf_put(&b, lay->optional[i], strlen(lay->optional[i]) + 1);
	clawmd_buf_printf(&b, "%zu persona=%d runtimes=%u ", lay->noptional, lay->persona,
			  lay->runtimes);
	/* The release and the approval decide the symlink-mode warning the
	 * record replays; the setting sources belong to the layout too. */
	clawmd_buf_printf(&b, "%u.%u.%u %d%d%d%d", lay->claude.major, lay->claude.minor,
			  lay->claude.patch, lay->approve_external, lay->no_user, lay->no_project,
			  lay->no_local);
	uint64_t d = clawmd_fnv1a64(b.ptr, b.len);
	clawmd_buf_release(&b);
	return d;
}

static int read_record(struct clawmd_buf *out, int fd)
{
	clawmd_buf_clear(out);
	for (;;) {
		clawmd_buf_grow(out, 16384);
		ssize_t n = pread(fd, out->ptr + out->len, out->cap - out->len - 1, (off_t)out->len);
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

/* ---- is the record still true? ------------------------------------------ */

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

/* ---- a watched pass: what a verification rests on (watch.h) -------------- */

static const char *group_name(const struct clawmd_dir *gd)
{
	const char *slash = strrchr(gd->path, '/');
	return slash ? slash + 1 : gd->path;
}

/* The group's directory watched for the names clawmd owns there and the
 * groups directory for its name; -1: do not memoize it.  The agent writing
 * its own notes in the group makes events nobody counts. */
static int watch_group(struct bases *b, struct clawmd_watch *w, int g)
{
	static const char *const names[] = {CLAWMD_ENTRY_NAME, CLAWMD_LOCAL_NAME,
					    CLAWMD_SHARED_NAME, CLAWMD_FRAGMENTS_DIR,
					    CLAWMD_CONFIG_NAME};
	char self[64];
	struct stat a, c;
	if (clawmd_watch_dir(w, CLAWMD_WATCH_ALL, b->lay->root, b->lay->groups, group_name(b->gd)) < 0)
		return -1;
	/* The directory compose opened, not whatever its path names now. */
	snprintf(self, sizeof(self), "/proc/self/fd/%d", b->gd->fd);
	for (size_t i = 0; i < CLAWMD_ARRAY_SIZE(names); i++)
		if (clawmd_watch_dir(w, g, NULL, self, names[i]) < 0)
			return -1;
	/* The layout's optional imports, and the persona files by suffix. */
	for (size_t i = 0; i < b->lay->noptional; i++)
		if (clawmd_watch_dir(w, g, NULL, self, b->lay->optional[i]) < 0)
			return -1;
	if (b->lay->persona && clawmd_watch_dir(w, g, NULL, self, "*" CLAWMD_PREPEND_SUFFIX) < 0)
		return -1;
	/* It was opened before the groups directory was watched: is it still
	 * the one at its name? */
	if (fstat(b->gd->fd, &a) < 0 || lstat(b->gd->path, &c) < 0 || a.st_dev != c.st_dev ||
	    a.st_ino != c.st_ino)
		return -1;
	return 0;
}

/* Watch what fact `f` rests on; called before the fact is stat'ed. */
static int watch_fact(struct bases *b, struct clawmd_watch *w, int g, const struct fact *f)
{
	char p[4200];
	if (f->base == B_GROUP || f->base == B_FRAG) {
		int s = f->base == B_GROUP ? 1 : base_fd(b, B_FRAG);
		if (s == -1)
			return 0; /* no fragments directory: the group's watch */
		if (s < 0)
			return -1;
		int fd = f->base == B_GROUP ? b->gd->fd : b->fd[B_FRAG];
		if (f->flags & F_LIST) { /* names by suffix: the directory's watch */
			snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
			return clawmd_watch_dir(w, g, NULL, p, f->path);
		}
		if (!strcmp(f->path, ".")) {
			snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
			return clawmd_watch_dir(w, g, NULL, p, NULL);
		}
		snprintf(p, sizeof(p), "/proc/self/fd/%d/%s", fd, f->path);
		return clawmd_watch_obj(w, g, p, !(f->flags & F_TYPE), f->flags & F_FOLLOW);
	}
	/* A host source: by path from ROOT down, shared by every group.  A
	 * skills or modules directory outside ROOT is the anchor of its own
	 * sources: a copied fragment's imports lie levels below it, and a
	 * directory swapped there makes no event on any watched inode unless
	 * each level is watched for the next. */
	const char *dir = f->base == B_SKILLS ? b->lay->skills : b->lay->modules;
	const char *anchor = b->lay->root;
	size_t rl = strlen(anchor);
	int rc;
	if (f->base == B_MODULES && !dir)
		return 0;
	if (f->base != B_BASE && (strncmp(dir, anchor, rl) || (dir[rl] != '/' && dir[rl])))
		anchor = dir;
	if (f->base != B_BASE && !strcmp(f->path, "."))
		return clawmd_watch_dir(w, CLAWMD_WATCH_ALL, anchor, dir, NULL);
	char *full = f->base == B_BASE ? clawmd_xstrdup(b->lay->base)
				       : clawmd_xasprintf("%s/%s", dir, f->path);
	char *slash = strrchr(full, '/');
	if (!slash || slash == full) {
		free(full);
		return -1;
	}
	*slash = '\0';
	rc = clawmd_watch_dir(w, CLAWMD_WATCH_ALL, anchor, full, slash + 1);
	*slash = '/';
	if (rc == 0)
		rc = clawmd_watch_obj(w, CLAWMD_WATCH_ALL, full, !(f->flags & F_TYPE), f->flags & F_FOLLOW);
	free(full);
	return rc;
}

bool clawmd_record_known(struct clawmd_plan *plan, const struct clawmd_group *g)
{
	struct clawmd_pass *pass = g->pass;
	return pass && pass->watch &&
	       clawmd_watch_hit(pass->watch, plan, layout_digest(g->lay), g->name);
}

bool clawmd_record_fresh(struct clawmd_plan *plan, const struct clawmd_group *grp)
{
	int fd = grp->lock;
	const struct clawmd_layout *lay = grp->lay;
	const struct clawmd_dir *gd = &grp->dir;
	struct clawmd_pass *pass = grp->pass;
	struct clawmd_buf rec = CLAWMD_BUF_INIT;
	struct bases b;
	bool fresh = false;
	char **warnings = NULL;
	uint32_t len = 0, ndefused = 0, nwarnings = 0, nfacts = 0;
	uint64_t digest = 0, sum = 0;
	struct clawmd_watch *watch = pass ? pass->watch : NULL;
	int slot = -1, g = -1; /* g: slot while every watch could be added */

	bases_init(&b, lay, gd);
	b.pass = pass;
	if (read_record(&rec, fd) < 0 || rec.len < 8 + 4 + 8 ||
	    memcmp(rec.ptr, RECORD_MAGIC, 8))
		goto out;
	memcpy(&len, rec.ptr + 8, 4);
	if (len > rec.len || len < 8 + 4 + 4 + 8 + 4 + 4 + 8)
		goto out;
	/* The checksum first: a torn or half-rewritten record is no record. */
	memcpy(&sum, rec.ptr + len - 8, 8);
	if (sum != checksum(rec.ptr, len - 8))
		goto out;
	struct cursor c = {rec.ptr + 12, rec.ptr + len - 8, false};
	TAKE(&c, ndefused);
	TAKE(&c, digest);
	TAKE(&c, nwarnings);
	TAKE(&c, nfacts);
	if (c.bad || digest != layout_digest(lay) || nwarnings > 4096)
		goto out;
	/* A watched pass: every watch before the stat it stands in for.  The
	 * agent decides how many MCP fragments it has, and each is a watch out
	 * of the host's limit (fs.inotify.max_user_watches) that every group
	 * shares: past what a large group needs, stats do. */
	if (watch && nfacts <= 4096 && (slot = clawmd_watch_begin(watch, group_name(gd))) >= 0)
		g = watch_group(&b, watch, slot) == 0 ? slot : -1;
	warnings = clawmd_xcalloc(nwarnings, sizeof(*warnings));
	for (uint32_t i = 0; i < nwarnings; i++) {
		uint32_t wl = 0;
		const char *w = TAKE(&c, wl) ? take(&c, wl) : NULL;
		if (!w)
			goto out;
		warnings[i] = clawmd_xstrndup(w, wl);
	}
	for (uint32_t i = 0; i < nfacts; i++) {
		struct fact f;
		struct clawmd_ident now;
		uint8_t base = 0, flags = 0;
		uint16_t pl = 0;
		const char *pp;
		TAKE(&c, base);
		TAKE(&c, flags);
		TAKE(&c, pl);
		TAKE(&c, f.id);
		if (!(pp = take(&c, (size_t)pl + 1)) || base >= B_N || pp[pl])
			goto out;
		f.base = base;
		f.flags = flags;
		f.path = (char *)pp; /* read only: the record is checked, not kept */
		if (g >= 0 && watch_fact(&b, watch, g, &f) < 0)
			g = -1;
		if (stat_fact(&b, &f, &now) < 0 || !same(&f, &now))
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
	} else {
		clawmd_strv_free(warnings, nwarnings);
	}
	bases_release(&b);
	clawmd_buf_release(&rec);
	return fresh;
}

/* ---- recording ---------------------------------------------------------- */

static void add(struct facts *fs, int base, int flags, char *path)
{
	clawmd_xgrow(&fs->v, &fs->cap, fs->n + 1, sizeof(*fs->v));
	fs->v[fs->n++] = (struct fact){base, flags, path, {0}};
}

static bool has_fact(const struct facts *fs, int base, const char *path)
{
	for (size_t i = 0; i < fs->n; i++)
		if (fs->v[i].base == base && !strcmp(fs->v[i].path, path))
			return true;
	return false;
}

/* `path` below the host directory `root`, or NULL. */
static const char *beneath(const char *path, const char *root)
{
	size_t rl = root ? strlen(root) : 0;
	return rl && !strncmp(path, root, rl) && path[rl] == '/' ? path + rl + 1 : NULL;
}

/*
 * A source copy mode reads (plan.c's open_beneath: a symlink may not lead
 * out of the skills or modules directory, an absolute one never resolves)
 * and the directories on its way below that root.  A stat that followed
 * them could not tell a relative link from an absolute one to the same
 * file, yet the read can; so they are stat'ed without following, and no
 * record is made while any of them is a symlink (F_NOLINK).  The file has
 * its identity, each directory its type (replacing one is a new type or
 * new inodes below it); the first directory is an entry of the root,
 * whose own identity (the listing's ".") vouches for it, so it is only
 * checked when saving.
 */
static void source_facts(struct facts *fs, int base, const char *rel)
{
	char *p = clawmd_xstrdup(rel);
	for (char *slash = p; (slash = strchr(slash, '/')); *slash++ = '/') {
		*slash = '\0';
		if (!has_fact(fs, base, p))
			add(fs, base, F_NOLINK | F_TYPE | (strchr(p, '/') ? 0 : F_RACY_ONLY),
			    clawmd_xstrdup(p));
	}
	if (has_fact(fs, base, p))
		free(p);
	else
		add(fs, base, F_NOLINK, p);
}

/*
 * A copied fragment's directory (copy mode, a fragment with relative
 * imports): every copy and every directory of the tree in the group (a
 * copy can be edited in place, a stray file added anywhere), each file it
 * was copied from, and each import that was looked for and not copied (a
 * missing one is recorded as nothing there: its appearance is a change).
 * What the fragments import is decided by their content, which their
 * identities vouch for, so nothing else can change the tree.
 */
static bool dir_facts(struct facts *fs, const struct clawmd_entry *e, const char *leaf,
		      int base, const char *root)
{
	add(fs, B_FRAG, 0, clawmd_xstrdup(leaf));
	for (size_t i = 0; i < e->nfiles + e->nprobed; i++) {
		const char *src = i < e->nfiles ? e->files[i].source : e->probed[i - e->nfiles];
		const char *rel = beneath(src, root);
		if (!rel)
			return false;
		source_facts(fs, base, rel);
		if (i >= e->nfiles)
			continue;
		char *copy = clawmd_xasprintf("%s/%s", leaf, e->files[i].name);
		for (char *slash = copy + strlen(leaf) + 1; (slash = strchr(slash, '/')); slash++) {
			*slash = '\0';
			if (!has_fact(fs, B_FRAG, copy))
				add(fs, B_FRAG, 0, clawmd_xstrdup(copy));
			*slash = '/';
		}
		add(fs, B_FRAG, 0, copy);
	}
	return true;
}

/*
 * The source a plan entry was made from, as plan.c finds it: false for a
 * name this file does not know, which then is never vouched for (a new
 * kind of entry must be taught here before a no-op can skip it).
 */
static bool entry_facts(struct facts *fs, const struct clawmd_entry *e,
			const struct clawmd_layout *lay, bool inlined)
{
	static const char frag[] = CLAWMD_FRAGMENTS_DIR "/";
	const size_t fl = sizeof(frag) - 1;
	const char *name = e->name, *leaf = name + fl;
	size_t len = strlen(name);
	if (clawmd_runtime_entry_name(name) || !strcmp(name, CLAWMD_SHARED_NAME)) {
		add(fs, B_GROUP, 0, clawmd_xstrdup(name));
		/* A copy vouches for the base's content; a symlink only for the
		 * base being a file, which is all plan.c looks at, unless an
		 * inlined entry holds its text. */
		if (!strcmp(name, CLAWMD_SHARED_NAME))
			add(fs, B_BASE,
			    F_FOLLOW | (e->type == CLAWMD_FT_FILE || inlined ? 0 : F_TYPE),
			    clawmd_xstrdup("."));
		return true;
	}
	if (strncmp(name, frag, fl) || strchr(leaf, '/'))
		return false;
	int base = !strncmp(leaf, "skill-", 6) ? B_SKILLS : !strncmp(leaf, "module-", 7) ? B_MODULES : -1;
	if (e->type == CLAWMD_FT_DIR)
		return base >= 0 &&
		       dir_facts(fs, e, leaf, base, base == B_SKILLS ? lay->skills : lay->modules);
	if (len < fl + 4 || strcmp(name + len - 3, ".md"))
		return false;
	/* A symlink in .claude-fragments cannot change without the directory
	 * changing (there is no writing a symlink in place): the directory's
	 * own identity vouches for it.  A regular file can be written in
	 * place, so it has its own. */
	if (e->type == CLAWMD_FT_FILE)
		add(fs, B_FRAG, 0, clawmd_xstrdup(leaf));
	if (base < 0) /* mcp-: from container.json; the persona: persona_facts */
		return !strncmp(leaf, "mcp-", 4) || !strcmp(leaf, CLAWMD_PERSONA_FRAGMENT);
	/* skill-<s>.md from <s>/instructions.md, module-<m>.md from
	 * <m>.instructions.md; a copy by its content (source_facts), a
	 * symlink by the source being a file. */
	const char *item = leaf + (base == B_SKILLS ? 6 : 7);
	int il = (int)(strlen(item) - 3);
	char *path = clawmd_xasprintf(base == B_SKILLS ? "%.*s/instructions.md" : "%.*s.instructions.md",
				      il, item);
	if (e->type == CLAWMD_FT_FILE) {
		source_facts(fs, base, path);
		free(path);
	} else {
		add(fs, base, F_FOLLOW | F_TYPE, path);
	}
	return true;
}

/* A source read for an inlined entry in symlink mode (plan->read): the
 * fragment, or the files of its closure and the imports probed, each by
 * its content, as copy mode's are. */
static bool read_facts(struct facts *fs, const struct clawmd_entry *e,
		       const struct clawmd_layout *lay)
{
	size_t n = e->type == CLAWMD_FT_DIR ? e->nfiles + e->nprobed : 1;
	for (size_t i = 0; i < n; i++) {
		const char *src = e->type != CLAWMD_FT_DIR ? e->source
				  : i < e->nfiles	    ? e->files[i].source
							    : e->probed[i - e->nfiles];
		const char *rel;
		if (src && (rel = beneath(src, lay->skills)))
			source_facts(fs, B_SKILLS, rel);
		else if (src && (rel = beneath(src, lay->modules)))
			source_facts(fs, B_MODULES, rel);
		else
			return false;
	}
	return true;
}

/* The listings plan.c made: every skill directory (a skill that gains an
 * instructions.md changes the plan without changing the skills directory)
 * and every module file, with the directory itself. */
static int listing_facts(struct facts *fs, struct bases *b, int base)
{
	static const char suffix[] = ".instructions.md";
	add(fs, base, F_FOLLOW, clawmd_xstrdup("."));
	int s = base_fd(b, base);
	if (s == -1)
		return 0;
	DIR *d = s > 0 ? clawmd_fs_list(b->fd[base]) : NULL;
	if (!d)
		return -1;
	struct dirent *e;
	while ((e = readdir(d))) {
		const char *n = e->d_name;
		size_t len = strlen(n), sl = sizeof(suffix) - 1;
		if (n[0] == '.')
			continue;
		if (base == B_SKILLS) {
			if (!clawmd_name_valid(n, len))
				continue;
			char *p = clawmd_xasprintf("%s/instructions.md", n);
			if (has_fact(fs, B_SKILLS, p))
				free(p);
			else
				add(fs, B_SKILLS, F_FOLLOW | F_TYPE, p);
			if (e->d_type != DT_DIR && !has_fact(fs, B_SKILLS, n))
				add(fs, B_SKILLS, F_FOLLOW | F_TYPE, clawmd_xstrdup(n));
			add(fs, B_SKILLS, F_FOLLOW | F_RACY_ONLY, clawmd_xstrdup(n));
		} else if (len > sl && !strcmp(n + len - sl, suffix) && !has_fact(fs, B_MODULES, n)) {
			add(fs, B_MODULES, F_FOLLOW | F_TYPE, clawmd_xstrdup(n));
		}
	}
	closedir(d);
	return 0;
}

static void write_record(int fd, const char *lockpath, const struct clawmd_buf *rec)
{
	struct stat a, b;
	int w = open(lockpath, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	if (w < 0)
		return;
	/* The same file we hold the lock on, not one put there since. */
	if (fstat(fd, &a) == 0 && fstat(w, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		(void)!pwrite(w, rec->ptr, rec->len, 0);
	close(w);
}

void clawmd_record_forget(const struct clawmd_group *g)
{
	int fd = g->lock;
	const char *lockpath = g->lockpath;
	struct stat st;
	struct clawmd_buf spoilt = CLAWMD_BUF_INIT;
	clawmd_buf_put(&spoilt, "-", 1); /* no magic: no record */
	if (fstat(fd, &st) == 0 && st.st_size > 0)
		write_record(fd, lockpath, &spoilt);
	clawmd_buf_release(&spoilt);
}

/* The directory holding the shared base: a base replaced by rename keeps
 * its own old times, but not its directory's. */
static bool base_dir_racy(const char *base, struct timespec since)
{
	char *dir = clawmd_xstrdup(base), *slash = strrchr(dir, '/');
	struct stat st;
	bool r = true;
	if (slash) {
		*slash = '\0';
		if (stat(slash == dir ? "/" : dir, &st) == 0)
			r = clawmd_stamp_racy(&st, since);
	}
	free(dir);
	return r;
}

/* The persona: which *.prepend.md files there are, and each one's
 * identity (their content is inlined).  Listed again here, after the
 * plan: a file created since made the group directory racy, which the
 * save checks, so no record can miss it. */
static bool persona_facts(struct facts *fs, const struct clawmd_dir *gd)
{
	char **names;
	size_t n;
	if (clawmd_persona_list(&names, &n, gd->fd) < 0)
		return false;
	add(fs, B_GROUP, F_LIST, clawmd_xstrdup("*" CLAWMD_PREPEND_SUFFIX));
	for (size_t i = 0; i < n; i++) {
		add(fs, B_GROUP, 0, names[i]); /* lstat: a symlink is left out, and recorded as one */
		names[i] = NULL;
	}
	free(names);
	return true;
}

void clawmd_record_save(const struct clawmd_group *g, const struct clawmd_plan *plan,
			struct timespec since)
{
	int fd = g->lock;
	const char *lockpath = g->lockpath;
	const struct clawmd_layout *lay = g->lay;
	const struct clawmd_dir *gd = &g->dir;
	struct facts fs = {NULL, 0, 0};
	struct clawmd_buf rec = CLAWMD_BUF_INIT;
	struct bases b;
	bases_init(&b, lay, gd);

	/* 1. What the plan read in the group, and the group itself, which
	 * holds the names below (checked now, not recorded: the agent writes
	 * its own files there all the time). */
	add(&fs, B_GROUP, 0, clawmd_xstrdup(CLAWMD_CONFIG_NAME));
	/* Imported while regular files; inlined, by their content. */
	int by = plan->inlined ? 0 : F_TYPE;
	for (size_t i = 0; i < lay->noptional; i++)
		add(&fs, B_GROUP, by, clawmd_xstrdup(lay->optional[i]));
	add(&fs, B_GROUP, by, clawmd_xstrdup(CLAWMD_LOCAL_NAME));
	if (lay->persona && !persona_facts(&fs, gd))
		goto out;
	add(&fs, B_GROUP, F_RACY_ONLY, clawmd_xstrdup("."));
	/* 2. Each entry and its source; then the fragments directory, which
	 * vouches for the symlinks in it and for the absence of stale ones. */
	for (size_t i = 0; i < plan->n; i++)
		if (!entry_facts(&fs, &plan->entries[i], lay, plan->inlined))
			goto out;
	for (size_t i = 0; i < plan->nread; i++)
		if (!read_facts(&fs, &plan->read[i], lay))
			goto out;
	add(&fs, B_FRAG, 0, clawmd_xstrdup("."));
	/* 3. The listings. */
	if (listing_facts(&fs, &b, B_SKILLS) < 0 || (lay->modules && listing_facts(&fs, &b, B_MODULES) < 0))
		goto out;

	/* 4. Stat everything; give up on anything that changed too recently
	 * to be told apart from what the compose saw. */
	for (size_t i = 0; i < fs.n; i++) {
		struct fact *f = &fs.v[i];
		if (stat_fact(&b, f, &f->id) < 0)
			goto out;
		if ((f->flags & F_NOLINK) && S_ISLNK(f->id.mode))
			goto out;
		if (!(f->flags & F_TYPE) && racy(&f->id, since))
			goto out;
	}
	if (base_dir_racy(lay->base, since))
		goto out;

	/* 5. Write it. */
	uint32_t zero = 0, u32;
	uint64_t u64 = layout_digest(lay);
	clawmd_buf_put(&rec, RECORD_MAGIC, 8);
	clawmd_buf_put(&rec, &zero, 4); /* the length, below */
	u32 = (uint32_t)plan->ndefused;
	clawmd_buf_put(&rec, &u32, 4);
	clawmd_buf_put(&rec, &u64, 8);
	u32 = (uint32_t)plan->nwarnings;
	clawmd_buf_put(&rec, &u32, 4);
	u32 = 0;
	for (size_t i = 0; i < fs.n; i++)
		u32 += !(fs.v[i].flags & F_RACY_ONLY);
	clawmd_buf_put(&rec, &u32, 4);
	for (size_t i = 0; i < plan->nwarnings; i++) {
		u32 = (uint32_t)strlen(plan->warnings[i]);
		clawmd_buf_put(&rec, &u32, 4);
		clawmd_buf_put(&rec, plan->warnings[i], u32);
	}
	for (size_t i = 0; i < fs.n; i++) {
		const struct fact *f = &fs.v[i];
		uint8_t base = (uint8_t)f->base, flags = (uint8_t)f->flags;
		size_t pl = strlen(f->path);
		uint16_t pl16 = (uint16_t)pl;
		if (f->flags & F_RACY_ONLY)
			continue;
		if (pl >= 4096)
			goto out;
		clawmd_buf_put(&rec, &base, 1);
		clawmd_buf_put(&rec, &flags, 1);
		clawmd_buf_put(&rec, &pl16, 2);
		clawmd_buf_put(&rec, &f->id, sizeof(f->id));
		clawmd_buf_put(&rec, f->path, pl + 1);
	}
	u32 = (uint32_t)(rec.len + 8);
	memcpy(rec.ptr + 8, &u32, 4);
	u64 = checksum(rec.ptr, rec.len);
	clawmd_buf_put(&rec, &u64, 8);
	write_record(fd, lockpath, &rec);
out:
	for (size_t i = 0; i < fs.n; i++)
		free(fs.v[i].path);
	free(fs.v);
	bases_release(&b);
	clawmd_buf_release(&rec);
}
