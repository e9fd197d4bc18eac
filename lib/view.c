/* view.c - the container view: one fd-based resolver (see view.h). */
#include "view.h"
#include "util.h"

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

/* The walk: one entry per component of the path resolved so far. */
struct level {
	int fd;		  /* O_PATH; -1 virtual */
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
	if (l->fd >= 0)
		close(l->fd);
	w->res.len = l->off;
	w->res.ptr[w->res.len] = '\0';
}

static void walk_push(struct walk *w, int fd, const char *name, size_t nl, const char *host,
		      const struct stat *st)
{
	clawmd_xgrow(&w->lv, &w->cap, w->n + 1, sizeof(w->lv[0]));
	w->lv[w->n++] = (struct level){fd, w->res.len, host, *st};
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

/* Open a mount root by the host path the table gives (host-owned). */
static int open_root(const char *host, struct stat *st)
{
	int fd = open(host, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, st) < 0) {
		int e = errno;
		close(fd);
		return -e;
	}
	return fd;
}

/* Start at "/" of the view. */
static int walk_root(struct walk *w, const struct clawmd_view *v)
{
	const struct clawmd_mount *o = owner(v, "/");
	struct stat st;
	if (o && same("/", o->container)) {
		int fd = open_root(o->host, &st);
		if (fd < 0)
			return fd;
		walk_push(w, fd, NULL, 0, o->host, &st);
	} else {
		walk_push(w, -1, NULL, 0, NULL, &virtual_dir);
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

int clawmd_view_resolve(struct clawmd_view_node *out, const struct clawmd_view *v,
			const char *path, bool follow)
{
	struct walk w = {0};
	char *todo = clawmd_xstrdup(path);
	const char *p = todo;
	int hops = 0, rc;
	memset(out, 0, sizeof(*out));
	out->fd = out->parent = -1;
	clawmd_buf_put(&w.res, "", 0);
	if (path[0] != '/') {
		rc = -EINVAL;
		goto out;
	}
	if ((rc = walk_root(&w, v)) < 0)
		goto out;
	for (;;) {
		size_t cl = next_comp(&p);
		if (!cl)
			break;
		const char *comp = p;
		p += cl;
		if (v->budget && !(*v->budget)--) {
			*v->budget = 0;
			rc = -E2BIG;
			goto out;
		}
		if (cl == 1 && comp[0] == '.')
			continue;
		if (cl == 2 && comp[0] == '.' && comp[1] == '.') {
			if (w.n > 1)
				walk_pop(&w);
			continue;
		}
		if (cl > NAME_MAX) {
			rc = -ENAMETOOLONG;
			goto out;
		}
		char *cand = clawmd_xasprintf("%s/%.*s", w.res.ptr, (int)cl, comp);
		const struct clawmd_mount *o = owner(v, cand);
		const struct level *top = &w.lv[w.n - 1];
		struct stat st;
		int fd = -1;
		const char *host = NULL;
		if (o && same(cand, o->container)) {
			fd = open_root(o->host, &st);
			host = o->host;
		} else if (o && top->fd >= 0) {
			char name[NAME_MAX + 1];
			memcpy(name, comp, cl);
			name[cl] = '\0';
			fd = openat(top->fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
			fd = fd < 0 ? -errno : fd;
			if (fd >= 0 && fstat(fd, &st) < 0) {
				close(fd);
				fd = -errno;
			}
		} else {
			fd = -ENOENT;
		}
		if (fd < 0 && fd != -ENOTDIR && mount_ancestor(v, cand)) {
			free(cand);
			walk_push(&w, -1, comp, cl, NULL, &virtual_dir);
			continue;
		}
		free(cand);
		if (fd < 0) {
			rc = fd;
			goto out;
		}
		bool last = !more_comps(p);
		if (S_ISLNK(st.st_mode) && (!last || follow)) {
			char buf[PATH_MAX];
			ssize_t k = readlinkat(fd, "", buf, sizeof(buf) - 1);
			close(fd);
			if (k < 0) {
				rc = -errno;
				goto out;
			}
			if (++hops > CLAWMD_VIEW_HOPS) {
				rc = -ELOOP;
				goto out;
			}
			buf[k] = '\0';
			/* The target, then what was left: resolved in the view. */
			char *next = clawmd_xasprintf("%s/%s", buf, p);
			free(todo);
			todo = next;
			p = todo;
			if (buf[0] == '/')
				while (w.n > 1)
					walk_pop(&w);
			continue;
		}
		if (!last && !S_ISDIR(st.st_mode)) {
			close(fd);
			rc = -ENOTDIR;
			goto out;
		}
		walk_push(&w, fd, comp, cl, host, &st);
	}
	/* The result: the top of the walk, and its parent for reopening. */
	struct level *top = &w.lv[w.n - 1];
	out->fd = top->fd;
	out->st = top->st;
	out->host_root = top->host;
	out->real = clawmd_xstrdup(w.res.len ? w.res.ptr : "/");
	out->name = clawmd_xstrdup(strrchr(out->real, '/') + 1);
	top->fd = -1;
	if (!top->host && w.n > 1) {
		out->parent = w.lv[w.n - 2].fd;
		w.lv[w.n - 2].fd = -1;
	}
	rc = 0;
out:
	walk_release(&w);
	free(todo);
	return rc;
}

void clawmd_view_node_release(struct clawmd_view_node *node)
{
	if (!node)
		return;
	if (node->fd >= 0)
		close(node->fd);
	if (node->parent >= 0)
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
	int flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
	int fd;
	if (nd->parent >= 0)
		fd = openat(nd->parent, nd->name, flags | O_NOFOLLOW);
	else if (nd->host_root)
		fd = open(nd->host_root, flags);
	else
		return -ENOENT;
	if (fd < 0)
		return -errno;
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_dev != nd->st.st_dev ||
	    st.st_ino != nd->st.st_ino) {
		close(fd);
		return -EAGAIN; /* swapped meanwhile */
	}
	return fd;
}

static int read_fd(int fd, struct clawmd_buf *out, size_t max)
{
	char chunk[65536];
	size_t got = 0;
	for (;;) {
		ssize_t k = read(fd, chunk, sizeof(chunk));
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return errno == EAGAIN ? -ENODEV : -errno;
		if (k == 0)
			return 0;
		if (got + (size_t)k > max)
			return -EFBIG; /* it grew */
		clawmd_buf_put(out, chunk, (size_t)k);
		got += (size_t)k;
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
	int rc = read_fd(fd, out, max);
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
	rc = read_fd(fd, out, max);
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
	if (nd.fd >= 0 && S_ISLNK(nd.st.st_mode))
		k = readlinkat(nd.fd, "", buf, sizeof(buf) - 1);
	rc = k < 0 ? (nd.fd >= 0 && S_ISLNK(nd.st.st_mode) ? -errno : -EINVAL) : 0;
	if (k >= 0) {
		buf[k] = '\0';
		*target = clawmd_xstrdup(buf);
	}
	clawmd_view_node_release(&nd);
	return rc;
}
