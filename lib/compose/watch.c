/* watch.c - inotify behind a watched pass (see watch.h). */
#include "compose/watch.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

/*
 * What inotify cannot see, and how each case is handled (a no-op decided
 * from the events must be one the stat path would also have decided):
 *  - a change on a filesystem whose changes do not all pass through this
 *    kernel (NFS, CIFS, 9p, FUSE and virtiofs, Ceph, cluster filesystems)
 *    or do not all reach the inode that is watched (overlayfs: a write to
 *    a lower or upper layer directly).  Only the filesystems in fs_local()
 *    are trusted; a group or source on any other is never memoized.
 *  - a change through another path to the same inode (a hard link in
 *    another directory, another mount of the same filesystem, a bind mount
 *    in a container) IS seen: inotify is inode-based.  A directory's watch
 *    alone would miss a write through a hard link elsewhere, so every file
 *    whose identity the record holds is watched itself too.
 *  - a filesystem mounted over a watched directory later: lookups go to
 *    the new mount and nothing is reported.  Not handled (the host's own
 *    administration; the agent cannot mount in the host's namespace).
 *  - writes through a shared writable mmap(2) make no event (inotify(7)).
 *    The agent could use one on its own files to keep a hand edit or a
 *    stale container.json unnoticed until something else changes; that
 *    only withholds an update from its own group, which it could as well
 *    do by not editing, and grants nothing.
 *  - a symlink on the way to a host source: the target's parents are not
 *    watched, so such a source is not memoized (watch.h).  What is above
 *    ROOT (or above a layout directory outside ROOT) is taken as fixed: a
 *    component there swapped is out of scope.
 *  - a lost event: the queue overflowing (IN_Q_OVERFLOW) forgets every
 *    group; a watch the kernel drops (IN_IGNORED: the inode went, its
 *    filesystem was unmounted) forgets the groups it served.
 */

/* The owner of a watch every group rests on (the host's sources and the
 * directories above them), where a group's own watches have its slot. */
#define CLAWMD_WATCH_ALL (-2)

#define MASK                                                                                       \
	(IN_MODIFY | IN_ATTRIB | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO |             \
	 IN_DELETE_SELF | IN_MOVE_SELF)

/* A watch: whose it is, and which entries of a directory matter. */
struct wdent {
	int wd; /* 0: a free slot (the kernel's start at 1) */
	int owner; /* a group's slot, or CLAWMD_WATCH_ALL */
	bool all, bad;
	char **names;
	size_t nnames, cap;
};

struct group {
	char *name;
	bool verified;
	bool refused; /* could not be watched: not again until an event */
	uint64_t epoch, digest, refused_epoch;
	char **warnings;
	size_t nwarnings, ndefused;
};

struct clawmd_watch {
	int fd;
	bool broken; /* the queue could not be read: trust nothing more */
	uint64_t epoch; /* bumped to forget every group at once */
	struct wdent *wds;
	size_t nwds, capwds; /* capwds: a power of two */
	struct group *slots; /* by slot */
	size_t ng, capg;
	size_t *gidx; /* name -> slot + 1 (open addressing) */
	size_t capidx; /* a power of two */
	/* The group being verified, from clawmd_watch_start() to _end(). */
	struct {
		int slot; /* -1: not memoized */
		bool watched; /* every watch of its facts so far was added */
		const struct clawmd_layout *lay;
		int dir; /* the group directory's fd */
	} cur;
};

/* Filesystems whose every change is made by this kernel on the inode a
 * watch holds.  Everything else (nfs, cifs, 9p, fuse, overlay, ...) is
 * checked by stats at every call. */
static bool fs_local(long type)
{
	switch ((unsigned long)type & 0xffffffffUL) {
	case 0xEF53:	 /* ext2, ext3, ext4 */
	case 0x58465342: /* xfs */
	case 0x9123683E: /* btrfs */
	case 0x01021994: /* tmpfs */
	case 0x858458F6: /* ramfs */
	case 0xF2F52010: /* f2fs */
	case 0x2FC12FC1: /* zfs */
		return true;
	}
	return false;
}

