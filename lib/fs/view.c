/* view.c - the container view: one fd-based resolver (see view.h). */
#include "fs/view.h"
#include "fs/fs.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

static const struct clawmd_mount host_identity = {(char *)"/", (char *)"/"};

/* `path` equals `prefix` or continues it with a '/'. */
static bool under(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);
	while (n > 1 && prefix[n - 1] == '/')
		n--;
	if (n == 1 && prefix[0] == '/')
		return true;
	return !strncmp(path, prefix, n) && (path[n] == '\0' || path[n] == '/');
}

static bool same(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);
	while (n > 1 && prefix[n - 1] == '/')
		n--;
	return !strncmp(path, prefix, n) && path[n] == '\0';
}

static const struct clawmd_mount *mounts(const struct clawmd_view *v, size_t *n)
{
	if (!v->m) {
		*n = 1;
		return &host_identity;
	}
	*n = v->n;
	return v->m;
}

/* The mount that owns `cand` (the first in table order covering it). */
static const struct clawmd_mount *owner(const struct clawmd_view *v, const char *cand)
{
	size_t n;
	const struct clawmd_mount *m = mounts(v, &n);
	for (size_t i = 0; i < n; i++)
		if (under(cand, m[i].container))
			return &m[i];
	return NULL;
}

/* In the container, the directories above mount points exist (empty). */
static bool mount_ancestor(const struct clawmd_view *v, const char *cand)
{
	size_t n;
	const struct clawmd_mount *m = mounts(v, &n);
	for (size_t i = 0; i < n; i++)
		if (under(m[i].container, cand) && !same(m[i].container, cand))
			return true;
	return false;
}

/* ---- the cache: what one load resolved already ---------------------------- */

/*
 * A load resolves the same directories over and over: the group's root for
 * every file, .claude-fragments for every fragment, each import once for
 * the external gate and once to read it.  The cache keeps, by container
 * realpath ("/workspace/agent/.claude-fragments"), the O_PATH fd of each
 * directory and mount root met, and the target of each symlink.
 *
 * It changes no answer.  A mount root is the host's (the agent cannot
 * replace the directory it is mounted on), so its fd is reused as is.  Any
 * other component is stat'ed again, relative to its parent's fd without
 * following it, and the cached fd (or target) is used only while that is
 * still the same inode: the fd pins the inode, so its number cannot have
 * been reused, and a symlink cannot be rewritten in place (a symlink's
 * target is cached only with its fd).  A directory
 * swapped for a symlink is therefore seen at once, as without the cache,
 * and its target resolved in the container's view: one fstatat replaces an
 * openat, an fstat and a close.  Bounded: CACHE_MAX / 2 entries (and so
 * fds); past that, components are looked up as without a cache.
 */
#define CACHE_MAX 128u /* a power of two; at most half of it filled */

struct centry {
	char *key;	  /* NULL: a free slot */
	int fd;		  /* directories, mount roots, symlinks met mid-path; else -1 */
	struct stat st;	  /* lstat when it was looked up */
	const char *host; /* a mount root: its host path */
	char *link;	  /* a symlink: its target, once read */
};

struct clawmd_view_cache {
	struct centry v[CACHE_MAX];
	size_t n;
};

struct clawmd_view_cache *clawmd_view_cache_new(void)
{
	return clawmd_xcalloc(1, sizeof(struct clawmd_view_cache));
}

void clawmd_view_cache_free(struct clawmd_view_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < CACHE_MAX; i++) {
		if (!c->v[i].key)
			continue;
		if (c->v[i].fd >= 0)
			close(c->v[i].fd);
		free(c->v[i].key);
		free(c->v[i].link);
	}
	free(c);
}

static struct centry *cache_slot(struct clawmd_view_cache *c, const char *key)
{
	size_t i = (size_t)clawmd_fnv1a64(key, strlen(key)) & (CACHE_MAX - 1);
	while (c->v[i].key && strcmp(c->v[i].key, key))
		i = (i + 1) & (CACHE_MAX - 1);
	return &c->v[i];
}

static struct centry *cache_get(struct clawmd_view_cache *c, const char *key)
{
	struct centry *e = c ? cache_slot(c, key) : NULL;
	return e && e->key ? e : NULL;
}

