/* inputs.c - the recorder of what a compose read (see inputs.h). */
#include "fs/inputs.h"
#include "fs/fs.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

void clawmd_inputs_init(struct clawmd_inputs *in)
{
	memset(in, 0, sizeof(*in));
}

static void forget(struct clawmd_inputs *in)
{
	for (size_t i = 0; i < in->n; i++)
		free(in->v[i].path);
	in->n = 0;
	in->lost = false;
}

void clawmd_inputs_release(struct clawmd_inputs *in)
{
	forget(in);
	free(in->v);
	clawmd_inputs_init(in);
}

void clawmd_inputs_start(struct clawmd_inputs *in)
{
	forget(in);
	in->on = true;
	in->since = clawmd_stamp_now();
}

void clawmd_inputs_lose(struct clawmd_inputs *in)
{
	if (in)
		in->lost = true;
}

void clawmd_ident_of(struct clawmd_ident *out, const struct stat *st)
{
	memset(out, 0, sizeof(*out));
	if (!st)
		return;
	out->mode = (uint32_t)st->st_mode;
	out->dev = (uint64_t)st->st_dev;
	out->ino = (uint64_t)st->st_ino;
	out->size = (uint64_t)st->st_size;
	out->ms = (int64_t)st->st_mtim.tv_sec;
	out->mns = (int64_t)st->st_mtim.tv_nsec;
	out->cs = (int64_t)st->st_ctim.tv_sec;
	out->cns = (int64_t)st->st_ctim.tv_nsec;
}

static struct clawmd_input *push(struct clawmd_inputs *in, int kind, int at, const char *path)
{
	clawmd_xgrow(&in->v, &in->cap, in->n + 1, sizeof(*in->v));
	struct clawmd_input *f = &in->v[in->n++];
	memset(f, 0, sizeof(*f));
	f->kind = (uint8_t)kind;
	f->at = (uint8_t)at;
	f->seq = (uint32_t)(in->n - 1);
	f->path = clawmd_xstrdup(path);
	return f;
}

void clawmd_inputs_note(struct clawmd_inputs *in, enum clawmd_input_kind kind,
			enum clawmd_input_at at, const char *path, const struct stat *st)
{
	if (!in || !in->on)
		return;
	struct clawmd_input *f = push(in, kind, at, path);
	clawmd_ident_of(&f->id, st);
	if (kind == CLAWMD_INPUT_TYPE)
		f->id = (struct clawmd_ident){.mode = f->id.mode & S_IFMT};
}

void clawmd_inputs_note_in(struct clawmd_inputs *in, enum clawmd_input_kind kind,
			   enum clawmd_input_at at, const char *dir, const char *rel,
			   const struct stat *st)
{
	if (!in || !in->on)
		return;
	char *path = clawmd_path_join(dir, rel);
	size_t dl = strlen(dir);
	clawmd_inputs_note(in, kind, at, path, st);
	if (dl < UINT16_MAX && path[dl] == '/')
		in->v[in->n - 1].base = (uint16_t)dl;
	free(path);
}

void clawmd_inputs_add(struct clawmd_inputs *in, const struct clawmd_input *f,
		       struct timespec since)
{
	if (!in || !in->on)
		return;
	struct clawmd_input *n = push(in, f->kind, f->at, f->path);
	n->id = f->id;
	n->base = f->base;
	if (since.tv_sec < in->since.tv_sec ||
	    (since.tv_sec == in->since.tv_sec && since.tv_nsec < in->since.tv_nsec))
		in->since = since;
}

/* The names' digest: order-independent, so that a listing in the
 * directory's order and one sorted give the same. */
static void names_ident(struct clawmd_ident *id, char *const *names, size_t n)
{
	uint64_t h = 0;
	for (size_t i = 0; i < n; i++)
		h += clawmd_fnv1a64(names[i], strlen(names[i]) + 1) * 0x9e3779b97f4a7c15ULL;
	*id = (struct clawmd_ident){.mode = S_IFDIR, .ino = h, .size = n};
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t l = strlen(s), sl = strlen(suffix);
	return l >= sl && !strcmp(s + l - sl, suffix);
}

static int list_suffix(char ***out, size_t *n, int dir, const char *suffix)
{
	char **v = NULL;
	size_t cap = 0, k = 0;
	DIR *d = clawmd_fs_list(dir);
	*out = NULL;
	*n = 0;
	if (!d)
		return -1;
	struct dirent *e;
	while ((e = readdir(d)))
		/* a dot-file too (nanoclaw's persona reader takes one); its
		 * callers decide which names they read */
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && ends_with(e->d_name, suffix)) {
			clawmd_xgrow(&v, &cap, k + 1, sizeof(*v));
			v[k++] = clawmd_xstrdup(e->d_name);
		}
	closedir(d);
	*out = v;
	*n = k;
	return 0;
}