struct clawmd_watch *clawmd_watch_new(void)
{
	int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct clawmd_watch *w = clawmd_xcalloc(1, sizeof(*w));
	w->fd = fd;
	w->capwds = 64;
	w->wds = clawmd_xcalloc(w->capwds, sizeof(*w->wds));
	w->capidx = 64;
	w->gidx = clawmd_xcalloc(w->capidx, sizeof(*w->gidx));
	return w;
}

static void wdent_release(struct wdent *e)
{
	clawmd_strv_free(e->names, e->nnames);
	memset(e, 0, sizeof(*e));
}

void clawmd_watch_free(struct clawmd_watch *w)
{
	if (!w)
		return;
	close(w->fd);
	for (size_t i = 0; i < w->capwds; i++)
		wdent_release(&w->wds[i]);
	for (size_t i = 0; i < w->ng; i++) {
		free(w->slots[i].name);
		clawmd_strv_free(w->slots[i].warnings, w->slots[i].nwarnings);
	}
	free(w->wds);
	free(w->slots);
	free(w->gidx);
	free(w);
}

/* ---- the watch table: wd -> wdent, linear probing ------------------------ */

static size_t wd_home(const struct clawmd_watch *w, int wd)
{
	return ((size_t)(unsigned)wd * 0x9E3779B1u) & (w->capwds - 1);
}

static struct wdent *wd_find(struct clawmd_watch *w, int wd)
{
	for (size_t i = wd_home(w, wd);; i = (i + 1) & (w->capwds - 1)) {
		if (w->wds[i].wd == wd)
			return &w->wds[i];
		if (!w->wds[i].wd)
			return NULL;
	}
}

static struct wdent *wd_insert(struct clawmd_watch *w, int wd)
{
	if ((w->nwds + 1) * 2 > w->capwds) {
		struct wdent *old = w->wds;
		size_t oldcap = w->capwds;
		w->capwds *= 2;
		w->wds = clawmd_xcalloc(w->capwds, sizeof(*w->wds));
		for (size_t i = 0; i < oldcap; i++) {
			if (!old[i].wd)
				continue;
			size_t j = wd_home(w, old[i].wd);
			while (w->wds[j].wd)
				j = (j + 1) & (w->capwds - 1);
			w->wds[j] = old[i];
		}
		free(old);
	}
	size_t i = wd_home(w, wd);
	while (w->wds[i].wd)
		i = (i + 1) & (w->capwds - 1);
	w->wds[i].wd = wd;
	w->nwds++;
	return &w->wds[i];
}

/* Remove by shifting back the entries the hole would cut off (Knuth 6.4 R). */
static void wd_remove(struct clawmd_watch *w, struct wdent *e)
{
	size_t mask = w->capwds - 1, i = (size_t)(e - w->wds), j = i;
	wdent_release(e);
	w->nwds--;
	for (;;) {
		j = (j + 1) & mask;
		if (!w->wds[j].wd)
			return;
		size_t k = wd_home(w, w->wds[j].wd);
		if ((j > i && (k <= i || k > j)) || (j < i && (k <= i && k > j))) {
			w->wds[i] = w->wds[j];
			memset(&w->wds[j], 0, sizeof(w->wds[j]));
			i = j;
		}
	}
}

/* ---- groups -------------------------------------------------------------- */

static size_t *group_slot(struct clawmd_watch *w, const char *name)
{
	size_t i = (size_t)clawmd_hash64(name, strlen(name)) & (w->capidx - 1);
	while (w->gidx[i] && strcmp(w->slots[w->gidx[i] - 1].name, name))
		i = (i + 1) & (w->capidx - 1);
	return &w->gidx[i];
}

static void forget(struct clawmd_watch *w, int owner)
{
	if (owner == CLAWMD_WATCH_ALL)
		w->epoch++;
	else if (owner >= 0 && (size_t)owner < w->ng)
		w->slots[owner].verified = w->slots[owner].refused = false;
}

