/* plan.c - the desired state of a group: which fragments exist, what each
 * holds or points to, and the composed CLAUDE.md that imports them. */
#include "clawmd.h"
#include "group/entry.h"
#include "group/group.h"
#include "fs/fs.h"
#include "compose/pass.h"
#include "compose/persona.h"
#include "compose/inline.h"
#include "fs/inputs.h"
#include "compose/flat.h"
#include "compose/twice.h"
#include "compose/seed.h"
#include "compose/words.h"

#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define SOURCE_MAX (4 * 1024 * 1024) /* a shared base or skill fragment */

void clawmd_plan_init(struct clawmd_plan *plan)
{
	memset(plan, 0, sizeof(*plan));
}

/* An entry's contents, and those of the files a copied directory holds. */
static void entry_release(struct clawmd_entry *e)
{
	for (size_t k = 0; k < e->nfiles; k++)
		entry_release(&e->files[k]);
	free(e->files);
	clawmd_strv_free(e->probed, e->nprobed);
	free(e->name);
	free(e->data);
	free(e->source);
}

void clawmd_plan_release(struct clawmd_plan *plan)
{
	if (!plan)
		return;
	for (size_t i = 0; i < plan->n; i++)
		entry_release(&plan->entries[i]);
	free(plan->entries);
	for (size_t i = 0; i < plan->nread; i++)
		entry_release(&plan->read[i]);
	free(plan->read);
	clawmd_strv_free(plan->warnings, plan->nwarnings);
	clawmd_strv_free(plan->skills, plan->nskills);
	free(plan->group);
	clawmd_plan_init(plan);
}

/* ---- sources ------------------------------------------------------------ */

static void add_entry(struct clawmd_plan *plan, char *name, enum clawmd_ftype type, char *data,
		      size_t len)
{
	clawmd_xgrow(&plan->entries, &plan->cap, plan->n + 1, sizeof(*plan->entries));
	plan->entries[plan->n++] = (struct clawmd_entry){name, type, data, len};
}

/*
 * The inlined entry of the group's runtimes that do not follow imports
 * (compose/inline.h), built beside the import-only CLAUDE.md from the same
 * parts.  In symlink mode the plan does not read the sources for itself:
 * they are read into `texts`, as copy mode would copy them.
 */
struct inliner {
	bool on;
	struct clawmd_inline in;
	struct clawmd_plan texts;
};

/*
 * Open `rel` beneath the directory `root` the way the container sees it
 * through its bind mount: a symlink inside may not lead out of the mount
 * (in the container it could not reach the host's files either), so copy
 * mode never copies a host file the container could not read.
 */
/* A source directory: its path for messages, and its fd once opened. */
struct source_dir {
	const char *path;
	int fd;
	struct clawmd_pass *pass; /* NULL, or where what is read is remembered */
	struct clawmd_inputs *in; /* where what is read is noted */
};

/* The pass's key for what plan.c read: a tag byte, then the strings
 * NUL-separated (see clawmd_pass_recall in pass.h). */
static void source_key(struct clawmd_buf *k, char tag, const char *a, const char *b)
{
	clawmd_buf_clear(k);
	clawmd_buf_putc(k, tag);
	clawmd_buf_put(k, a, strlen(a) + 1);
	if (b)
		clawmd_buf_puts(k, b);
}