/* Remember `key`; NULL when full (the caller keeps what it has). */
static struct centry *cache_put(struct clawmd_view_cache *c, const char *key)
{
	if (!c || 2 * (c->n + 1) > CACHE_MAX)
		return NULL;
	struct centry *e = cache_slot(c, key);
	if (!e->key) {
		*e = (struct centry){clawmd_xstrdup(key), -1, {0}, NULL, NULL};
		c->n++;
	}
	return e;
}

/* The walk: one entry per component of the path resolved so far. */
struct level {
	int fd;		  /* O_PATH; -1 virtual, or a file not opened */
	bool own;	  /* fd is the walk's (else the cache's) */
	size_t off;	  /* where its "/name" starts in res */
	const char *host; /* a mount root: its host path */
	struct stat st;
};

struct walk {
	struct level *lv;
	size_t n, cap;
	struct clawmd_buf res; /* "/a/b" ("" at the root) */
};

static void walk_pop(struct walk *w)
{
	struct level *l = &w->lv[--w->n];
	if (l->fd >= 0 && l->own)
		close(l->fd);
	w->res.len = l->off;
	w->res.ptr[w->res.len] = '\0';
}

static void walk_push(struct walk *w, int fd, bool own, const char *name, size_t nl,
		      const char *host, const struct stat *st)
{
	clawmd_xgrow(&w->lv, &w->cap, w->n + 1, sizeof(w->lv[0]));
	w->lv[w->n++] = (struct level){fd, own, w->res.len, host, *st};
	if (name) {
		clawmd_buf_put(&w->res, "/", 1);
		clawmd_buf_put(&w->res, name, nl);
	}
}

static void walk_release(struct walk *w)
{
	while (w->n)
		walk_pop(w);
	free(w->lv);
	clawmd_buf_release(&w->res);
}

static const struct stat virtual_dir = {.st_mode = S_IFDIR | 0555};

/* An O_PATH fd of `name` in `dir` (opened with `flags` added), and its fstat. */
static int open_stat(int dir, const char *name, int flags, struct stat *st)
{
	int fd = openat(dir, name, O_PATH | O_CLOEXEC | flags);
	if (fd < 0)
		return -errno;
	if (fstat(fd, st) < 0) {
		int e = errno;
		close(fd);
		return -e;
	}
	return fd;
}

/* Open a mount root by the host path the table gives (host-owned). */
static int open_root(const char *host, struct stat *st)
{
	return open_stat(AT_FDCWD, host, 0, st);
}

/* `name` in `parent`, never following it. */
static int open_path(int parent, const char *name, struct stat *st)
{
	return open_stat(parent, name, O_NOFOLLOW, st);
}

/* What one component is. */
struct obj {
	int err;	  /* 0, or -errno */
	int fd;		  /* O_PATH: directories, mount roots, symlinks met mid-path */
	bool own;	  /* fd is ours to close (not the cache's) */
	struct stat st;	  /* lstat */
	const char *host; /* a mount root: its host path */
	struct centry *ce;/* its cache entry, if any */
};

/* What open_stat() returned, into `ob`: an fd, or -errno as its error
 * (kept apart: -EPERM is -1, which as an fd means "none"). */
static void opened(struct obj *ob, int r)
{
	if (r < 0)
		ob->err = r;
	else
		ob->fd = r;
}

/* The cache entry `ce` still describes `st`: the same object. */
static bool still(const struct centry *ce, const struct stat *st)
{
	return ce->st.st_dev == st->st_dev && ce->st.st_ino == st->st_ino &&
	       (ce->st.st_mode & S_IFMT) == (st->st_mode & S_IFMT);
}

/*
 * Look one component up: a mount root by its host path, anything else
 * relative to its parent's fd, never following a symlink.  The last
 * component of a path and a cached one are stat'ed first: a file is opened
 * for reading later, relative to its parent, and checked to be the inode
 * stat'ed here, so an O_PATH fd of it would buy nothing; a cached one is
 * reused when it is still there.
 */
