/* plan.c - the desired state of a group: which fragments exist, what each
 * holds or points to, and the composed CLAUDE.md that imports them. */
#include "clawmd.h"
#include "fs.h"
#include "util.h"

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

void clawmd_plan_release(struct clawmd_plan *plan)
{
	if (!plan)
		return;
	for (size_t i = 0; i < plan->n; i++) {
		free(plan->entries[i].name);
		free(plan->entries[i].data);
	}
	free(plan->entries);
	clawmd_strv_free(plan->warnings, plan->nwarnings);
	free(plan->group);
	clawmd_plan_init(plan);
}

/* ---- the composed header ------------------------------------------------ */

static void digest_hex(char out[17], const char *data, size_t len)
{
	snprintf(out, 17, "%016llx", (unsigned long long)clawmd_fnv1a64(data, len));
}

/*
 * Ours: the first line is an HTML comment ending in "clawmd:fnv1a64=<hex> -->"
 * and the digest matches the rest of the file.  Only the digest is checked,
 * not the wording before it, so a later release may reword the header
 * without every group's entry looking hand-edited.
 */
bool clawmd_composed_is_ours(const char *data, size_t len)
{
	static const char tag[] = "clawmd:fnv1a64=";
	const size_t tl = sizeof(tag) - 1, tail = tl + 16 + 4; /* tag, hex, " -->" */
	const char *nl = memchr(data, '\n', len);
	char want[17];
	if (!nl || (size_t)(nl - data) < 4 + tail || memcmp(data, "<!--", 4))
		return false;
	const char *t = nl - tail;
	if (memcmp(t, tag, tl) || memcmp(t + tl + 16, " -->", 4))
		return false;
	digest_hex(want, nl + 1, len - (size_t)(nl + 1 - data));
	return !memcmp(t + tl, want, 16);
}

/* ---- defusing @ directives in inline instructions ----------------------- */

struct defuse_state {
	struct clawmd_buf *out;
	const char *text;
	size_t done;  /* bytes of text already copied */
	size_t count;
	size_t ticks; /* fence length: longer than any backtick run in the text */
	size_t len;
};

/* Longest run of backticks in s[0, len). */
static size_t max_ticks(const char *s, size_t len)
{
	size_t best = 0, run = 0;
	for (size_t i = 0; i < len; i++) {
		run = s[i] == '`' ? run + 1 : 0;
		if (run > best)
			best = run;
	}
	return best;
}

/*
 * Wrap one directive in a code span.  The fence is one backtick longer than
 * any run in the whole text, so it can never pair with a backtick elsewhere
 * (which could turn other text into a new import), and there is no padding
 * space after the opening fence:
 * Claude Code's scanner takes '@' only at the start of a text token or
 * after whitespace, and even in a tight list item (where it scans the raw
 * text, backticks included) the '@' then follows a backtick.  A directive
 * ending in a backtick gets a space before the closing fence, as CommonMark
 * requires; the '@' side stays unpadded.
 */
static int defuse_one(size_t off, size_t len, const char *path, void *payload)
{
	struct defuse_state *st = payload;
	const char *tok = st->text + off;
	size_t ticks = st->ticks;
	clawmd_buf_put(st->out, st->text + st->done, off - st->done);
	for (size_t i = 0; i < ticks; i++)
		clawmd_buf_putc(st->out, '`');
	clawmd_buf_put(st->out, tok, len);
	if (tok[len - 1] == '`')
		clawmd_buf_putc(st->out, ' ');
	for (size_t i = 0; i < ticks; i++)
		clawmd_buf_putc(st->out, '`');
	/* A backtick right after would lengthen the closing fence. */
	if (off + len < st->len && st->text[off + len] == '`')
		clawmd_buf_putc(st->out, ' ');
	st->done = off + len;
	st->count++;
	return 0;
}