/* An entry name watched: the name itself, or "*SUFFIX" for every name
 * ending in SUFFIX (a group's persona files, *.prepend.md). */
static bool name_hits(const char *watched, const char *name)
{
	if (watched[0] != '*')
		return !strcmp(watched, name);
	size_t sl = strlen(watched + 1), nl = strlen(name);
	return nl >= sl && !strcmp(name + nl - sl, watched + 1);
}

/* Read every queued event; each that touches what a group rests on
 * forgets that group.  A read that comes back short emptied the queue. */
static void drain(struct clawmd_watch *w)
{
	char buf[8192] __attribute__((aligned(__alignof__(struct inotify_event))));
	for (;;) {
		ssize_t n = read(w->fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			if (errno != EAGAIN)
				w->broken = true;
			return;
		}
		for (char *p = buf; p < buf + n;) {
			const struct inotify_event *ev = (const struct inotify_event *)p;
			p += sizeof(*ev) + ev->len;
			if (ev->mask & IN_Q_OVERFLOW) {
				w->epoch++;
				continue;
			}
			struct wdent *e = wd_find(w, ev->wd);
			if (!e)
				continue;
			bool hits = !ev->len || e->all ||
				    (ev->mask & (IN_IGNORED | IN_UNMOUNT | IN_DELETE_SELF | IN_MOVE_SELF));
			for (size_t i = 0; !hits && i < e->nnames; i++)
				hits = name_hits(e->names[i], ev->name);
			if (hits)
				forget(w, e->owner);
			if (ev->mask & IN_IGNORED)
				wd_remove(w, e);
		}
		if ((size_t)n + sizeof(struct inotify_event) + NAME_MAX + 1 <= sizeof(buf))
			return;
	}
}

bool clawmd_watch_hit(struct clawmd_watch *w, struct clawmd_plan *plan, uint64_t digest,
		      const char *group)
{
	drain(w);
	size_t at = *group_slot(w, group);
	if (w->broken || !at)
		return false;
	const struct group *gr = &w->slots[at - 1];
	if (!gr->verified || gr->epoch != w->epoch || gr->digest != digest)
		return false;
	plan->warnings = clawmd_xcalloc(gr->nwarnings + 1, sizeof(*plan->warnings));
	for (size_t i = 0; i < gr->nwarnings; i++)
		plan->warnings[i] = clawmd_xstrdup(gr->warnings[i]);
	plan->nwarnings = gr->nwarnings;
	plan->ndefused = gr->ndefused;
	return true;
}

static int group_begin(struct clawmd_watch *w, const char *group)
{
	if (w->broken)
		return -1;
	size_t *s = group_slot(w, group);
	if (!*s) {
		if ((w->ng + 1) * 2 > w->capidx) {
			size_t *old = w->gidx;
			w->capidx *= 2;
			w->gidx = clawmd_xcalloc(w->capidx, sizeof(*w->gidx));
			for (size_t i = 0; i < w->ng; i++)
				*group_slot(w, w->slots[i].name) = i + 1;
			free(old);
			s = group_slot(w, group);
		}
		clawmd_xgrow(&w->slots, &w->capg, w->ng + 1, sizeof(*w->slots));
		memset(&w->slots[w->ng], 0, sizeof(w->slots[w->ng]));
		w->slots[w->ng].name = clawmd_xstrdup(group);
		*s = ++w->ng;
	}
	struct group *gr = &w->slots[*s - 1];
	gr->verified = false;
	if (gr->refused && gr->refused_epoch == w->epoch)
		return -1;
	gr->refused = false;
	return (int)(*s - 1);
}

static void group_refuse(struct clawmd_watch *w, int slot)
{
	w->slots[slot].refused = true;
	w->slots[slot].refused_epoch = w->epoch;
}