static void lookup(struct obj *ob, const struct clawmd_view *v, const struct clawmd_mount *o,
		   const char *cand, int parent, const char *name, bool last)
{
	struct centry *ce = cache_get(v->cache, cand);
	memset(ob, 0, sizeof(*ob));
	ob->fd = -1;
	if (o && same(cand, o->container)) {
		if (ce && ce->fd >= 0) {
			ob->fd = ce->fd;
			ob->st = ce->st;
			ob->host = ce->host;
			return;
		}
		opened(ob, open_root(o->host, &ob->st));
		ob->host = o->host;
	} else if (o && parent >= 0) {
		if (!last && !ce) {
			opened(ob, open_path(parent, name, &ob->st));
		} else if (fstatat(parent, name, &ob->st, AT_SYMLINK_NOFOLLOW) < 0) {
			ob->err = -errno;
		} else if (ce && still(ce, &ob->st)) {
			ob->fd = ce->fd;
			ob->ce = ce;
			return;
		} else if (S_ISDIR(ob->st.st_mode)) {
			opened(ob, open_path(parent, name, &ob->st));
		}
	} else {
		ob->err = -ENOENT;
	}
	if (ob->err)
		return;
	ob->own = ob->fd >= 0;
	/* Keep a directory's fd, or a symlink's identity.  A component that
	 * changed since it was cached is not cached again: a node resolved
	 * earlier may still borrow the fd its entry holds. */
	bool dir = ob->fd >= 0 && S_ISDIR(ob->st.st_mode), lnk = S_ISLNK(ob->st.st_mode);
	if (ce || !(dir || lnk) || !(ce = cache_put(v->cache, cand)))
		return;
	ce->st = ob->st;
	ce->host = ob->host;
	/* A symlink met mid-path keeps its O_PATH fd too: its target is
	 * cached, and only a held inode cannot come back under the same
	 * number as another symlink (red-team finding). */
	ce->fd = ob->fd;
	ob->own = false;
	ob->ce = ce;
}

/* The target of the symlink `ob` (named `name` in `parent`), into buf. */
static int link_target(struct obj *ob, int parent, const char *name, char *buf, size_t size)
{
	if (ob->ce && ob->ce->link) {
		size_t k = strlen(ob->ce->link);
		if (k >= size)
			return -ENAMETOOLONG;
		memcpy(buf, ob->ce->link, k + 1);
		return 0;
	}
	ssize_t k = ob->fd >= 0 ? readlinkat(ob->fd, "", buf, size - 1)
		    : parent >= 0 ? readlinkat(parent, name, buf, size - 1) : (errno = ENOENT, -1);
	if (k < 0)
		return errno == EINVAL ? -ENOENT : -errno; /* swapped since the stat */
	buf[k] = '\0';
	/* Only a target read through an fd is the inode's: by name, the
	 * symlink may have been replaced since it was stat'ed. */
	if (ob->ce && ob->fd >= 0)
		ob->ce->link = clawmd_xstrdup(buf);
	return 0;
}

/* Start at "/" of the view. */
static int walk_root(struct walk *w, const struct clawmd_view *v)
{
	const struct clawmd_mount *o = owner(v, "/");
	if (o && same("/", o->container)) {
		struct obj ob;
		lookup(&ob, v, o, "/", -1, NULL, false);
		if (ob.err)
			return ob.err;
		walk_push(w, ob.fd, ob.own, NULL, 0, o->host, &ob.st);
	} else {
		walk_push(w, -1, false, NULL, 0, NULL, &virtual_dir);
	}
	return 0;
}

/* The next component of *p (skipping slashes); its length, 0 at the end. */
static size_t next_comp(const char **p)
{
	while (**p == '/')
		(*p)++;
	size_t n = 0;
	while ((*p)[n] && (*p)[n] != '/')
		n++;
	return n;
}

static bool more_comps(const char *p)
{
	while (*p == '/')
		p++;
	return *p != '\0';
}

/* One resolution: the walk so far and what is left of the path. */
struct resolution {
	const struct clawmd_view *v;
	struct walk w;
	char *todo;    /* the path being resolved, a link's target spliced in */
	const char *p; /* what is left of it */
	int hops;      /* links followed */
	bool follow;   /* follow a link in the last component */
};

/* A link met: its target, then what was left, resolved in the view.
 * Closes what `ob` owns. */
