/* plan.c - the desired state of a group: which fragments exist, what each
 * holds or points to, and the composed CLAUDE.md that imports them. */
#include "clawmd.h"
#include "group/entry.h"
#include "group/group.h"
#include "fs/fs.h"
#include "compose/pass.h"
#include "compose/persona.h"
#include "compose/inline.h"

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
	free(plan->group);
	clawmd_plan_init(plan);
}

/* ---- sources ------------------------------------------------------------ */

static void warn(struct clawmd_plan *plan, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(struct clawmd_plan *plan, const char *fmt, ...)
{
	va_list ap;
	char *s;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	va_end(ap);
	plan->warnings = clawmd_xrealloc(plan->warnings, (plan->nwarnings + 1) * sizeof(char *));
	plan->warnings[plan->nwarnings++] = s;
}

static void add_entry(struct clawmd_plan *plan, size_t *cap, char *name, enum clawmd_ftype type,
		      char *data, size_t len)
{
	clawmd_xgrow(&plan->entries, cap, plan->n + 1, sizeof(*plan->entries));
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
	size_t tcap;
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

/* Read a source for copy mode: `rel` beneath `root`, or the file `rel`
 * itself when root is NULL (the shared base, a mount of its own). */
static int read_source(char **data, size_t *len, struct source_dir *root, const char *rel,
		       struct clawmd_pass *pass, struct clawmd_err *err)
{
	struct clawmd_buf buf = CLAWMD_BUF_INIT, key = CLAWMD_BUF_INIT;
	int rc = 0;
	const char *path = rel, *got;
	if (pass) {
		source_key(&key, 'r', root ? root->path : "", rel);
		if (clawmd_pass_recall(pass, key.ptr, key.len, &got, len)) {
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
		if (root)
			return err->code;
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
	clawmd_pass_remember(pass, key.ptr, key.len, buf.ptr, buf.len);
	*len = buf.len;
	*data = clawmd_buf_detach(&buf);
out_close:
	close(fd);
	clawmd_buf_release(&buf);
	clawmd_buf_release(&key);
	return rc;
}

static bool is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool is_file_at(int dfd, const char *name)
{
	struct stat st;
	return fstatat(dfd, name, &st, 0) == 0 && S_ISREG(st.st_mode);
}

/* Sorted names of the entries of `dir` for which `keep` returns a name
 * (allocated); a missing directory is an empty list.  `keep` looks
 * relative to the directory's fd: one path walk for the whole listing. */
static char **list_dir(size_t *n, const char *dir, char *(*keep)(int dfd, const char *name),
		       struct clawmd_pass *pass, char tag)
{
	char **v = NULL;
	size_t cap = 0, len;
	struct clawmd_buf key = CLAWMD_BUF_INIT, all = CLAWMD_BUF_INIT;
	const char *got;
	*n = 0;
	source_key(&key, tag, dir, NULL);
	if (clawmd_pass_recall(pass, key.ptr, key.len, &got, &len)) {
		for (const char *p = got; p < got + len; p += strlen(p) + 1) {
			clawmd_xgrow(&v, &cap, *n + 1, sizeof(*v));
			v[(*n)++] = clawmd_xstrdup(p);
		}
		clawmd_buf_release(&key);
		return v ? v : clawmd_xcalloc(1, sizeof(*v));
	}
	DIR *d = opendir(dir);
	if (!d) {
		clawmd_buf_release(&key);
		return NULL;
	}
	struct dirent *e;
	while ((e = readdir(d))) {
		char *name = keep(dirfd(d), e->d_name);
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
	clawmd_pass_remember(pass, key.ptr, key.len, all.ptr ? all.ptr : "", all.len);
	clawmd_buf_release(&all);
	clawmd_buf_release(&key);
	return v;
}

/* A skill "ships a fragment" when <skills>/<name>/instructions.md exists. */
static char *skill_with_fragment(int dfd, const char *name)
{
	if (name[0] == '.' || !clawmd_name_valid(name, strlen(name)))
		return NULL;
	char p[128];
	snprintf(p, sizeof(p), "%s/instructions.md", name);
	return is_file_at(dfd, p) ? clawmd_xstrdup(name) : NULL;
}

static char *module_fragment(int dfd, const char *name)
{
	static const char suffix[] = ".instructions.md";
	size_t len = strlen(name), sl = sizeof(suffix) - 1;
	if (len <= sl || strcmp(name + len - sl, suffix) || !clawmd_name_valid(name, len - sl))
		return NULL;
	return is_file_at(dfd, name) ? clawmd_xstrndup(name, len - sl) : NULL;
}

/* One fragment taken from a host source: a symlink to its container path,
 * or in copy mode a regular file with its content. */
static int add_source(struct clawmd_plan *plan, size_t *cap, const struct clawmd_layout *lay,
		      char *name, struct source_dir *root, const char *host, const char *ct,
		      struct clawmd_pass *pass, struct clawmd_err *err)
{
	if (lay->mode == CLAWMD_MODE_SYMLINK) {
		add_entry(plan, cap, name, CLAWMD_FT_LINK, clawmd_xstrdup(ct), strlen(ct));
		return 0;
	}
	char *data = NULL;
	size_t len = 0;
	int rc = read_source(&data, &len, root, host, pass, err);
	if (rc < 0) {
		free(name);
		return rc;
	}
	add_entry(plan, cap, name, CLAWMD_FT_FILE, data, len);
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
	if (read_source(&data, &dlen, c->root, src, c->root->pass, &scratch) < 0 ||
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
static int add_copied_fragment(struct clawmd_plan *plan, size_t *cap, char **line,
			       struct source_dir *root, const char *rel, const char *name,
			       const char *dirname, struct clawmd_err *err)
{
	const char *slash = strrchr(rel, '/');
	char *dir = slash ? clawmd_xstrndup(rel, (size_t)(slash - rel)) : clawmd_xstrdup("");
	struct closure c = {.root = root, .dir = dir};
	char *data = NULL;
	size_t len = 0;
	int rc = read_source(&data, &len, root, rel, root->pass, err);
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
		add_entry(plan, cap, clawmd_xstrdup(name), CLAWMD_FT_FILE, f->data, f->len);
		plan->entries[plan->n - 1].source = f->source;
		free(f->name);
		for (size_t i = 1; i < c.n; i++)
			entry_release(&c.files[i]);
		c.n = 0;
		*line = clawmd_xasprintf("@./%s\n", name);
		goto out;
	}
	add_entry(plan, cap, clawmd_xstrdup(dirname), CLAWMD_FT_DIR, NULL, 0);
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

/* A skill or module fragment, "<kind>-<item>.md", from <item><suffix> in
 * `root` (seen at the same place under `ct_root`), and its import line. */
static int add_fragment(struct clawmd_plan *plan, size_t *cap, struct clawmd_buf *body,
			struct inliner *il, const struct clawmd_layout *lay, const char *kind,
			const char *item, struct source_dir *root, const char *ct_root,
			const char *suffix, struct clawmd_err *err)
{
	char *rel = clawmd_xasprintf("%s%s", item, suffix);
	char *ct = clawmd_path_join(ct_root, rel);
	char *ct_dir = clawmd_path_dir(ct);
	char *name = clawmd_xasprintf(CLAWMD_FRAGMENTS_DIR "/%s-%s.md", kind, item);
	char *dirname = clawmd_xasprintf(CLAWMD_FRAGMENTS_DIR "/%s-%s", kind, item), *line = NULL;
	int rc;
	if (lay->mode == CLAWMD_MODE_COPY) {
		rc = add_copied_fragment(plan, cap, &line, root, rel, name, dirname, err);
		if (line)
			clawmd_buf_puts(body, line);
		if (rc == 0 && il->on)
			clawmd_inline_add_entry(&il->in, ct, ct_dir, &plan->entries[plan->n - 1]);
	} else {
		clawmd_buf_printf(body, "@./%s\n", name);
		rc = add_source(plan, cap, lay, clawmd_xstrdup(name), root, rel, ct, root->pass, err);
		/* the text the inlined entry needs: read as copy mode reads it */
		if (rc == 0 && il->on &&
		    (rc = add_copied_fragment(&il->texts, &il->tcap, &line, root, rel, name, dirname,
					      err)) == 0)
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
static void inline_group_file(struct clawmd_plan *plan, struct inliner *il,
			      const struct clawmd_dir *gd, const char *name, const char *ct_group)
{
	struct clawmd_buf text = CLAWMD_BUF_INIT, defused = CLAWMD_BUF_INIT;
	struct clawmd_err scratch = CLAWMD_ERR_INIT;
	int rc = clawmd_fs_read(&text, gd, name, SOURCE_MAX, &scratch);
	if (rc < 0) {
		warn(plan, "%s/%s: left out of the inlined entry: %s", gd->path, name, scratch.msg);
	} else if (rc == 0 && text.len) {
		plan->ndefused += clawmd_defuse_imports(&defused, text.ptr, text.len);
		char *ct = clawmd_path_join(ct_group, name);
		clawmd_inline_add(&il->in, ct, defused.ptr, defused.len);
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
static void layout_warnings(struct clawmd_plan *plan, const struct clawmd_layout *lay,
			    struct clawmd_pass *pass)
{
	struct stat st;
	struct clawmd_buf all = CLAWMD_BUF_INIT;
	size_t len, before = plan->nwarnings;
	const char *got;
	if (clawmd_pass_recall(pass, "w", 2, &got, &len)) {
		for (const char *p = got; p < got + len; p += strlen(p) + 1)
			warn(plan, "%s", p);
		return;
	}
	/* Claude Code 2.1.232 and later drop an import whose realpath leaves
	 * the working directory unless external includes were approved: every
	 * symlinked fragment (claude-code-memory.md section 15). */
	if (lay->mode == CLAWMD_MODE_SYMLINK && clawmd_release_realpath_gate(&lay->claude) &&
	    !lay->approve_external)
		warn(plan, "symlink mode: Claude Code %u.%u.%u (claude_version) silently drops the "
			   "symlinked shared base and skill and module fragments unless external "
			   "includes are approved; set \"mode\": \"copy\" in clawmd.json (or "
			   "\"approve_external\": true if the host approves them)",
		     lay->claude.major, lay->claude.minor, lay->claude.patch);
	/* nanoclaw's tree without the preset: only the shared base would be
	 * composed, silently. */
	char *nano = clawmd_path_join(lay->root, "container/skills");
	if (stat(lay->skills, &st) < 0 && stat(nano, &st) == 0 && S_ISDIR(st.st_mode)) {
		char *shown = clawmd_layout_shown(lay, lay->skills);
		warn(plan, "no skills directory '%s', but 'container/skills' exists: this looks "
			   "like a nanoclaw tree; compose with --preset nanoclaw (or \"preset\": "
			   "\"nanoclaw\" in clawmd.json)",
		     shown);
		free(shown);
	}
	free(nano);
	for (size_t i = before; i < plan->nwarnings; i++)
		clawmd_buf_put(&all, plan->warnings[i], strlen(plan->warnings[i]) + 1);
	clawmd_pass_remember(pass, "w", 2, all.ptr ? all.ptr : "", all.len);
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
	warn(payload, "%s", msg);
}

/*
 * The entry file of each runtime in `runtimes` but Claude Code, once per
 * file (Codex and OpenCode share AGENTS.md): for a runtime that follows
 * imports, CLAUDE.md's imports, with the agent's memory when CLAUDE.md
 * leaves it to Claude Code to load; else the inlined entry, within the
 * least limit of the runtimes reading it.
 */
static int add_runtime_entries(struct clawmd_plan *out, size_t *cap, struct clawmd_group *g,
			       clawmd_runtimes runtimes, const struct clawmd_inline *in,
			       const struct clawmd_buf *body, struct clawmd_err *err)
{
	struct clawmd_buf file = CLAWMD_BUF_INIT, imports = CLAWMD_BUF_INIT;
	int rc = 0;
	for (int rt = 1; rt < CLAWMD_RUNTIME_N && rc == 0; rt++) {
		const char *name = clawmd_runtime_entry(rt);
		bool done = false;
		for (size_t i = 0; i < out->n && !done; i++)
			done = !strcmp(out->entries[i].name, name);
		if (!(runtimes & (1u << rt)) || done)
			continue;
		if (clawmd_runtime_imports_inside(rt) && g->lay->mode == CLAWMD_MODE_SYMLINK) {
			char *cj = clawmd_path_join(g->shown, CLAWMD_CONFIG_NAME);
			rc = clawmd_err_set(err, CLAWMD_EINPUT,
					    "%s: %s follows no import whose target is outside the working "
					    "directory, and symlink mode links the shared base and fragments "
					    "there from the container's /app: compose this layout in copy "
					    "mode (\"mode\": \"copy\" in clawmd.json, or --mode copy)", cj,
					    clawmd_runtime_title(rt));
			free(cj);
			break;
		}
		if (clawmd_runtime_imports(rt)) {
			clawmd_buf_clear(&imports);
			clawmd_buf_put(&imports, body->ptr, body->len);
			if (!g->lay->import_local)
				clawmd_buf_puts(&imports, "@./" CLAWMD_LOCAL_NAME "\n");
			char hex[17];
			clawmd_entry_digest(hex, imports.ptr, imports.len);
			clawmd_buf_clear(&file);
			clawmd_buf_printf(&file, "%s%s -->\n%s", CLAWMD_HEADER, hex, imports.ptr);
		} else {
			size_t limit = 0;
			const char *who = clawmd_runtime_title(rt);
			for (int o = rt; o < CLAWMD_RUNTIME_N; o++) {
				size_t l = clawmd_runtime_limit(o);
				if ((runtimes & (1u << o)) && !strcmp(clawmd_runtime_entry(o), name) && l &&
				    (!limit || l < limit))
					limit = l, who = clawmd_runtime_title(o);
			}
			char *path = clawmd_path_join(g->shown, name);
			rc = clawmd_inline_finish(&file, in, path, who, limit, err);
			free(path);
			if (rc < 0)
				break;
		}
		size_t len = file.len;
		add_entry(out, cap, clawmd_xstrdup(name), CLAWMD_FT_FILE, clawmd_buf_detach(&file), len);
	}
	clawmd_buf_release(&file);
	clawmd_buf_release(&imports);
	return rc;
}

int clawmd_plan_build(struct clawmd_plan *out, struct clawmd_group *g, struct clawmd_err *err)
{
	const struct clawmd_layout *lay = g->lay;
	struct clawmd_pass *pass = g->pass;
	const char *group = g->name;
	const struct clawmd_group_config *cfg;
	const struct clawmd_dir *gd;
	struct clawmd_buf body = CLAWMD_BUF_INIT, tmp = CLAWMD_BUF_INIT;
	char **skills = NULL, **modules = NULL;
	size_t nskills = 0, nmodules = 0, cap = 0;
	bool *present = NULL; /* lay->optional[i] is a regular file */
	struct inliner il = {false};
	clawmd_runtimes runtimes;
	enum clawmd_runtime first;
	int rc;
	/* Opened on first use, once for all the fragments they hold. */
	struct source_dir skills_dir = {lay->skills, -1, pass}, modules_dir = {lay->modules, -1, pass};

	clawmd_plan_init(out);
	out->group = clawmd_xstrdup(group);
	clawmd_inline_init(&il.in);
	clawmd_plan_init(&il.texts);
	if ((rc = clawmd_group_config(&cfg, g, err)) < 0 || (rc = clawmd_group_dir(&gd, g, err)) < 0 ||
	    (rc = clawmd_group_runtimes(&runtimes, &first, g, err)) < 0)
		goto out;
	for (int rt = 0; rt < CLAWMD_RUNTIME_N; rt++)
		il.on |= (runtimes & (1u << rt)) && !clawmd_runtime_imports(rt);
	/* The optional imports: each only while it is a regular file (a
	 * symlink the agent planted is not imported, nor followed). */
	struct clawmd_dir shown = {gd->fd, g->shown};
	present = clawmd_xcalloc(lay->noptional + 1, sizeof(*present));
	for (size_t i = 0; i < lay->noptional; i++) {
		mode_t t;
		if ((rc = clawmd_fs_type(&t, &shown, lay->optional[i], err)) < 0)
			goto out;
		present[i] = t == S_IFREG;
	}
	layout_warnings(out, lay, pass);
	for (size_t i = 0; i < cfg->nunknown; i++)
		warn(out, "%s", cfg->warnings[i]);

	/* 0. The persona, inlined, imported before everything else: nanoclaw
	 * puts it at the top of the system prompt.  Defused as inline MCP
	 * instructions are: the agent writes these files. */
	if (lay->persona) {
		if ((rc = clawmd_persona_build(&tmp, &out->ndefused, &shown, g->shown, warn_persona,
					       out, err)) < 0)
			goto out;
		if (tmp.len) {
			size_t plen = tmp.len;
			if (il.on) {
				char *from = clawmd_xasprintf("%s/*" CLAWMD_PREPEND_SUFFIX, lay->ct_group);
				clawmd_inline_add(&il.in, from, tmp.ptr, tmp.len);
				free(from);
			}
			add_entry(out, &cap, clawmd_xstrdup(CLAWMD_FRAGMENTS_DIR "/" CLAWMD_PERSONA_FRAGMENT),
				  CLAWMD_FT_FILE, clawmd_buf_detach(&tmp), plen);
			clawmd_buf_puts(&body, "@./" CLAWMD_FRAGMENTS_DIR "/" CLAWMD_PERSONA_FRAGMENT "\n");
		}
	}

	/* 1. The shared base. */
	const char *got;
	size_t glen;
	if (!clawmd_pass_recall(pass, "b", 2, &got, &glen) && !is_file(lay->base)) {
		rc = clawmd_err_set(err, CLAWMD_EINPUT,
				    "shared base '%s' is missing; set \"base\" in clawmd.json or --base",
				    lay->base);
		goto out;
	}
	if ((rc = add_source(out, &cap, lay, clawmd_xstrdup(CLAWMD_SHARED_NAME), NULL, lay->base,
			     lay->ct_base, pass, err)) < 0)
		goto out;
	clawmd_pass_remember(pass, "b", 2, "", 0); /* the base is a file */
	clawmd_buf_puts(&body, "@./" CLAWMD_SHARED_NAME "\n");
	if (il.on && lay->mode == CLAWMD_MODE_COPY) {
		clawmd_inline_add_entry(&il.in, lay->ct_base, NULL, &out->entries[out->n - 1]);
	} else if (il.on) {
		char *data = NULL;
		size_t dlen = 0;
		if ((rc = read_source(&data, &dlen, NULL, lay->base, pass, err)) < 0)
			goto out;
		clawmd_inline_add(&il.in, lay->ct_base, data, dlen);
		free(data);
	}

	/* 2. Skills: "all" means every skill shipping a fragment; a list is
	 * taken in bytewise order and an unknown name is a warning, not a
	 * failed spawn. */
	if (cfg->all_skills) {
		skills = list_dir(&nskills, lay->skills, skill_with_fragment, pass, 's');
	} else {
		skills = clawmd_xcalloc(cfg->nskills, sizeof(char *));
		int sfd = open(lay->skills, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		for (size_t i = 0; i < cfg->nskills; i++) {
			struct stat st;
			if (sfd < 0 || fstatat(sfd, cfg->skills[i], &st, 0) < 0 || !S_ISDIR(st.st_mode)) {
				/* paths as messages show them: from the current directory */
				char *cj = clawmd_xasprintf("%s/%s/container.json", lay->groups, group);
				char *sk = clawmd_path_join(lay->skills, cfg->skills[i]);
				char *cjs = clawmd_layout_shown(lay, cj), *sks = clawmd_layout_shown(lay, sk);
				/* A warning here as in check (CM303): one severity a
				 * condition; compose composes the other skills. */
				warn(out, "%s: skills: unknown skill '%s' (no %s) [CM303]", cjs,
				     cfg->skills[i], sks);
				free(cj), free(sk), free(cjs), free(sks);
			}
			else if ((skills[nskills] = skill_with_fragment(sfd, cfg->skills[i])))
				nskills++;
		}
		if (sfd >= 0)
			close(sfd);
		if (nskills > 1)
			qsort(skills, nskills, sizeof(*skills), clawmd_strcmp_ptr);
	}
	for (size_t i = 0; i < nskills && rc == 0; i++)
		rc = add_fragment(out, &cap, &body, &il, lay, "skill", skills[i], &skills_dir,
				  lay->ct_skills, "/instructions.md", err);
	if (rc < 0)
		goto out;

	/* 3. Modules; cli_scope "disabled" drops cli and scheduling, which
	 * teaches the agent `ncl tasks`: without the CLI it is as dead as cli
	 * itself (nanocoai/nanoclaw's composer since it moved scheduling onto
	 * the CLI; doc/nanoclaw.md). */
	if (lay->modules)
		modules = list_dir(&nmodules, lay->modules, module_fragment, pass, 'm');
	/* A "modules" list in container.json keeps the listed ones only (the
	 * selection rule of "skills"); a listed module without a fragment is
	 * a warning, as an unknown skill is. */
	for (size_t k = 0; !cfg->all_modules && k < cfg->nmodules; k++) {
		bool have = false;
		for (size_t i = 0; i < nmodules && !have; i++)
			have = !strcmp(modules[i], cfg->modules[k]);
		if (!have)
			warn(out, "groups/%s/container.json: modules: unknown module '%s' (no %s/%s.instructions.md)",
			     group, cfg->modules[k], lay->modules ? lay->modules : "(no modules directory)",
			     cfg->modules[k]);
	}
	for (size_t i = 0; i < nmodules && rc == 0; i++)
		if (module_selected(cfg, modules[i]) &&
		    (!cfg->cli_disabled || (strcmp(modules[i], "cli") && strcmp(modules[i], "scheduling"))))
			rc = add_fragment(out, &cap, &body, &il, lay, "module", modules[i], &modules_dir,
					  lay->ct_modules, ".instructions.md", err);
	if (rc < 0)
		goto out;

	/* 4. Inline MCP instructions (already sorted), defused. */
	for (size_t i = 0; i < cfg->nmcp; i++) {
		const struct clawmd_mcp *m = &cfg->mcp[i];
		if (!m->instructions)
			continue;
		out->ndefused += clawmd_defuse_imports(&tmp, m->instructions, strlen(m->instructions));
		if (tmp.len && tmp.ptr[tmp.len - 1] != '\n')
			clawmd_buf_putc(&tmp, '\n');
		char *name = clawmd_xasprintf(CLAWMD_FRAGMENTS_DIR "/mcp-%s.md", m->name);
		clawmd_buf_printf(&body, "@./%s\n", name);
		if (il.on) {
			char *from = clawmd_xasprintf("%s/" CLAWMD_CONFIG_NAME ": mcpServers.%s.instructions",
						      lay->ct_group, m->name);
			clawmd_inline_add(&il.in, from, tmp.ptr, tmp.len);
			free(from);
		}
		size_t len = tmp.len;
		add_entry(out, &cap, name, CLAWMD_FT_FILE, clawmd_buf_detach(&tmp), len);
	}

	/* 5. The optional imports present (the role file by default), in the
	 * layout's order, then CLAUDE.local.md for hosts that do not load it. */
	for (size_t i = 0; i < lay->noptional; i++)
		if (present[i]) {
			clawmd_buf_printf(&body, "@./%s\n", lay->optional[i]);
			if (il.on)
				inline_group_file(out, &il, &shown, lay->optional[i], lay->ct_group);
		}
	if (lay->import_local)
		clawmd_buf_puts(&body, "@./" CLAWMD_LOCAL_NAME "\n");
	if (il.on) /* the agent's memory, which every runtime's agent keeps */
		inline_group_file(out, &il, &shown, CLAWMD_LOCAL_NAME, lay->ct_group);

	/* 6. The entry: header with the body's digest, then the body. */
	char hex[17];
	clawmd_entry_digest(hex, body.ptr, body.len);
	clawmd_buf_printf(&tmp, "%s%s -->\n%s", CLAWMD_HEADER, hex, body.ptr);
	size_t len = tmp.len;
	add_entry(out, &cap, clawmd_xstrdup(CLAWMD_ENTRY_NAME), CLAWMD_FT_FILE,
		  clawmd_buf_detach(&tmp), len);

	/* 7. The entry of each other runtime the group runs, after CLAUDE.md. */
	if ((rc = add_runtime_entries(out, &cap, g, runtimes, &il.in, &body, err)) < 0)
		goto out;
	out->inlined = il.on;
	out->read = il.texts.entries;
	out->nread = il.texts.n;
	il.texts.entries = NULL;
	il.texts.n = 0;
out:
	clawmd_inline_release(&il.in);
	clawmd_plan_release(&il.texts);
	if (skills_dir.fd >= 0)
		close(skills_dir.fd);
	if (modules_dir.fd >= 0)
		close(modules_dir.fd);
	clawmd_strv_free(skills, nskills);
	clawmd_strv_free(modules, nmodules);
	free(present);
	clawmd_buf_release(&body);
	clawmd_buf_release(&tmp);
	if (rc < 0)
		clawmd_plan_release(out);
	return rc;
}