int clawmd_inputs_list(char ***names, size_t *n, struct clawmd_inputs *in, int dir,
		       enum clawmd_input_at at, const char *dir_path, const char *suffix)
{
	if (list_suffix(names, n, dir, suffix) < 0)
		return -1;
	if (in && in->on) {
		char *p = !strcmp(dir_path, ".") ? clawmd_xasprintf("*%s", suffix)
						 : clawmd_xasprintf("%s/*%s", dir_path, suffix);
		names_ident(&push(in, CLAWMD_INPUT_NAMES, at, p)->id, *names, *n);
		free(p);
	}
	return 0;
}

/* A host path looked at with and without following is one place: where
 * it is no symlink, both looks see the same thing. */
static int place(int at)
{
	return at == CLAWMD_AT_HOST_NOFOLLOW ? CLAWMD_AT_HOST : at;
}

static int fact_cmp(const void *a, const void *b)
{
	const struct clawmd_input *x = a, *y = b;
	int c = place(x->at) - place(y->at);
	if (!c)
		c = strcmp(x->path, y->path);
	return c ? c : y->at - x->at; /* not following first: it is the one kept */
}

/* Two looks at one place found the same thing. */
static bool agree(const struct clawmd_input *a, const struct clawmd_input *b)
{
	if (a->kind == CLAWMD_INPUT_NAMES || b->kind == CLAWMD_INPUT_NAMES)
		return a->kind == b->kind && clawmd_input_same(a, &b->id);
	if ((a->id.mode & S_IFMT) != (b->id.mode & S_IFMT))
		return false;
	return a->kind != CLAWMD_INPUT_CONTENT || b->kind != CLAWMD_INPUT_CONTENT ||
	       clawmd_input_same(a, &b->id);
}

/* The content fact of directory `dir` (length dl) at the place of `f`. */
static const struct clawmd_input *listing_of(const struct clawmd_inputs *in,
					     const struct clawmd_input *f, size_t dl)
{
	size_t lo = 0, hi = in->n;
	char *dir = clawmd_xstrndup(f->path, dl);
	struct clawmd_input key = {.at = f->at, .path = dir};
	const struct clawmd_input *found = NULL;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = place(in->v[mid].at) - place(key.at);
		if (!c)
			c = strcmp(in->v[mid].path, dir);
		if (c < 0)
			lo = mid + 1;
		else if (c > 0)
			hi = mid;
		else {
			found = &in->v[mid];
			break;
		}
	}
	free(dir);
	return found && found->kind == CLAWMD_INPUT_CONTENT && S_ISDIR(found->id.mode) ? found : NULL;
}

/*
 * A type seen without following, of an entry of a directory whose content
 * (its identity) was looked at before it, says nothing more: an entry
 * replaced, renamed or removed changes its directory, and an inode keeps
 * its type; a change between the two looks shows in the directory's
 * identity.  One stat less a skill in copy mode.
 */
static void drop_implied(struct clawmd_inputs *in)
{
	size_t o = 0;
	for (size_t i = 0; i < in->n; i++) {
		struct clawmd_input *f = &in->v[i];
		const char *slash = strrchr(f->path, '/');
		const struct clawmd_input *dir;
		if (f->kind == CLAWMD_INPUT_TYPE && f->at != CLAWMD_AT_HOST && slash &&
		    (dir = listing_of(in, f, (size_t)(slash - f->path))) && dir->seq < f->seq)
			f->kind = 0; /* dropped below: the search needs every path */
	}
	for (size_t i = 0; i < in->n; i++)
		if (in->v[i].kind)
			in->v[o++] = in->v[i];
		else
			free(in->v[i].path);
	in->n = o;
}

bool clawmd_inputs_settle(struct clawmd_inputs *in)
{
	if (in->lost)
		return false;
	/* Sorted by place: the looks at one place are next to each other,
	 * and those in one directory too (clawmd_input_dirs_at keeps it open). */
	if (in->n > 1)
		qsort(in->v, in->n, sizeof(*in->v), fact_cmp);
	size_t o = 0;
	for (size_t i = 0; i < in->n; i++) {
		struct clawmd_input *f = &in->v[i];
		struct clawmd_input *last = o ? &in->v[o - 1] : NULL;
		if (!last || place(last->at) != place(f->at) || strcmp(last->path, f->path) ||
		    (last->at != f->at && S_ISLNK(last->id.mode))) {
			in->v[o++] = *f;
			continue;
		}
		if (!agree(last, f)) {
			/* Two looks, two answers: it changed meanwhile.  What
			 * is left is freed with the recording. */
			for (size_t k = i; k < in->n; k++)
				in->v[o++] = in->v[k];
			in->n = o;
			in->lost = true;
			return false;
		}
		/* One fact for the place: the content outweighs the type, and
		 * the look without following (first) sees a symlink swapped in. */
		if (f->kind == CLAWMD_INPUT_CONTENT && last->kind == CLAWMD_INPUT_TYPE) {
			last->kind = CLAWMD_INPUT_CONTENT;
			last->id = f->id;
			last->seq = f->seq; /* when the content was looked at */
		}
		if (!last->base)
			last->base = f->base;
		free(f->path);
	}
	in->n = o;
	drop_implied(in);
	for (size_t i = 0; i < in->n; i++) {
		const struct clawmd_ident *id = &in->v[i].id;
		if (in->v[i].kind == CLAWMD_INPUT_CONTENT && id->mode &&
		    clawmd_stamp_racy_ns(id->ms * 1000000000LL + id->mns,
					 id->cs * 1000000000LL + id->cns, id->mns || id->cns,
					 in->since))
			return false;
	}
	return true;
}