static int resolve_link(struct resolution *r, struct obj *ob, int parent, const char *name)
{
	char buf[PATH_MAX];
	int rc = link_target(ob, parent, name, buf, sizeof(buf));
	if (ob->own)
		close(ob->fd);
	if (rc < 0)
		return rc;
	if (++r->hops > CLAWMD_VIEW_HOPS)
		return -ELOOP;
	char *next = clawmd_xasprintf("%s/%s", buf, r->p);
	free(r->todo);
	r->todo = next;
	r->p = r->todo;
	if (buf[0] == '/')
		while (r->w.n > 1)
			walk_pop(&r->w);
	return 0;
}

/* One component of the path, `cl` bytes at `comp`: the walk goes down
 * into it, up for "..", or on into a link's target. */
static int resolve_comp(struct resolution *r, const char *comp, size_t cl)
{
	const struct clawmd_view *v = r->v;
	if (v->budget && !(*v->budget)--) {
		*v->budget = 0;
		return -E2BIG;
	}
	if (cl == 1 && comp[0] == '.')
		return 0;
	if (cl == 2 && comp[0] == '.' && comp[1] == '.') {
		if (r->w.n > 1)
			walk_pop(&r->w);
		return 0;
	}
	if (cl > NAME_MAX)
		return -ENAMETOOLONG;
	char name[NAME_MAX + 1];
	memcpy(name, comp, cl);
	name[cl] = '\0';
	char *cand = clawmd_xasprintf("%s/%s", r->w.res.ptr, name);
	const struct clawmd_mount *o = owner(v, cand);
	const struct level *top = &r->w.lv[r->w.n - 1];
	bool last = !more_comps(r->p);
	struct obj ob;
	lookup(&ob, v, o, cand, top->fd, name, last);
	if (ob.err && ob.err != -ENOTDIR && mount_ancestor(v, cand)) {
		free(cand);
		walk_push(&r->w, -1, false, comp, cl, NULL, &virtual_dir);
		return 0;
	}
	free(cand);
	if (ob.err)
		return ob.err;
	if (S_ISLNK(ob.st.st_mode) && (!last || r->follow))
		return resolve_link(r, &ob, top->fd, name);
	if (!last && !S_ISDIR(ob.st.st_mode)) {
		if (ob.own)
			close(ob.fd);
		return -ENOTDIR;
	}
	walk_push(&r->w, ob.fd, ob.own, comp, cl, ob.host, &ob.st);
	return 0;
}

/* The result: the top of the walk, and its parent for reopening; the
 * walk gives up the descriptors it hands over. */
static void resolve_result(struct clawmd_view_node *out, struct walk *w)
{
	struct level *top = &w->lv[w->n - 1];
	out->fd = top->fd;
	out->own_fd = top->own;
	out->st = top->st;
	out->host_root = top->host;
	out->real = clawmd_xstrdup(w->res.len ? w->res.ptr : "/");
	out->name = clawmd_xstrdup(strrchr(out->real, '/') + 1);
	top->own = false;
	if (!top->host && w->n > 1) {
		out->parent = w->lv[w->n - 2].fd;
		out->own_parent = w->lv[w->n - 2].own;
		w->lv[w->n - 2].own = false;
	}
}

int clawmd_view_resolve(struct clawmd_view_node *out, const struct clawmd_view *v,
			const char *path, bool follow)
{
	struct resolution r = {v, {0}, clawmd_xstrdup(path), NULL, 0, follow};
	int rc;
	r.p = r.todo;
	memset(out, 0, sizeof(*out));
	out->fd = out->parent = -1;
	clawmd_buf_put(&r.w.res, "", 0);
	if (path[0] != '/') {
		rc = -EINVAL;
		goto out;
	}
	if ((rc = walk_root(&r.w, v)) < 0)
		goto out;
	for (;;) {
		size_t cl = next_comp(&r.p);
		if (!cl)
			break;
		const char *comp = r.p;
		r.p += cl;
		if ((rc = resolve_comp(&r, comp, cl)) < 0)
			goto out;
	}
	resolve_result(out, &r.w);
	rc = 0;
out:
	walk_release(&r.w);
	free(r.todo);
	return rc;
}