static int open_beneath(struct source_dir *root, const char *rel, struct clawmd_err *err)
{
	if (root->fd < 0 &&
	    (root->fd = open(root->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return clawmd_err_sys(err, CLAWMD_EINPUT, "could not open source directory '%s'",
				      root->path);
	int dfd = root->fd;
	struct stat st;
	/* The one safe open (fs.h): a FIFO or device swapped in is never
	 * opened, a link leading out of the source directory never followed. */
	int fd = clawmd_fs_open_read(dfd, rel, CLAWMD_FS_BENEATH | CLAWMD_FS_FOLLOW, &st);
	if (fd == -ENOSYS) {
		/* Kernels before 5.6: resolve, then check the prefix. */
		char *full = clawmd_path_join(root->path, rel), *rp = realpath(full, NULL);
		char *rr = realpath(root->path, NULL);
		size_t n = rr ? strlen(rr) : 0;
		fd = -EXDEV;
		if (rp && rr && !strncmp(rp, rr, n) && rp[n] == '/')
			fd = clawmd_fs_open_read(AT_FDCWD, rp, CLAWMD_FS_NOFOLLOW, &st);
		free(full);
		free(rp);
		free(rr);
	}
	if (fd == -EXDEV)
		clawmd_err_set(err, CLAWMD_EINPUT, "source '%s/%s' leads outside '%s'; refusing to copy it",
			       root->path, rel, root->path);
	else if (fd == -ENODEV || fd == -EISDIR || fd == -ELOOP)
		clawmd_err_set(err, CLAWMD_EINPUT,
			       "source '%s/%s' is not a regular file of at most %d bytes", root->path,
			       rel, SOURCE_MAX);
	else if (fd < 0)
		clawmd_err_set(err, CLAWMD_EINPUT, "could not read source '%s/%s': %s", root->path,
			       rel, strerror(-fd));
	return fd < 0 ? -1 : fd;
}

/*
 * A source read beneath its root (copy mode): openat2() follows a symlink
 * that stays inside the root and refuses one that leads out, which no stat
 * by path can tell apart.  So each directory on the way and the file are
 * looked at without following, and a symlink among them means no record
 * (each compose reads the source again).  `read`: the fstat of what was
 * read; NULL when the read failed (then what is there, or nothing).
 */
static void note_beneath(struct clawmd_inputs *in, const struct source_dir *root, const char *rel,
			 const struct stat *read)
{
	if (!in || !in->on)
		return;
	char *full = clawmd_path_join(root->path, rel);
	char *sub = full + strlen(root->path) + 1; /* rel, in full */
	struct stat st;
	bool there = true;
	for (char *slash = sub; there && (slash = strchr(slash, '/')); *slash++ = '/') {
		*slash = '\0';
		there = lstat(full, &st) == 0;
		if (there && S_ISLNK(st.st_mode))
			clawmd_inputs_lose(in);
		clawmd_inputs_note_in(in, CLAWMD_INPUT_TYPE, CLAWMD_AT_HOST_NOFOLLOW, root->path, sub,
				      there ? &st : NULL);
	}
	if (there) {
		there = lstat(full, &st) == 0;
		if ((there && S_ISLNK(st.st_mode)) ||
		    (read && (!there || st.st_dev != read->st_dev || st.st_ino != read->st_ino)))
			clawmd_inputs_lose(in);
		clawmd_inputs_note_in(in, CLAWMD_INPUT_CONTENT, CLAWMD_AT_HOST_NOFOLLOW, root->path, sub,
				      read ? read : there ? &st : NULL);
	}
	free(full);
}

/* Read a source for copy mode: `rel` beneath `root`, or the file `rel`
 * itself when root is NULL (the shared base, a mount of its own). */
static int read_source(char **data, size_t *len, struct source_dir *root, const char *rel,
		       struct clawmd_pass *pass, struct clawmd_inputs *in, struct clawmd_err *err)
{
	struct clawmd_buf buf = CLAWMD_BUF_INIT, key = CLAWMD_BUF_INIT;
	int rc = 0;
	const char *path = rel, *got;
	size_t from = in ? in->n : 0;
	if (pass) {
		source_key(&key, CLAWMD_PASS_SOURCE, root ? root->path : "", rel);
		if (clawmd_pass_recall(pass, key.ptr, key.len, &got, len, in)) {
			*data = clawmd_xmalloc(*len + 1); /* it may hold NUL bytes */
			memcpy(*data, got, *len + 1);
			clawmd_buf_release(&key);
			return 0;
		}
	}
	struct stat st;
	int fd = root ? open_beneath(root, rel, err)
		      : clawmd_fs_open_read(AT_FDCWD, rel, CLAWMD_FS_FOLLOW, &st);
	if (fd < 0) {
		clawmd_buf_release(&key);
		if (root) {
			note_beneath(in, root, rel, NULL);
			return err->code;
		}
		if (fd == -ENODEV || fd == -EISDIR)
			return clawmd_err_set(err, CLAWMD_EINPUT,
					      "source '%s' is not a regular file of at most %d bytes",
					      path, SOURCE_MAX);
		errno = -fd;
		return clawmd_err_sys(err, CLAWMD_EINPUT, "could not read source '%s'", path);
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > SOURCE_MAX) {
		rc = clawmd_err_set(err, CLAWMD_EINPUT,
				    "source '%s' is not a regular file of at most %d bytes", path,
				    SOURCE_MAX);
		goto out_close;
	}
	if (root)
		note_beneath(in, root, rel, &st);
	else
		clawmd_inputs_note(in, CLAWMD_INPUT_CONTENT, CLAWMD_AT_HOST, rel, &st);
	clawmd_buf_grow(&buf, (size_t)st.st_size);
	for (;;) {
		clawmd_buf_grow(&buf, 4096);
		ssize_t n = read(fd, buf.ptr + buf.len, buf.cap - buf.len - 1);
		if (n < 0) {
			rc = clawmd_err_sys(err, CLAWMD_EINPUT, "could not read source '%s'", path);
			goto out_close;
		}
		if (n == 0)
			break;
		buf.len += (size_t)n;
		if (buf.len > SOURCE_MAX) {
			rc = clawmd_err_set(err, CLAWMD_EINPUT, "source '%s' grew past %d bytes", path,
					    SOURCE_MAX);
			goto out_close;
		}
	}
	buf.ptr[buf.len] = '\0';
	clawmd_pass_remember(pass, key.ptr, key.len, buf.ptr, buf.len, in, from);
	*len = buf.len;
	*data = clawmd_buf_detach(&buf);
out_close:
	close(fd);
	clawmd_buf_release(&buf);
	clawmd_buf_release(&key);
	return rc;
}

/* The type of the host path `path` (followed; 0: nothing there), noted. */
static mode_t host_type(struct clawmd_inputs *in, const char *path)
{
	struct stat st;
	bool there = stat(path, &st) == 0;
	clawmd_inputs_note(in, CLAWMD_INPUT_TYPE, CLAWMD_AT_HOST, path, there ? &st : NULL);
	return there ? st.st_mode & S_IFMT : 0;
}

/* Whether `name` in the host directory `dfd` (at `dir`) is a regular file
 * (followed), noted. */
static bool is_file_at(struct clawmd_inputs *in, int dfd, const char *dir, const char *name)
{
	struct stat st;
	bool there = fstatat(dfd, name, &st, 0) == 0;
	clawmd_inputs_note_in(in, CLAWMD_INPUT_TYPE, CLAWMD_AT_HOST, dir, name, there ? &st : NULL);
	return there && S_ISREG(st.st_mode);
}

/* Sorted names of the entries of `dir` for which `keep` returns a name
 * (allocated); a missing directory is an empty list.  `keep` looks
 * relative to the directory's fd: one path walk for the whole listing.
 * The directory's identity vouches for its entries (any added, removed or
 * renamed changes it); what `keep` looks at below them is noted by it. */
static char **list_dir(size_t *n, const char *dir,
		       char *(*keep)(struct clawmd_inputs *in, int dfd, const char *dir, const char *name),
		       struct clawmd_pass *pass, enum clawmd_pass_tag tag, struct clawmd_inputs *in)
{
	char **v = NULL;
	size_t cap = 0, len, from = in->n;
	struct clawmd_buf key = CLAWMD_BUF_INIT, all = CLAWMD_BUF_INIT;
	const char *got;
	struct stat st;
	*n = 0;
	source_key(&key, tag, dir, NULL);
	if (clawmd_pass_recall(pass, key.ptr, key.len, &got, &len, in)) {
		for (const char *p = got; p < got + len; p += strlen(p) + 1) {
			clawmd_xgrow(&v, &cap, *n + 1, sizeof(*v));
			v[(*n)++] = clawmd_xstrdup(p);
		}
		clawmd_buf_release(&key);
		return v ? v : clawmd_xcalloc(1, sizeof(*v));
	}
	DIR *d = opendir(dir);
	if (!d) {
		if (errno == ENOENT || errno == ENOTDIR)
			clawmd_inputs_note(in, CLAWMD_INPUT_CONTENT, CLAWMD_AT_HOST, dir, NULL);
		else
			clawmd_inputs_lose(in);
		clawmd_buf_release(&key);
		return NULL;
	}
	if (fstat(dirfd(d), &st) == 0)
		clawmd_inputs_note(in, CLAWMD_INPUT_CONTENT, CLAWMD_AT_HOST, dir, &st);
	else
		clawmd_inputs_lose(in);
	struct dirent *e;
	while ((e = readdir(d))) {
		char *name = keep(in, dirfd(d), dir, e->d_name);
		if (!name)
			continue;
		clawmd_xgrow(&v, &cap, *n + 1, sizeof(*v));
		v[(*n)++] = name;
	}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof(*v), clawmd_strcmp_ptr);
	for (size_t i = 0; i < *n; i++)
		clawmd_buf_put(&all, v[i], strlen(v[i]) + 1);
	clawmd_pass_remember(pass, key.ptr, key.len, all.ptr ? all.ptr : "", all.len, in, from);
	clawmd_buf_release(&all);
	clawmd_buf_release(&key);
	return v;
}

/* A skill "ships a fragment" when <skills>/<name>/instructions.md exists. */
static char *skill_with_fragment(struct clawmd_inputs *in, int dfd, const char *dir,
				 const char *name)
{
	if (name[0] == '.' || !clawmd_name_valid(name, strlen(name)))
		return NULL;
	char p[128];
	snprintf(p, sizeof(p), "%s/instructions.md", name);
	return is_file_at(in, dfd, dir, p) ? clawmd_xstrdup(name) : NULL;
}

static char *module_fragment(struct clawmd_inputs *in, int dfd, const char *dir, const char *name)
{
	static const char suffix[] = ".instructions.md";
	size_t len = strlen(name), sl = sizeof(suffix) - 1;
	if (len <= sl || strcmp(name + len - sl, suffix) || !clawmd_name_valid(name, len - sl))
		return NULL;
	return is_file_at(in, dfd, dir, name) ? clawmd_xstrndup(name, len - sl) : NULL;
}

/* One fragment taken from a host source: a symlink to its container path,
 * or in copy mode a regular file with its content. */
static int add_source(struct clawmd_plan *plan, const struct clawmd_layout *lay, char *name,
		      struct source_dir *root, const char *host, const char *ct,
		      struct clawmd_pass *pass, struct clawmd_inputs *in, struct clawmd_err *err)
{
	if (lay->mode == CLAWMD_MODE_SYMLINK) {
		add_entry(plan, name, CLAWMD_FT_LINK, clawmd_xstrdup(ct), strlen(ct));
		return 0;
	}
	char *data = NULL;
	size_t len = 0;
	int rc = read_source(&data, &len, root, host, pass, in, err);
	if (rc < 0) {
		free(name);
		return rc;
	}
	add_entry(plan, name, CLAWMD_FT_FILE, data, len);
	plan->entries[plan->n - 1].source = root ? clawmd_path_join(root->path, host)
						 : clawmd_xstrdup(host);
	return 0;
}

/* ---- copy mode: a fragment's relative imports ---------------------------- */

/*
 * Through a symlink (with external includes approved), Claude Code resolves
 * a fragment's relative imports against the directory of the fragment's
 * realpath: /app/skills/<skill>/ in the container, so "@./details.md" loads
 * the skill's details.md.  A copy of the fragment at
 * .claude-fragments/skill-<skill>.md would resolve it against
 * .claude-fragments/ instead, and the import would silently load nothing.
 *
 * Two ways out: rewrite the imports in the copy, or copy the files beside
 * it.  Rewriting changes the text the model reads (the memory string holds
 * the fragment's content, import lines included), so clawmd copies: a
 * fragment with a relative import that stays inside its skill directory
 * (or, for a module, the modules directory) becomes the directory
 * .claude-fragments/<kind>-<item>/ holding the fragment under its own name
 * and every file it imports from inside that directory, recursively, at the
 * same relative paths.  The entry imports the fragment there
 * (@./.claude-fragments/skill-<skill>/instructions.md), so each relative
 * import resolves to the copy of the file it names, and Claude Code loads
 * the same contents in the same order, byte for byte, in every release and
 * without approval (every realpath stays inside the working directory).
 * Only the paths shown in "Contents of PATH" differ, as they differ for
 * every copied fragment: the group's copy instead of the /app source.
 *
 * Bounds, as the loader has them: text extensions only (Claude Code skips
 * the others in both modes), three levels below the fragment (deeper
 * files are past the loader's depth limit of 5 from CLAUDE.md), 64 files
 * and 4 MiB per fragment.  Imports that leave the directory, absolute and
 * ~/ imports are left alone: they resolve the same way, or fail the same
 * way, in both modes (check reports them at the source).  A file that
 * cannot be read beneath the mount (missing, a symlink leading out) is not
 * copied, as the container could not read it either.
 */
#define CLOSURE_FILES_MAX 64
#define CLOSURE_BYTES_MAX (4 * 1024 * 1024)
#define CLOSURE_LEVELS 3

struct closure {
	struct source_dir *root;
	const char *dir;	/* the item's directory under root ("" for modules) */
	struct clawmd_entry *files; /* names relative to dir; [0] is the fragment */
	size_t n, cap, bytes;
	size_t cur;		/* the file being scanned */
	bool any;		/* a relative import stays inside dir */
	char **probed;		/* host paths looked for and not copied */
	size_t nprobed, pcap;
};

/* `base`'s directory joined with `rel`, with "." and ".." resolved; NULL
 * when it climbs out of the item's directory or names the directory. */
static char *closure_resolve(const char *base, const char *rel)
{
	struct clawmd_buf b = CLAWMD_BUF_INIT;
	const char *slash = strrchr(base, '/');
	if (slash)
		clawmd_buf_put(&b, base, (size_t)(slash - base));
	clawmd_buf_putc(&b, '/');
	clawmd_buf_puts(&b, rel);
	/* Normalise in place: components separated by '/'. */
	char *out = clawmd_xcalloc(1, b.len + 1);
	size_t o = 0;
	for (char *p = b.ptr; *p;) {
		size_t n = strcspn(p, "/");
		if ((n == 1 && p[0] == '.') || n == 0) {
			/* nothing */
		} else if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (!o) {
				free(out);
				clawmd_buf_release(&b);
				return NULL;
			}
			while (o && out[o - 1] != '/')
				o--;
			if (o)
				o--; /* the separator */
		} else {
			if (o)
				out[o++] = '/';
			memcpy(out + o, p, n);
			o += n;
		}
		p += n + (p[n] == '/');
	}
	out[o] = '\0';
	clawmd_buf_release(&b);
	if (!o || o > 1024) {
		free(out);
		return NULL;
	}
	return out;
}

static int closure_import(size_t off, size_t len, const char *path, void *payload)
{
	struct closure *c = payload;
	const char *p = path;
	size_t pl = strlen(p);
	while (*p == ' ' || *p == '\t')
		p++, pl--;
	while (pl && (p[pl - 1] == ' ' || p[pl - 1] == '\t'))
		pl--;
	if (!pl || p[0] == '/' || p[0] == '~')
		return 0;
	char *rel = clawmd_xstrndup(p, pl);
	char *name = closure_resolve(c->files[c->cur].name, rel);
	free(rel);
	if (!name)
		return 0;
	c->any = true;
	bool have = false;
	for (size_t i = 0; i < c->n && !have; i++)
		have = !strcmp(c->files[i].name, name);
	if (have || !clawmd_text_extension(name) || c->n >= CLOSURE_FILES_MAX) {
		free(name);
		return 0;
	}
	struct clawmd_err scratch = CLAWMD_ERR_INIT;
	char *src = *c->dir ? clawmd_xasprintf("%s/%s", c->dir, name) : clawmd_xstrdup(name);
	char *data = NULL;
	size_t dlen = 0;
	if (read_source(&data, &dlen, c->root, src, c->root->pass, c->root->in, &scratch) < 0 ||
	    c->bytes + dlen > CLOSURE_BYTES_MAX) {
		clawmd_xgrow(&c->probed, &c->pcap, c->nprobed + 1, sizeof(*c->probed));
		c->probed[c->nprobed++] = clawmd_path_join(c->root->path, src);
		free(data);
		free(src);
		free(name);
		return 0;
	}
	c->bytes += dlen;
	clawmd_xgrow(&c->files, &c->cap, c->n + 1, sizeof(*c->files));
	c->files[c->n++] = (struct clawmd_entry){.name = name, .type = CLAWMD_FT_FILE,
						 .data = data, .len = dlen,
						 .source = clawmd_path_join(c->root->path, src)};
	free(src);
	return 0;
}

/*
 * Copy mode: the fragment `rel` (beneath root) alone, as a regular file
 * named `name`, or with its closure as the directory `dirname` (see
 * above).  The import line for the entry goes into *line.
 */
static int add_copied_fragment(struct clawmd_plan *plan, char **line,
			       struct source_dir *root, const char *rel, const char *name,
			       const char *dirname, struct clawmd_err *err)
{
	const char *slash = strrchr(rel, '/');
	char *dir = slash ? clawmd_xstrndup(rel, (size_t)(slash - rel)) : clawmd_xstrdup("");
	struct closure c = {.root = root, .dir = dir};
	char *data = NULL;
	size_t len = 0;
	int rc = read_source(&data, &len, root, rel, root->pass, root->in, err);
	if (rc < 0)
		goto out;
	clawmd_xgrow(&c.files, &c.cap, 1, sizeof(*c.files));
	c.files[c.n++] = (struct clawmd_entry){.name = clawmd_xstrdup(slash ? slash + 1 : rel),
					       .type = CLAWMD_FT_FILE, .data = data, .len = len,
					       .source = clawmd_path_join(root->path, rel)};
	c.bytes = len;
	/* Breadth first, level by level: files[lo, hi) are one level.  The
	 * files of the last level are copied but not scanned: what they
	 * import would be past the loader's depth limit. */
	for (size_t level = 0, lo = 0, hi = 1; level < CLOSURE_LEVELS && lo < hi; level++) {
		for (c.cur = lo; c.cur < hi; c.cur++)
			if (memchr(c.files[c.cur].data, '@', c.files[c.cur].len)) /* else no import */
				clawmd_md_imports(c.files[c.cur].data, c.files[c.cur].len,
						  closure_import, &c);
		lo = hi;
		hi = c.n;
	}
	/* An item named "*.md" would give a directory the name of another
	 * item's fragment file: it keeps the single copy. */
	size_t dl = strlen(dirname);
	if (!c.any || (dl > 3 && !strcmp(dirname + dl - 3, ".md"))) {
		struct clawmd_entry *f = &c.files[0];
		add_entry(plan, clawmd_xstrdup(name), CLAWMD_FT_FILE, f->data, f->len);
		plan->entries[plan->n - 1].source = f->source;
		free(f->name);
		for (size_t i = 1; i < c.n; i++)
			entry_release(&c.files[i]);
		c.n = 0;
		*line = clawmd_xasprintf("@./%s\n", name);
		goto out;
	}
	add_entry(plan, clawmd_xstrdup(dirname), CLAWMD_FT_DIR, NULL, 0);
	plan->entries[plan->n - 1].source = *dir ? clawmd_path_join(root->path, dir)
						 : clawmd_xstrdup(root->path);
	plan->entries[plan->n - 1].files = c.files;
	plan->entries[plan->n - 1].nfiles = c.n;
	plan->entries[plan->n - 1].probed = c.probed;
	plan->entries[plan->n - 1].nprobed = c.nprobed;
	c.probed = NULL;
	c.nprobed = 0;
	*line = clawmd_xasprintf("@./%s/%s\n", dirname, c.files[0].name);
	c.files = NULL;
	c.n = 0;
out:
	free(c.files);
	clawmd_strv_free(c.probed, c.nprobed);
	free(dir);
	return rc;
}

/*
 * Building a plan: one phase a function, over what they share.  Each phase
 * adds its entries in import order and its import lines to `body`; the
 * inliner gets the same parts for the runtimes that follow no import.
 */
struct build {
	struct clawmd_plan *out;
	struct clawmd_group *g;
	const struct clawmd_layout *lay;
	const struct clawmd_group_config *cfg;
	struct clawmd_dir shown;  /* the group directory, under the name messages show */
	struct clawmd_pass *pass;
	struct clawmd_inputs *in; /* what the compose under way read (fs/inputs.h) */
	clawmd_runtimes runtimes;
	struct clawmd_buf body;	  /* the entry's import lines */
	bool local_imported;	  /* body imports CLAUDE.local.md (compose/seed.h) */
	struct inliner il;
	/* Opened on first use, once for all the fragments they hold. */
	struct source_dir skills_dir, modules_dir;
	struct clawmd_err *err;
};

/* A skill or module fragment, "<kind>-<item>.md", from <item><suffix> in
 * `root` (seen at the same place under `ct_root`), and its import line. */
static int add_fragment(struct build *b, const char *kind, const char *item,
			struct source_dir *root, const char *ct_root, const char *suffix)
{
	struct clawmd_plan *plan = b->out;
	struct inliner *il = &b->il;
	char *rel = clawmd_xasprintf("%s%s", item, suffix);
	char *ct = clawmd_path_join(ct_root, rel);
	char *ct_dir = clawmd_path_dir(ct);
	char *name = clawmd_xasprintf(CLAWMD_FRAGMENTS_DIR "/%s-%s.md", kind, item);
	char *dirname = clawmd_xasprintf(CLAWMD_FRAGMENTS_DIR "/%s-%s", kind, item), *line = NULL;
	int rc;
	if (b->lay->mode == CLAWMD_MODE_COPY) {
		rc = add_copied_fragment(plan, &line, root, rel, name, dirname, b->err);
		if (line)
			clawmd_buf_puts(&b->body, line);
		/* caliban follows only imports that start a line */
		if (rc == 0 && line && clawmd_seed_runs_caliban(b->lay, b->runtimes))
			clawmd_seed_hoist(&b->body, &plan->entries[plan->n - 1], dirname);
		if (rc == 0 && il->on)
			clawmd_inline_add_entry(&il->in, ct, ct_dir, &plan->entries[plan->n - 1]);
	} else {
		clawmd_buf_printf(&b->body, "@./%s\n", name);
		rc = add_source(plan, b->lay, clawmd_xstrdup(name), root, rel, ct, root->pass, root->in,
				b->err);
		/* the text the inlined entry needs: read as copy mode reads it */
		if (rc == 0 && il->on &&
		    (rc = add_copied_fragment(&il->texts, &line, root, rel, name, dirname, b->err)) == 0)
			clawmd_inline_add_entry(&il->in, ct, ct_dir,
						&il->texts.entries[il->texts.n - 1]);
	}
	free(line);
	free(dirname);
	free(name);
	free(ct_dir);
	free(rel);
	free(ct);
	return rc;
}

/*
 * A file of the group for the inlined entry (an optional file, the agent's
 * memory): read without following a symlink, defused, as the container
 * sees it at `ct`.  Anything but a regular file is left out, with a
 * warning for what is there and is not one.
 */
static void inline_group_file(struct build *b, const char *name)
{
	struct clawmd_buf text = CLAWMD_BUF_INIT, defused = CLAWMD_BUF_INIT;
	struct clawmd_err scratch = CLAWMD_ERR_INIT;
	struct stat st;
	int rc = clawmd_fs_read_st(&text, &st, &b->shown, name, SOURCE_MAX, &scratch);
	clawmd_inputs_note(b->in, CLAWMD_INPUT_CONTENT, CLAWMD_AT_GROUP, name,
			   st.st_mode ? &st : NULL);
	if (rc < 0) {
		clawmd_plan_warn(b->out, "%s/%s: left out of the inlined entry: %s", b->shown.path, name,
		     scratch.msg);
	} else if (rc == 0 && text.len) {
		b->out->ndefused += clawmd_defuse_imports(&defused, text.ptr, text.len);
		char *ct = clawmd_path_join(b->lay->ct_group, name);
		clawmd_inline_add(&b->il.in, ct, defused.ptr, defused.len);
		free(ct);
	}
	clawmd_buf_release(&text);
	clawmd_buf_release(&defused);
}

/*
 * Warnings about the layout rather than the group.  They are the same text
 * for every group, so a caller composing many groups prints each once
 * (compose --all says it once per run).
 */
static void layout_warnings(struct build *b)
{
	const struct clawmd_layout *lay = b->lay;
	struct clawmd_plan *plan = b->out;
	struct clawmd_buf all = CLAWMD_BUF_INIT;
	size_t len, before = plan->nwarnings, from = b->in->n;
	const char *got;
	const char key[] = {CLAWMD_PASS_WARNINGS, '\0'};
	if (clawmd_pass_recall(b->pass, key, sizeof(key), &got, &len, b->in)) {
		for (const char *p = got; p < got + len; p += strlen(p) + 1)
			clawmd_plan_warn(plan, "%s", p);
		return;
	}
	/* Claude Code 2.1.232 and later drop an import whose realpath leaves
	 * the working directory unless external includes were approved: every
	 * symlinked fragment (claude-code-memory.md section 15). */
	if (lay->mode == CLAWMD_MODE_SYMLINK && clawmd_release_realpath_gate(&lay->claude) &&
	    !lay->approve_external)
		clawmd_plan_warn(plan, "symlink mode: Claude Code %u.%u.%u (claude_version) silently drops the "
			   "symlinked shared base and skill and module fragments unless external "
			   "includes are approved; set \"mode\": \"copy\" in clawmd.json (or "
			   "\"approve_external\": true if the host approves them)",
		     lay->claude.major, lay->claude.minor, lay->claude.patch);
	/* nanoclaw's tree without the preset: only the shared base would be
	 * composed, silently. */
	char *nano = clawmd_path_join(lay->root, "container/skills");
	if (!host_type(b->in, lay->skills) && host_type(b->in, nano) == S_IFDIR) {
		char *shown = clawmd_layout_shown(lay, lay->skills);
		clawmd_plan_warn(plan, "no skills directory '%s', but 'container/skills' exists: this looks "
			   "like a nanoclaw tree; compose with --preset nanoclaw (or \"preset\": "
			   "\"nanoclaw\" in clawmd.json)",
		     shown);
		free(shown);
	}
	free(nano);
	for (size_t i = before; i < plan->nwarnings; i++)
		clawmd_buf_put(&all, plan->warnings[i], strlen(plan->warnings[i]) + 1);
	clawmd_pass_remember(b->pass, key, sizeof(key), all.ptr ? all.ptr : "", all.len, b->in, from);
	clawmd_buf_release(&all);
}

static bool module_selected(const struct clawmd_group_config *cfg, const char *name)
{
	for (size_t k = 0; !cfg->all_modules && k < cfg->nmodules; k++)
		if (!strcmp(cfg->modules[k], name))
			return true;
	return cfg->all_modules;
}

static void warn_persona(void *payload, const char *msg)
{
	clawmd_plan_warn(payload, "%s", msg);
}

/* Whether runtime `c` takes the text of group file `name` whole:
 * its entry or a file it reads by itself. */
/* The entry file of runtime `c` (not yet in the plan, and not CLAUDE.md).
 * Every runtime of the group reading this file decides its form: inlined
 * if one of them does not follow imports; its memory inlined unless each
 * of them reads CLAUDE.local.md itself; within the least cap among them. */
static void add_runtime_entry(struct build *b, const struct clawmd_contract *c)
{
	struct clawmd_plan *out = b->out;
	struct clawmd_group *g = b->g;
	const struct clawmd_layout *lay = g->lay;
	const char *name = c->entry;
	struct clawmd_buf file = CLAWMD_BUF_INIT;
	bool inlined = false, memory = false;
	size_t limit = 0;
	const char *who = c->title;
	int nrt = clawmd_layout_nruntimes(lay);
	for (int o = 0; o < nrt; o++) {
		const struct clawmd_contract *d = clawmd_layout_contract(lay, o);
		if (!(b->runtimes & (1u << o)) || !d || !d->entry || strcmp(d->entry, name))
			continue;
		inlined |= !d->imports;
		memory |= !clawmd_runtime_list_has(d->reads, CLAWMD_LOCAL_NAME);
		if (d->cap && (!limit || d->cap < limit))
			limit = d->cap, who = d->title;
	}
	if (!inlined) {
		struct clawmd_buf imports = CLAWMD_BUF_INIT;
		clawmd_buf_put(&imports, b->body.ptr, b->body.len);
		if (!b->local_imported && memory)
			clawmd_buf_puts(&imports, "@./" CLAWMD_LOCAL_NAME "\n");
		char hex[17];
		clawmd_entry_digest(hex, imports.ptr, imports.len);
		clawmd_buf_printf(&file, "%s%s -->\n%s", CLAWMD_HEADER, hex, imports.ptr);
		clawmd_buf_release(&imports);
	} else {
		struct clawmd_buf note = CLAWMD_BUF_INIT;
		char *path = clawmd_path_join(g->shown, name);
		clawmd_inline_finish(&file, &note, &b->il.in, memory, path, who, limit);
		if (note.len)
			clawmd_plan_warn(out, "%s", note.ptr);
		clawmd_buf_release(&note);
		free(path);
	}
	size_t len = file.len;
	add_entry(out, clawmd_xstrdup(name), CLAWMD_FT_FILE, clawmd_buf_detach(&file), len);
}

/*
 * The entry file of each runtime in `runtimes` but Claude Code, once per
 * file (Codex and OpenCode share AGENTS.md): for a runtime that follows
 * imports, CLAUDE.md's imports, with the agent's memory when CLAUDE.md
 * leaves it to Claude Code to load; else the inlined entry, within the
 * least cap of the runtimes reading it.  The contracts decide: which file,
 * whether its readers follow imports, and which of them read the agent's
 * memory by themselves (Cursor reads CLAUDE.local.md: its AGENTS.md leaves
 * the memory out, so the agent never gets it twice).
 */
static int add_runtime_entries(struct build *b)
{
	struct clawmd_plan *out = b->out;
	struct clawmd_group *g = b->g;
	const struct clawmd_layout *lay = g->lay;
	clawmd_runtimes runtimes = b->runtimes;
	int rc = 0, nrt = clawmd_layout_nruntimes(lay);
	for (int rt = 0; rt < nrt && rc == 0; rt++) {
		const struct clawmd_contract *c = clawmd_layout_contract(lay, rt);
		if (!(runtimes & (1u << rt)) || !c || !c->entry)
			continue;
		const char *name = c->entry;
		if (c->inside && lay->mode == CLAWMD_MODE_SYMLINK) {
			char *cj = clawmd_group_config_shown(g, false);
			rc = clawmd_err_set(b->err, CLAWMD_EINPUT,
					    "%s: %s follows no import whose target is outside the working "
					    "directory, and symlink mode links the shared base and fragments "
					    "there from the container's /app: compose this layout in copy "
					    "mode (\"mode\": \"copy\" in clawmd.json, or --mode copy)", cj,
					    c->title);
			free(cj);
			break;
		}
		/* CLAUDE.md is composed for every group, import-only; a runtime
		 * reading it that does not load CLAUDE.local.md by itself gets
		 * the memory only through the entry's import. */
		if (!strcmp(name, CLAWMD_ENTRY_NAME)) {
			if (!b->local_imported && !clawmd_runtime_list_has(c->reads, CLAWMD_LOCAL_NAME))
				clawmd_plan_warn(out, "%s/%s: %s does not read %s by itself and the entry does not "
					  "import it: the agent's memory does not reach it; set "
					  "\"import_local\": true in clawmd.json",
				     g->shown, CLAWMD_ENTRY_NAME, c->title, CLAWMD_LOCAL_NAME);
			continue;
		}
		bool done = false;
		for (size_t i = 0; i < out->n && !done; i++)
			done = !strcmp(out->entries[i].name, name);
		if (!done)
			add_runtime_entry(b, c);
	}
	return rc;
}

/* The inputs every phase rests on: the config, the runtimes, the layout's
 * warnings and the config's. */
static int plan_inputs(struct build *b)
{
	const struct clawmd_dir *gd;
	enum clawmd_runtime first;
	int rc;
	if ((rc = clawmd_group_config(&b->cfg, b->g, b->err)) < 0 ||
	    (rc = clawmd_group_dir(&gd, b->g, b->err)) < 0 ||
	    (rc = clawmd_group_runtimes(&b->runtimes, &first, b->g, b->err)) < 0)
		return rc;
	b->shown = (struct clawmd_dir){gd->fd, b->g->shown};
	for (int rt = 0; rt < clawmd_layout_nruntimes(b->lay); rt++) {
		const struct clawmd_contract *c = clawmd_layout_contract(b->lay, rt);
		b->il.on |= (b->runtimes & (1u << rt)) && c && c->entry && !c->imports;
	}
	layout_warnings(b);
	for (size_t i = 0; i < b->cfg->nunknown; i++)
		clawmd_plan_warn(b->out, "%s", b->cfg->warnings[i]);
	if (b->cfg->dup_warning)
		clawmd_plan_warn(b->out, "%s", b->cfg->dup_warning);
	for (size_t i = 0; i < b->cfg->nruntime_names; i++) {
		char *msg = clawmd_group_unknown_runtime(b->g, i);
		if (msg)
			clawmd_plan_warn(b->out, "%s", msg);
		free(msg);
	}
	return 0;
}

/* The persona, inlined, imported before everything else: nanoclaw puts it
 * at the top of the system prompt.  Defused as inline MCP instructions
 * are: the agent writes these files. */
static int plan_persona(struct build *b)
{
	struct clawmd_buf text = CLAWMD_BUF_INIT;
	int rc = 0;
	if (!b->lay->persona)
		return 0;
	if ((rc = clawmd_persona_build(&text, &b->out->ndefused, &b->shown, b->g->shown, b->in,
				       warn_persona, b->out, b->err)) < 0)
		goto out;
	if (text.len) {
		size_t plen = text.len;
		if (b->il.on) {
			char *from = clawmd_xasprintf("%s/*" CLAWMD_PREPEND_SUFFIX, b->lay->ct_group);
			clawmd_inline_add(&b->il.in, from, text.ptr, text.len);
			free(from);
		}
		add_entry(b->out, clawmd_xstrdup(CLAWMD_FRAGMENTS_DIR "/" CLAWMD_PERSONA_FRAGMENT),
			  CLAWMD_FT_FILE, clawmd_buf_detach(&text), plen);
		clawmd_buf_puts(&b->body, "@./" CLAWMD_FRAGMENTS_DIR "/" CLAWMD_PERSONA_FRAGMENT "\n");
	}
out:
	clawmd_buf_release(&text);
	return rc;
}

/* The shared base: a file (within a pass, found once). */
static int plan_base(struct build *b)
{
	const struct clawmd_layout *lay = b->lay;
	struct clawmd_buf key = CLAWMD_BUF_INIT;
	const char *got;
	size_t glen, from = b->in->n;
	int rc = 0;
	source_key(&key, CLAWMD_PASS_BASE, lay->base, NULL);
	if (!clawmd_pass_recall(b->pass, key.ptr, key.len, &got, &glen, b->in) &&
	    host_type(b->in, lay->base) != S_IFREG) {
		rc = clawmd_err_set(b->err, CLAWMD_EINPUT,
				    "shared base '%s' is missing; set \"base\" in clawmd.json or --base",
				    lay->base);
		goto out;
	}
	clawmd_pass_remember(b->pass, key.ptr, key.len, "", 0, b->in, from);
	const char *shared = lay->mode == CLAWMD_MODE_SYMLINK ? CLAWMD_SHARED_LINK : CLAWMD_SHARED_NAME;
	if ((rc = add_source(b->out, lay, clawmd_xstrdup(shared), NULL, lay->base, lay->ct_base,
			     b->pass, b->in, b->err)) < 0)
		goto out;
	clawmd_buf_printf(&b->body, "@./%s\n", shared);
	if (b->il.on && lay->mode == CLAWMD_MODE_COPY) {
		clawmd_inline_add_entry(&b->il.in, lay->ct_base, NULL, &b->out->entries[b->out->n - 1]);
	} else if (b->il.on) {
		char *data = NULL;
		size_t dlen = 0;
		if ((rc = read_source(&data, &dlen, NULL, lay->base, b->pass, b->in, b->err)) < 0)
			goto out;
		clawmd_inline_add(&b->il.in, lay->ct_base, data, dlen);
		free(data);
	}
out:
	clawmd_buf_release(&key);
	return rc;
}

/* The skills container.json lists, each shipping a fragment, sorted; an
 * unknown name is a warning, not a failed spawn. */
static char **listed_skills(struct build *b, size_t *n)
{
	const struct clawmd_layout *lay = b->lay;
	const struct clawmd_group_config *cfg = b->cfg;
	char **skills = clawmd_xcalloc(cfg->nskills + 1, sizeof(char *));
	int sfd = open(lay->skills, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	*n = 0;
	if (sfd < 0)
		clawmd_inputs_note(b->in, CLAWMD_INPUT_TYPE, CLAWMD_AT_HOST, lay->skills, NULL);
	for (size_t i = 0; i < cfg->nskills; i++) {
		struct stat st;
		bool dir = false;
		if (sfd >= 0) {
			bool there = fstatat(sfd, cfg->skills[i], &st, 0) == 0;
			clawmd_inputs_note_in(b->in, CLAWMD_INPUT_TYPE, CLAWMD_AT_HOST, lay->skills,
					      cfg->skills[i], there ? &st : NULL);
			dir = there && S_ISDIR(st.st_mode);
		}
		if (!dir) {
			/* paths as messages show them: from the current directory */
			char *cj = clawmd_xasprintf("%s/%s/container.json", lay->groups, b->g->name);
			char *sk = clawmd_path_join(lay->skills, cfg->skills[i]);
			char *cjs = clawmd_layout_shown(lay, cj), *sks = clawmd_layout_shown(lay, sk);
			/* A warning here as in check (CM303): one severity a
			 * condition; compose composes the other skills. */
			clawmd_plan_warn(b->out, "%s: skills: unknown skill '%s' (no %s) [CM303]", cjs,
			     cfg->skills[i], sks);
			free(cj), free(sk), free(cjs), free(sks);
		} else if ((skills[*n] = skill_with_fragment(b->in, sfd, lay->skills, cfg->skills[i]))) {
			(*n)++;
		}
	}
	if (sfd >= 0)
		close(sfd);
	if (*n > 1)
		qsort(skills, *n, sizeof(*skills), clawmd_strcmp_ptr);
	return skills;
}

/* Skills: "all" means every skill shipping a fragment; a list is taken in
 * bytewise order. */
static int plan_skills(struct build *b)
{
	/* Past a runtime's cap the skill, module and MCP instructions are
	 * what the inlined entry drops, largest first (inline.h). */
	b->il.in.kind = CLAWMD_PART_DROP;
	size_t n = 0;
	int rc = 0;
	char **skills = b->cfg->all_skills ? list_dir(&n, b->lay->skills, skill_with_fragment,
						      b->pass, CLAWMD_PASS_SKILLS, b->in)
					   : listed_skills(b, &n);
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = add_fragment(b, "skill", skills[i], &b->skills_dir, b->lay->ct_skills,
				  "/instructions.md");
	clawmd_strv_free(skills, n);
	return rc;
}

/* Modules; cli_scope "disabled" drops cli and scheduling, which teaches the
 * agent `ncl tasks`: without the CLI it is as dead as cli itself
 * (nanocoai/nanoclaw's composer since it moved scheduling onto the CLI;
 * doc/nanoclaw.md).  A "modules" list in container.json keeps the listed
 * ones only (the selection rule of "skills"); a listed module without a
 * fragment is a warning, as an unknown skill is. */
static int plan_modules(struct build *b)
{
	const struct clawmd_layout *lay = b->lay;
	const struct clawmd_group_config *cfg = b->cfg;
	char **modules = NULL;
	size_t n = 0;
	int rc = 0;
	if (lay->modules)
		modules = list_dir(&n, lay->modules, module_fragment, b->pass, CLAWMD_PASS_MODULES, b->in);
	for (size_t k = 0; !cfg->all_modules && k < cfg->nmodules; k++) {
		bool have = false;
		for (size_t i = 0; i < n && !have; i++)
			have = !strcmp(modules[i], cfg->modules[k]);
		if (!have)
			clawmd_plan_warn(b->out, "groups/%s/container.json: modules: unknown module '%s' (no %s/%s.instructions.md)",
			     b->g->name, cfg->modules[k], lay->modules ? lay->modules : "(no modules directory)",
			     cfg->modules[k]);
	}
	for (size_t i = 0; i < n && rc == 0; i++)
		if (module_selected(cfg, modules[i]) &&
		    (!cfg->cli_disabled || (strcmp(modules[i], "cli") && strcmp(modules[i], "scheduling"))))
			rc = add_fragment(b, "module", modules[i], &b->modules_dir, lay->ct_modules,
					  ".instructions.md");
	clawmd_strv_free(modules, n);
	return rc;
}

/* Inline MCP instructions (already sorted), defused. */
static void plan_mcp(struct build *b)
{
	struct clawmd_buf text = CLAWMD_BUF_INIT;
	for (size_t i = 0; i < b->cfg->nmcp; i++) {
		const struct clawmd_mcp *m = &b->cfg->mcp[i];
		if (!m->instructions)
			continue;
		b->out->ndefused += clawmd_defuse_imports(&text, m->instructions, strlen(m->instructions));
		if (text.len && text.ptr[text.len - 1] != '\n')
			clawmd_buf_putc(&text, '\n');
		char *name = clawmd_xasprintf(CLAWMD_FRAGMENTS_DIR "/mcp-%s.md", m->name);
		clawmd_buf_printf(&b->body, "@./%s\n", name);
		if (b->il.on) {
			char *from = clawmd_xasprintf("%s/" CLAWMD_CONFIG_NAME ": mcpServers.%s.instructions",
						      b->lay->ct_group, m->name);
			clawmd_inline_add(&b->il.in, from, text.ptr, text.len);
			free(from);
		}
		size_t len = text.len;
		add_entry(b->out, name, CLAWMD_FT_FILE, clawmd_buf_detach(&text), len);
	}
	clawmd_buf_release(&text);
}

/* The optional imports present (the role file by default), in the
 * layout's order, each only while it is a regular file (a symlink the
 * agent planted is not imported, nor followed); then CLAUDE.local.md for
 * hosts that do not load it. */
static int plan_group_files(struct build *b)
{
	const struct clawmd_layout *lay = b->lay;
	int rc;
	b->il.in.kind = CLAWMD_PART_CORE;
	for (size_t i = 0; i < lay->noptional; i++) {
		mode_t t;
		if ((rc = clawmd_fs_type(&t, &b->shown, lay->optional[i], b->err)) < 0)
			return rc;
		struct stat st = {.st_mode = t};
		clawmd_inputs_note(b->in, CLAWMD_INPUT_TYPE, CLAWMD_AT_GROUP, lay->optional[i],
				   t ? &st : NULL);
		if (t != S_IFREG)
			continue;
		clawmd_buf_printf(&b->body, "@./%s\n", lay->optional[i]);
		if (b->il.on)
			inline_group_file(b, lay->optional[i]);
	}
	b->local_imported = clawmd_seed_import_local(lay, b->runtimes);
	if (b->local_imported)
		clawmd_buf_puts(&b->body, "@./" CLAWMD_LOCAL_NAME "\n");
	b->il.in.kind = CLAWMD_PART_MEMORY;
	if (b->il.on) /* the agent's memory, which every runtime's agent keeps */
		inline_group_file(b, CLAWMD_LOCAL_NAME);
	return 0;
}

/* The entry: header with the body's digest, then the body; inlined, as
 * another runtime's entry is, when a runtime of the group reads CLAUDE.md
 * and follows no import (OpenCode in the nanoclaw preset, whose runner
 * lists CLAUDE.md among its instructions), the memory inlined unless each
 * such reader loads CLAUDE.local.md by itself. */
static void plan_entry(struct build *b)
{
	struct clawmd_buf text = CLAWMD_BUF_INIT;
	bool inlined = false, memory = false;
	size_t limit = 0;
	const char *who = NULL;
	for (int rt = 0; rt < clawmd_layout_nruntimes(b->lay); rt++) {
		const struct clawmd_contract *c = clawmd_layout_contract(b->lay, rt);
		if (!(b->runtimes & (1u << rt)) || !c || !c->entry || strcmp(c->entry, CLAWMD_ENTRY_NAME) ||
		    c->imports)
			continue;
		inlined = true;
		memory |= !clawmd_runtime_list_has(c->reads, CLAWMD_LOCAL_NAME);
		if (c->cap && (!limit || c->cap < limit))
			limit = c->cap, who = c->title;
		if (!who)
			who = c->title;
	}
	if (inlined) {
		struct clawmd_buf note = CLAWMD_BUF_INIT;
		char *path = clawmd_path_join(b->g->shown, CLAWMD_ENTRY_NAME);
		clawmd_inline_finish(&text, &note, &b->il.in, memory, path, who, limit);
		if (note.len)
			clawmd_plan_warn(b->out, "%s", note.ptr);
		clawmd_buf_release(&note);
		free(path);
	} else {
		char hex[17];
		clawmd_entry_digest(hex, b->body.ptr, b->body.len);
		clawmd_buf_printf(&text, "%s%s -->\n%s", CLAWMD_HEADER, hex, b->body.ptr);
	}
	size_t len = text.len;
	add_entry(b->out, clawmd_xstrdup(CLAWMD_ENTRY_NAME), CLAWMD_FT_FILE,
		  clawmd_buf_detach(&text), len);
}

int clawmd_plan_build(struct clawmd_plan *out, struct clawmd_group *g, struct clawmd_err *err)
{
	const struct clawmd_layout *lay = g->lay;
	struct build b = {.out = out, .g = g, .lay = lay, .pass = g->pass, .in = &g->inputs,
			  .body = CLAWMD_BUF_INIT, .err = err,
			  .skills_dir = {lay->skills, -1, g->pass, &g->inputs},
			  .modules_dir = {lay->modules, -1, g->pass, &g->inputs}};
	int rc;

	clawmd_plan_init(out);
	out->group = clawmd_xstrdup(g->name);
	/* The flat document is a plan of its own (compose/flat.c). */
	if (clawmd_flat_wanted(g)) {
		if ((rc = clawmd_flat_plan(out, g, err)) < 0)
			clawmd_plan_release(out);
		return rc;
	}
	clawmd_inline_init(&b.il.in);
	clawmd_plan_init(&b.il.texts);
	/* The parts in the order the entry imports them. */
	if ((rc = plan_inputs(&b)) < 0 || (rc = plan_persona(&b)) < 0 ||
	    (rc = plan_base(&b)) < 0 || (rc = plan_skills(&b)) < 0 || (rc = plan_modules(&b)) < 0)
		goto out;
	plan_mcp(&b);
	if ((rc = plan_group_files(&b)) < 0)
		goto out;
	plan_entry(&b);
	/* The entry of each other runtime the group runs, after CLAUDE.md. */
	if ((rc = add_runtime_entries(&b)) < 0)
		goto out;
	clawmd_plan_warn_twice(out, g, b.runtimes);
	out->inlined = b.il.on;
	out->read = b.il.texts.entries;
	out->nread = b.il.texts.n;
	b.il.texts.entries = NULL;
	b.il.texts.n = 0;
out:
	clawmd_inline_release(&b.il.in);
	clawmd_plan_release(&b.il.texts);
	if (b.skills_dir.fd >= 0)
		close(b.skills_dir.fd);
	if (b.modules_dir.fd >= 0)
		close(b.modules_dir.fd);
	clawmd_buf_release(&b.body);
	if (rc < 0)
		clawmd_plan_release(out);
	return rc;
}