size_t clawmd_defuse_imports(struct clawmd_buf *out, const char *text, size_t len)
{
	struct defuse_state st = {out, text, 0, 0, max_ticks(text, len) + 1, len};
	clawmd_buf_clear(out);
	clawmd_buf_put(out, "", 0);
	clawmd_md_imports(text, len, defuse_one, &st);
	clawmd_buf_put(out, text + st.done, len - st.done);
	return st.count;
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

/* Read a host-owned source file (the shared base, a skill or module
 * fragment) for copy mode.  Host-owned, so symlinks are followed. */
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
};

static int open_beneath(struct source_dir *root, const char *rel, struct clawmd_err *err)
{
	if (root->fd < 0 &&
	    (root->fd = open(root->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return clawmd_err_sys(err, CLAWMD_EINPUT, "could not open source directory '%s'",
				      root->path);
	int dfd = root->fd;
	struct open_how how = {.flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK,
			       .resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS};
	int fd = (int)syscall(SYS_openat2, dfd, rel, &how, sizeof(how));
	if (fd < 0 && errno == ENOSYS) {
		/* Kernels before 5.6: resolve, then check the prefix. */
		char *full = clawmd_path_join(root->path, rel), *rp = realpath(full, NULL);
		char *rr = realpath(root->path, NULL);
		size_t n = rr ? strlen(rr) : 0;
		errno = EXDEV;
		if (rp && rr && !strncmp(rp, rr, n) && rp[n] == '/')
			fd = open(rp, (int)how.flags);
		free(full);
		free(rp);
		free(rr);
	}
	if (fd < 0 && errno == EXDEV)
		clawmd_err_set(err, CLAWMD_EINPUT, "source '%s/%s' leads outside '%s'; refusing to copy it",
			       root->path, rel, root->path);
	else if (fd < 0)
		clawmd_err_sys(err, CLAWMD_EINPUT, "could not read source '%s/%s'", root->path, rel);
	return fd;
}

/* Read a source for copy mode: `rel` beneath `root`, or the file `rel`
 * itself when root is NULL (the shared base, a mount of its own). */
static int read_source(char **data, size_t *len, struct source_dir *root, const char *rel,
		       struct clawmd_err *err)
{
	struct clawmd_buf buf = CLAWMD_BUF_INIT;
	int rc = 0;
	const char *path = rel;
	int fd = root ? open_beneath(root, rel, err) : open(rel, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	if (fd < 0)
		return root ? err->code : clawmd_err_sys(err, CLAWMD_EINPUT, "could not read source '%s'", path);
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
	*len = buf.len;
	*data = clawmd_buf_detach(&buf);
out_close:
	close(fd);
	clawmd_buf_release(&buf);
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
static char **list_dir(size_t *n, const char *dir, char *(*keep)(int dfd, const char *name))
{
	char **v = NULL;
	size_t cap = 0;
	*n = 0;
	DIR *d = opendir(dir);
	if (!d)
		return NULL;
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
		      struct clawmd_err *err)
{
	if (lay->mode == CLAWMD_MODE_SYMLINK) {
		add_entry(plan, cap, name, CLAWMD_FT_LINK, clawmd_xstrdup(ct), strlen(ct));
		return 0;
	}
	char *data = NULL;
	size_t len = 0;
	int rc = read_source(&data, &len, root, host, err);
	if (rc < 0) {
		free(name);
		return rc;
	}
	add_entry(plan, cap, name, CLAWMD_FT_FILE, data, len);
	return 0;
}

/* A skill or module fragment, "<kind>-<item>.md", from <item><suffix> in
 * `root` (seen at the same place under `ct_root`), and its import line. */
static int add_fragment(struct clawmd_plan *plan, size_t *cap, struct clawmd_buf *body,
			const struct clawmd_layout *lay, const char *kind, const char *item,
			struct source_dir *root, const char *ct_root, const char *suffix,
			struct clawmd_err *err)
{
	char *rel = clawmd_xasprintf("%s%s", item, suffix);
	char *ct = clawmd_path_join(ct_root, rel);
	char *name = clawmd_xasprintf(CLAWMD_FRAGMENTS_DIR "/%s-%s.md", kind, item);
	clawmd_buf_printf(body, "@./%s\n", name);
	int rc = add_source(plan, cap, lay, name, root, rel, ct, err);
	free(rel);
	free(ct);
	return rc;
}

static int read_group_config(struct clawmd_group_config *cfg, const struct clawmd_layout *lay,
			     const char *group, bool *role, struct clawmd_err *err)
{
	struct clawmd_dir gd = CLAWMD_DIR_INIT;
	struct clawmd_buf buf = CLAWMD_BUF_INIT;
	char *gpath = clawmd_path_join(lay->groups, group);
	mode_t t;
	int rc = clawmd_dir_open(&gd, gpath, err);
	clawmd_config_init(cfg);
	if (rc < 0)
		goto out;
	free(gd.path);
	gd.path = clawmd_layout_shown(lay, gpath);
	rc = clawmd_fs_read(&buf, &gd, CLAWMD_CONFIG_NAME, CLAWMD_CONFIG_MAX, err);
	if (rc == 0) {
		char *shown = clawmd_path_join(gd.path, CLAWMD_CONFIG_NAME);
		rc = clawmd_config_parse(cfg, buf.ptr, buf.len, shown, err);
		free(shown);
	} else if (rc == CLAWMD_EFS) {
		/* A symlinked or non-regular container.json is invalid input. */
		err->code = rc = CLAWMD_EINPUT;
	}
	if (rc < 0)
		goto out;
	rc = clawmd_fs_type(&t, &gd, CLAWMD_ROLE_NAME, err);
	*role = rc == 0 && t == S_IFREG;
out:
	clawmd_buf_release(&buf);
	clawmd_dir_release(&gd);
	free(gpath);
	return rc < 0 ? rc : 0;
}

int clawmd_plan_build(struct clawmd_plan *out, const struct clawmd_layout *lay,
		      const char *group, struct clawmd_err *err)
{
	struct clawmd_group_config cfg;
	struct clawmd_buf body = CLAWMD_BUF_INIT, tmp = CLAWMD_BUF_INIT;
	char **skills = NULL, **modules = NULL;
	size_t nskills = 0, nmodules = 0, cap = 0;
	bool role = false;
	int rc;
	/* Opened on first use, once for all the fragments they hold. */
	struct source_dir skills_dir = {lay->skills, -1}, modules_dir = {lay->modules, -1};

	clawmd_plan_init(out);
	if (!clawmd_name_valid(group, strlen(group)))
		return clawmd_err_set(err, CLAWMD_EINPUT,
				      "invalid group name '%s' (names match [A-Za-z0-9][A-Za-z0-9._-]{0,63})",
				      group);
	out->group = clawmd_xstrdup(group);
	if ((rc = read_group_config(&cfg, lay, group, &role, err)) < 0)
		goto out;
	for (size_t i = 0; i < cfg.nunknown; i++)
		warn(out, "%s", cfg.warnings[i]);

	/* 1. The shared base. */
	if (!is_file(lay->base)) {
		rc = clawmd_err_set(err, CLAWMD_EINPUT,
				    "shared base '%s' is missing; set \"base\" in clawmd.json or --base",
				    lay->base);
		goto out;
	}
	if ((rc = add_source(out, &cap, lay, clawmd_xstrdup(CLAWMD_SHARED_NAME), NULL, lay->base,
			     lay->ct_base, err)) < 0)
		goto out;
	clawmd_buf_puts(&body, "@./" CLAWMD_SHARED_NAME "\n");

	/* 2. Skills: "all" means every skill shipping a fragment; a list is
	 * taken in bytewise order and an unknown name is a warning, not a
	 * failed spawn. */
	if (cfg.all_skills) {
		skills = list_dir(&nskills, lay->skills, skill_with_fragment);
	} else {
		skills = clawmd_xcalloc(cfg.nskills, sizeof(char *));
		int sfd = open(lay->skills, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		for (size_t i = 0; i < cfg.nskills; i++) {
			struct stat st;
			if (sfd < 0 || fstatat(sfd, cfg.skills[i], &st, 0) < 0 || !S_ISDIR(st.st_mode))
				warn(out, "groups/%s/container.json: skills: unknown skill '%s' (no %s/%s)",
				     group, cfg.skills[i], lay->skills, cfg.skills[i]);
			else if ((skills[nskills] = skill_with_fragment(sfd, cfg.skills[i])))
				nskills++;
		}
		if (sfd >= 0)
			close(sfd);
		qsort(skills, nskills, sizeof(*skills), clawmd_strcmp_ptr);
	}
	for (size_t i = 0; i < nskills && rc == 0; i++)
		rc = add_fragment(out, &cap, &body, lay, "skill", skills[i], &skills_dir,
				  lay->ct_skills, "/instructions.md", err);
	if (rc < 0)
		goto out;

	/* 3. Modules; cli_scope "disabled" drops the cli and scheduling ones. */
	if (lay->modules)
		modules = list_dir(&nmodules, lay->modules, module_fragment);
	for (size_t i = 0; i < nmodules && rc == 0; i++)
		if (!cfg.cli_disabled || (strcmp(modules[i], "cli") && strcmp(modules[i], "scheduling")))
			rc = add_fragment(out, &cap, &body, lay, "module", modules[i], &modules_dir,
					  lay->ct_modules, ".instructions.md", err);
	if (rc < 0)
		goto out;

	/* 4. Inline MCP instructions (already sorted), defused. */
	for (size_t i = 0; i < cfg.nmcp; i++) {
		const struct clawmd_mcp *m = &cfg.mcp[i];
		if (!m->instructions)
			continue;
		out->ndefused += clawmd_defuse_imports(&tmp, m->instructions, strlen(m->instructions));
		if (tmp.len && tmp.ptr[tmp.len - 1] != '\n')
			clawmd_buf_putc(&tmp, '\n');
		char *name = clawmd_xasprintf(CLAWMD_FRAGMENTS_DIR "/mcp-%s.md", m->name);
		clawmd_buf_printf(&body, "@./%s\n", name);
		size_t len = tmp.len;
		add_entry(out, &cap, name, CLAWMD_FT_FILE, clawmd_buf_detach(&tmp), len);
	}

	/* 5. The role, then CLAUDE.local.md for hosts that do not load it. */
	if (role)
		clawmd_buf_puts(&body, "@./" CLAWMD_ROLE_NAME "\n");
	if (lay->import_local)
		clawmd_buf_puts(&body, "@./" CLAWMD_LOCAL_NAME "\n");

	/* 6. The entry: header with the body's digest, then the body. */
	char hex[17];
	digest_hex(hex, body.ptr, body.len);
	clawmd_buf_printf(&tmp, "%s%s -->\n%s", CLAWMD_HEADER, hex, body.ptr);
	size_t len = tmp.len;
	add_entry(out, &cap, clawmd_xstrdup(CLAWMD_ENTRY_NAME), CLAWMD_FT_FILE,
		  clawmd_buf_detach(&tmp), len);
out:
	if (skills_dir.fd >= 0)
		close(skills_dir.fd);
	if (modules_dir.fd >= 0)
		close(modules_dir.fd);
	clawmd_strv_free(skills, nskills);
	clawmd_strv_free(modules, nmodules);
	clawmd_config_release(&cfg);
	clawmd_buf_release(&body);
	clawmd_buf_release(&tmp);
	if (rc < 0)
		clawmd_plan_release(out);
	return rc;
}