void clawmd_view_node_release(struct clawmd_view_node *node)
{
	if (!node)
		return;
	if (node->fd >= 0 && node->own_fd)
		close(node->fd);
	if (node->parent >= 0 && node->own_parent)
		close(node->parent);
	free(node->name);
	free(node->real);
	memset(node, 0, sizeof(*node));
	node->fd = node->parent = -1;
}

char *clawmd_view_realpath(const struct clawmd_view *v, const char *path)
{
	struct clawmd_view_node nd;
	if (clawmd_view_resolve(&nd, v, path, true) < 0)
		return NULL;
	char *r = nd.real;
	nd.real = NULL;
	clawmd_view_node_release(&nd);
	return r;
}

char clawmd_view_kind(const struct clawmd_view *v, const char *path)
{
	struct clawmd_view_node nd;
	if (clawmd_view_resolve(&nd, v, path, true) < 0)
		return 0;
	char k = S_ISDIR(nd.st.st_mode) ? 'd' : S_ISREG(nd.st.st_mode) ? 'f' : 'o';
	clawmd_view_node_release(&nd);
	return k;
}

bool clawmd_view_lexists(const struct clawmd_view *v, const char *path, struct stat *st)
{
	struct clawmd_view_node nd;
	if (clawmd_view_resolve(&nd, v, path, false) < 0)
		return false;
	if (st)
		*st = nd.st;
	clawmd_view_node_release(&nd);
	return true;
}

/* Open the resolved regular file for reading, as the same inode. */
static int reopen(const struct clawmd_view_node *nd)
{
	struct stat st;
	int fd;
	/* Through the one safe open (fs.h): what is there now is opened
	 * O_PATH and only a regular file is opened for reading. */
	if (nd->parent >= 0)
		fd = clawmd_fs_open_read(nd->parent, nd->name, CLAWMD_FS_NOFOLLOW, &st);
	else if (nd->host_root)
		fd = clawmd_fs_open_read(AT_FDCWD, nd->host_root, CLAWMD_FS_FOLLOW, &st);
	else
		return -ENOENT;
	if (fd == -ELOOP || fd == -EISDIR || fd == -ENODEV)
		return -EAGAIN; /* swapped meanwhile */
	if (fd < 0)
		return fd;
	if (st.st_dev != nd->st.st_dev || st.st_ino != nd->st.st_ino) {
		close(fd);
		return -EAGAIN; /* swapped meanwhile */
	}
	return fd;
}

/* Read fd to its end, at most max bytes, straight into out: sized once from
 * the size fstat gave, and grown only for a file that grew meanwhile (one
 * byte past `size` says so).  out stays NUL-terminated. */
static int read_fd(int fd, struct clawmd_buf *out, size_t max, off_t size)
{
	size_t start = out->len;
	size_t want = (size_t)size < max ? (size_t)size + 1 : max + 1;
	for (;;) {
		size_t got = out->len - start;
		if (got > max)
			return -EFBIG; /* it grew */
		if (got == want)
			want = want > max / 2 ? max + 1 : want * 2;
		clawmd_buf_grow(out, want - got);
		out->ptr[out->len] = '\0';
		ssize_t k = read(fd, out->ptr + out->len, want - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return errno == EAGAIN ? -ENODEV : -errno;
		if (k == 0)
			return 0;
		out->len += (size_t)k;
	}
}

int clawmd_view_read_node(const struct clawmd_view_node *nd, struct clawmd_buf *out, size_t max)
{
	int fd;
	if (S_ISDIR(nd->st.st_mode))
		return -EISDIR;
	if (!S_ISREG(nd->st.st_mode))
		return -ENODEV;
	if ((unsigned long long)nd->st.st_size > max)
		return -EFBIG;
	if ((fd = reopen(nd)) < 0)
		return fd == -EAGAIN ? -ENOENT : fd;
	int rc = read_fd(fd, out, max, nd->st.st_size);
	close(fd);
	return rc;
}

int clawmd_view_read_head(const struct clawmd_view_node *nd, struct clawmd_buf *out, size_t max)
{
	int fd;
	if (S_ISDIR(nd->st.st_mode))
		return -EISDIR;
	if (!S_ISREG(nd->st.st_mode))
		return -ENODEV;
	if ((fd = reopen(nd)) < 0)
		return fd == -EAGAIN ? -ENOENT : fd;
	char chunk[65536];
	size_t got = 0;
	int rc = 0;
	while (got < max) {
		size_t want = max - got < sizeof(chunk) ? max - got : sizeof(chunk);
		ssize_t k = read(fd, chunk, want);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			rc = errno == EAGAIN ? -ENODEV : -errno;
			break;
		}
		if (k == 0)
			break;
		clawmd_buf_put(out, chunk, (size_t)k);
		got += (size_t)k;
	}
	close(fd);
	return rc;
}