/* ---- looking again ------------------------------------------------------ */

void clawmd_input_dirs_init(struct clawmd_input_dirs *d, int group_fd)
{
	d->group = group_fd;
	d->nhost = 0;
	d->by_path = false;
}

void clawmd_input_dirs_release(struct clawmd_input_dirs *d)
{
	for (size_t i = 0; i < d->nhost; i++) {
		if (d->host[i].fd >= 0)
			close(d->host[i].fd);
		free(d->host[i].path);
	}
	d->nhost = 0;
}

/* The fd of host directory path[0, len), opened once (followed, as a stat
 * of the whole path follows it): -1 nothing there, -2 cannot tell, -3 not
 * kept (more bases than a plan has). */
static int host_dir(struct clawmd_input_dirs *d, const char *path, size_t len)
{
	for (size_t i = 0; i < d->nhost; i++)
		if (d->host[i].len == len && !memcmp(d->host[i].path, path, len))
			return d->host[i].fd;
	if (d->nhost == CLAWMD_INPUT_HOST_DIRS || d->by_path)
		return -3;
	char *dir = clawmd_xstrndup(path, len);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		fd = errno == ENOENT || errno == ENOTDIR ? -1 : -2;
	d->host[d->nhost].path = dir;
	d->host[d->nhost].len = len;
	d->host[d->nhost++].fd = fd;
	return fd;
}

static bool absent_errno(int e)
{
	return e == ENOENT || e == ENOTDIR || e == ELOOP;
}

/* The names matching the pattern that ends f->path, in its directory. */
static int look_names(struct clawmd_ident *now, const struct clawmd_input *f,
		      struct clawmd_input_dirs *d)
{
	const char *slash = strrchr(f->path, '/'), *leaf = slash ? slash + 1 : f->path;
	char **names = NULL;
	size_t n = 0;
	int dfd, rc = -1;
	if (leaf[0] != '*')
		return -1;
	char *dir = slash ? clawmd_xstrndup(f->path, (size_t)(slash - f->path)) : NULL;
	if (f->at == CLAWMD_AT_GROUP)
		dfd = dir ? openat(d->group, dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
			  : d->group;
	else
		dfd = dir ? open(*dir ? dir : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	free(dir);
	if (dfd < 0)
		return absent_errno(errno) ? 0 : -1;
	/* clawmd_fs_list() lists from the start with an fd of its own. */
	if (list_suffix(&names, &n, dfd, leaf + 1) == 0) {
		names_ident(now, names, n);
		clawmd_strv_free(names, n);
		rc = 0;
	}
	if (dfd != d->group)
		close(dfd);
	return rc;
}

/*
 * A group path is looked at from the group directory without following
 * its last component; the directories on its way are facts of their own,
 * looked at the same way before it (the facts are in order), so one
 * swapped for a symlink shows there.  A host path with a base is looked
 * at from its base directory, opened once.
 */
int clawmd_input_look(struct clawmd_ident *now, const struct clawmd_input *f,
		      struct clawmd_input_dirs *d)
{
	struct stat st;
	int rc, flags = f->at == CLAWMD_AT_HOST ? 0 : AT_SYMLINK_NOFOLLOW;
	memset(now, 0, sizeof(*now));
	if (f->kind == CLAWMD_INPUT_NAMES)
		return look_names(now, f, d);
	if (f->at == CLAWMD_AT_GROUP) {
		rc = fstatat(d->group, f->path, &st, flags);
	} else {
		int dfd = f->base ? host_dir(d, f->path, f->base) : -3;
		if (dfd == -1)
			return 0;
		if (dfd == -2)
			return -1;
		rc = dfd >= 0 ? fstatat(dfd, f->path + f->base + 1, &st, flags)
			      : fstatat(AT_FDCWD, f->path, &st, flags);
	}
	if (rc < 0)
		return absent_errno(errno) ? 0 : -1;
	clawmd_ident_of(now, &st);
	if (f->kind == CLAWMD_INPUT_TYPE)
		*now = (struct clawmd_ident){.mode = now->mode & S_IFMT};
	return 0;
}

bool clawmd_input_same(const struct clawmd_input *f, const struct clawmd_ident *now)
{
	const struct clawmd_ident *was = &f->id;
	if (f->kind == CLAWMD_INPUT_TYPE)
		return (was->mode & S_IFMT) == (now->mode & S_IFMT);
	return was->mode == now->mode && was->dev == now->dev && was->ino == now->ino &&
	       was->size == now->size && was->ms == now->ms && was->mns == now->mns &&
	       was->cs == now->cs && was->cns == now->cns;
}