static void group_verified(struct clawmd_watch *w, int slot, uint64_t digest, char *const *warnings,
			   size_t nwarnings, size_t ndefused)
{
	struct group *gr = &w->slots[slot];
	clawmd_strv_free(gr->warnings, gr->nwarnings);
	gr->warnings = clawmd_xcalloc(nwarnings + 1, sizeof(*gr->warnings));
	for (size_t i = 0; i < nwarnings; i++)
		gr->warnings[i] = clawmd_xstrdup(warnings[i]);
	gr->nwarnings = nwarnings;
	gr->ndefused = ndefused;
	gr->digest = digest;
	gr->epoch = w->epoch;
	gr->verified = true;
}

/* ---- adding watches ------------------------------------------------------ */

/* Watch `path` for the group in `slot`; events on entry `name` (NULL with `all`: any)
 * count.  1: nothing there, 0: watched, -1: cannot be trusted. */
static int add(struct clawmd_watch *w, int slot, const char *path, uint32_t extra, const char *name,
	       bool all)
{
	int wd = inotify_add_watch(w->fd, path, MASK | extra);
	if (wd < 0)
		return errno == ENOENT ? 1 : -1;
	struct wdent *e = wd_find(w, wd);
	if (!e) {
		struct statfs sf;
		e = wd_insert(w, wd);
		e->owner = slot;
		/* Directories are checked; a file lives on its directory's
		 * filesystem unless something is mounted on it (the host's own
		 * doing), and statfs() would follow a symlink there. */
		e->bad = (extra & IN_ONLYDIR) && (statfs(path, &sf) < 0 || !fs_local((long)sf.f_type));
	} else if (e->owner != slot) {
		e->owner = CLAWMD_WATCH_ALL; /* shared (a hard link across groups) */
	}
	if (e->bad)
		return -1;
	if (all || !name) {
		e->all = true;
	} else {
		for (size_t i = 0; i < e->nnames; i++)
			if (!strcmp(e->names[i], name))
				return 0;
		clawmd_xgrow(&e->names, &e->cap, e->nnames + 1, sizeof(*e->names));
		e->names[e->nnames++] = clawmd_xstrdup(name);
	}
	return 0;
}

static int watch_dir(struct clawmd_watch *w, int slot, const char *anchor, const char *dir,
		     const char *name)
{
	size_t al = anchor ? strlen(anchor) : 0;
	if (!anchor || strncmp(dir, anchor, al) || (dir[al] != '/' && dir[al]))
		return add(w, slot, dir, IN_ONLYDIR, name, false) == 0 ? 0 : -1; /* followed */
	/* From the anchor down: each directory is watched for the next
	 * component before that component is looked at, so a swap after the
	 * look is an event and one before it is what the look saw. */
	char *cur = clawmd_xstrdup(dir);
	int rc = 0;
	size_t dend = al; /* cur[0, dend) is the directory reached so far */
	for (;;) {
		size_t at = dend, end;
		while (cur[at] == '/')
			at++;
		/* The anchor itself is taken as fixed, so it may be a symlink
		 * (a layout directory configured through one). */
		uint32_t nofollow = dend > al ? IN_DONT_FOLLOW : 0;
		if (!cur[at]) {
			rc = add(w, slot, cur, IN_ONLYDIR | nofollow, name, false) == 0 ? 0 : -1;
			break;
		}
		for (end = at; cur[end] && cur[end] != '/';)
			end++;
		char *comp = clawmd_xstrndup(cur + at, end - at), keep = cur[dend];
		cur[dend] = '\0';
		int r = add(w, slot, dend ? cur : "/", IN_ONLYDIR | nofollow, comp, false);
		cur[dend] = keep;
		free(comp);
		if (r != 0) {
			rc = -1;
			break;
		}
		struct stat st;
		keep = cur[end];
		cur[end] = '\0';
		r = lstat(cur, &st);
		cur[end] = keep;
		if (r < 0 && errno == ENOENT)
			break; /* its parent's watch sees it appear */
		if (r < 0 || !S_ISDIR(st.st_mode)) {
			rc = -1;
			break;
		}
		dend = end;
	}
	free(cur);
	return rc;
}