int clawmd_view_read(const struct clawmd_view *v, const char *path, struct clawmd_buf *out,
		     size_t max, char **real)
{
	struct clawmd_view_node nd;
	int rc = 0, fd = -1;
	for (int tries = 0;; tries++) {
		if ((rc = clawmd_view_resolve(&nd, v, path, true)) < 0)
			return rc;
		if (S_ISDIR(nd.st.st_mode))
			rc = -EISDIR;
		else if (!S_ISREG(nd.st.st_mode))
			rc = -ENODEV;
		else if ((unsigned long long)nd.st.st_size > max)
			rc = -EFBIG;
		else if ((fd = reopen(&nd)) < 0)
			rc = fd;
		if (rc != -EAGAIN || tries == 2)
			break;
		clawmd_view_node_release(&nd);
	}
	if (rc < 0)
		goto out;
	rc = read_fd(fd, out, max, nd.st.st_size);
	close(fd);
	if (rc == 0 && real) {
		*real = nd.real;
		nd.real = NULL;
	}
out:
	clawmd_view_node_release(&nd);
	return rc;
}

int clawmd_view_list(const struct clawmd_view *v, const char *path, size_t max, char ***names,
		     size_t *n, bool *truncated, dev_t *dev, ino_t *ino)
{
	struct clawmd_view_node nd;
	int rc;
	*names = NULL;
	*n = 0;
	*truncated = false;
	if ((rc = clawmd_view_resolve(&nd, v, path, true)) < 0)
		return rc;
	*dev = nd.st.st_dev;
	*ino = nd.st.st_ino;
	if (!S_ISDIR(nd.st.st_mode)) {
		clawmd_view_node_release(&nd);
		return -ENOTDIR;
	}
	if (nd.fd < 0) { /* virtual */
		clawmd_view_node_release(&nd);
		*names = clawmd_xcalloc(1, sizeof(char *));
		return 0;
	}
	int dfd = openat(nd.fd, ".", O_RDONLY | O_DIRECTORY | O_NOCTTY | O_CLOEXEC);
	clawmd_view_node_release(&nd);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	if (!d) {
		rc = -errno;
		if (dfd >= 0)
			close(dfd);
		return rc;
	}
	size_t cap = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (*n >= max) {
			*truncated = true;
			break;
		}
		clawmd_xgrow(names, &cap, *n + 1, sizeof(char *));
		(*names)[(*n)++] = clawmd_xstrdup(de->d_name);
	}
	closedir(d);
	if (!*names)
		*names = clawmd_xcalloc(1, sizeof(char *));
	return 0;
}

int clawmd_view_readlink(const struct clawmd_view *v, const char *path, char **target)
{
	struct clawmd_view_node nd;
	int rc = clawmd_view_resolve(&nd, v, path, false);
	if (rc < 0)
		return rc;
	char buf[PATH_MAX];
	ssize_t k = -1;
	rc = -EINVAL;
	if (S_ISLNK(nd.st.st_mode)) {
		k = nd.fd >= 0	   ? readlinkat(nd.fd, "", buf, sizeof(buf) - 1)
		    : nd.parent >= 0 ? readlinkat(nd.parent, nd.name, buf, sizeof(buf) - 1)
				     : (errno = EINVAL, -1);
		rc = k < 0 ? -errno : 0;
	}
	if (k >= 0) {
		buf[k] = '\0';
		*target = clawmd_xstrdup(buf);
	}
	clawmd_view_node_release(&nd);
	return rc;
}