static int watch_obj(struct clawmd_watch *w, int slot, const char *path, bool inode, bool followed)
{
	struct stat st;
	if (lstat(path, &st) < 0)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -1;
	if (followed && S_ISLNK(st.st_mode))
		return -1;
	return inode && add(w, slot, path, IN_DONT_FOLLOW, NULL, true) < 0 ? -1 : 0;
}

/* ---- what a verification rests on ------------------------------------------ */

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
	if (watch_dir(w, CLAWMD_WATCH_ALL, lay->root, lay->groups, group_name(gd)) < 0)
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

static int watch_group_fact(struct clawmd_watch *w, int slot, const struct clawmd_input *f,
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
	if (!slash && watch_dir(w, slot, NULL, p, f->path) < 0)
		return -1;
	if (f->kind == CLAWMD_INPUT_NAMES)
		return slash ? watch_dir(w, slot, NULL, p, slash + 1) : 0;
	snprintf(p, sizeof(p), "/proc/self/fd/%d/%s", gfd, f->path);
	if (is_listing(f))
		return watch_dir(w, slot, NULL, p, NULL);
	return watch_obj(w, slot, p, f->kind == CLAWMD_INPUT_CONTENT, false);
}

/* Watch what fact `f` rests on; called before the fact is looked at. */
static int watch_fact(const struct clawmd_layout *lay, struct clawmd_watch *w, int slot,
		      const struct clawmd_input *f, int gfd)
{
	if (f->at == CLAWMD_AT_GROUP)
		return watch_group_fact(w, slot, f, gfd);
	/* A host source: by path from its anchor down, shared by every group. */
	char *own;
	const char *anchor = anchor_of(&own, lay, f, is_listing(f));
	int rc = -1;
	if (is_listing(f)) {
		rc = watch_dir(w, CLAWMD_WATCH_ALL, anchor, f->path, NULL);
		free(own);
		return rc;
	}
	char *full = clawmd_xstrdup(f->path);
	char *slash = strrchr(full, '/');
	if (slash && slash != full) {
		*slash = '\0';
		rc = watch_dir(w, CLAWMD_WATCH_ALL, anchor, full, slash + 1);
		*slash = '/';
		if (rc == 0 && f->kind != CLAWMD_INPUT_NAMES)
			rc = watch_obj(w, CLAWMD_WATCH_ALL, full, f->kind == CLAWMD_INPUT_CONTENT,
					      f->at == CLAWMD_AT_HOST);
	}
	free(full);
	free(own);
	return rc;
}

void clawmd_watch_start(struct clawmd_watch *w, const struct clawmd_layout *lay,
			const struct clawmd_dir *gd, size_t nfacts)
{
	w->cur.slot = -1;
	w->cur.watched = false;
	w->cur.lay = lay;
	w->cur.dir = gd->fd;
	/* The agent decides how many MCP fragments it has, and each is a
	 * watch out of the host's limit (fs.inotify.max_user_watches) that
	 * every group shares: past what a large group needs, stats do. */
	if (nfacts > 4096 || (w->cur.slot = group_begin(w, group_name(gd))) < 0)
		return;
	w->cur.watched = watch_group(lay, gd, w) == 0;
}

void clawmd_watch_fact(struct clawmd_watch *w, const struct clawmd_input *f)
{
	if (w->cur.watched && watch_fact(w->cur.lay, w, w->cur.slot, f, w->cur.dir) < 0)
		w->cur.watched = false;
}

void clawmd_watch_end(struct clawmd_watch *w, bool fresh, uint64_t digest, char *const *warnings,
		      size_t nwarnings, size_t ndefused)
{
	if (fresh && w->cur.watched)
		group_verified(w, w->cur.slot, digest, warnings, nwarnings, ndefused);
	if (w->cur.slot >= 0 && !w->cur.watched)
		group_refuse(w, w->cur.slot);
	w->cur.slot = -1;
	w->cur.watched = false;
}
