/* changes.c - compare a plan with a group directory, and apply the
 * difference without ever losing content or following a planted link. */
#include "clawmd.h"
#include "compose/flat.h"
#include "group/group.h"
#include "compose/fragdir.h"
#include "fs/fs.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

/* The most of an existing CLAUDE.md carried into CLAUDE.local.md when it
 * is not ours; a larger one is moved aside only. */
#define ENTRY_MAX (1024 * 1024)
/* The most of an existing entry read to tell whether it is ours: past
 * anything clawmd writes there (a flat document of a 64 MiB row, an
 * inlined entry past its runtime's cap), so that clawmd's own entry is
 * never a hand edit by its size alone, moved aside at every spawn.  A
 * larger one is moved aside unread. */
#define ENTRY_OURS_MAX ((size_t)256 << 20)
/* The most of an old fragment read to show its diff. */
#define SHOW_MAX (64 * 1024)

void clawmd_changes_init(struct clawmd_changes *ch)
{
	memset(ch, 0, sizeof(*ch));
}

void clawmd_changes_release(struct clawmd_changes *ch)
{
	if (!ch)
		return;
	for (size_t i = 0; i < ch->n; i++) {
		free(ch->v[i].name);
		free(ch->v[i].moved_to);
		clawmd_buf_release(&ch->v[i].old);
		clawmd_buf_release(&ch->v[i].carry);
	}
	free(ch->v);
	free(ch->group);
	free(ch->path);
	clawmd_changes_init(ch);
}

static enum clawmd_ftype ftype(mode_t m)
{
	switch (m) {
	case 0:
		return CLAWMD_FT_NONE;
	case S_IFREG:
		return CLAWMD_FT_FILE;
	case S_IFLNK:
		return CLAWMD_FT_LINK;
	case S_IFDIR:
		return CLAWMD_FT_DIR;
	default:
		return CLAWMD_FT_OTHER;
	}
}

static struct clawmd_change *add(struct clawmd_changes *ch, enum clawmd_action a,
				 const char *name, enum clawmd_ftype old_type)
{
	clawmd_xgrow(&ch->v, &ch->cap, ch->n + 1, sizeof(*ch->v));
	struct clawmd_change *c = &ch->v[ch->n++];
	memset(c, 0, sizeof(*c));
	c->action = a;
	c->name = clawmd_xstrdup(name);
	c->old_type = old_type;
	return c;
}

/* The basename inside the directory that holds an entry. */
static const char *leaf(const char *name)
{
	const char *s = strrchr(name, '/');
	return s ? s + 1 : name;
}

/* The first line is clawmd's header (an HTML comment carrying the digest
 * tag), whether or not the digest still matches the rest. */
static bool composed_header(const char *data, size_t len)
{
	const char *nl = memchr(data, '\n', len);
	return nl && len > 4 && !memcmp(data, "<!--", 4) &&
	       memmem(data, (size_t)(nl - data), "clawmd:fnv1a64=", 15);
}

/*
 * The text a hand-edited or legacy CLAUDE.md carries into CLAUDE.local.md:
 * all of it, except clawmd's own header line and import lines when it was
 * composed once (carrying those would import every fragment twice).
 */
static void carry_text(struct clawmd_buf *out, const char *data, size_t len)
{
	static const char *const ours[] = {"@./" CLAWMD_SHARED_NAME, "@./" CLAWMD_FRAGMENTS_DIR "/",
					   "@./" CLAWMD_ROLE_NAME, "@./" CLAWMD_LOCAL_NAME};
	const char *end = data + len;
	bool composed = composed_header(data, len);
	const char *p = composed ? (const char *)memchr(data, '\n', len) + 1 : data;
	clawmd_buf_clear(out);
	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		size_t l = e ? (size_t)(e - p) : (size_t)(end - p);
		bool skip = false;
		for (size_t i = 0; composed && i < CLAWMD_ARRAY_SIZE(ours); i++) {
			size_t ol = strlen(ours[i]);
			skip |= l >= ol && !memcmp(p, ours[i], ol) &&
				(ours[i][ol - 1] == '/' || l == ol);
		}
		if (!skip)
			clawmd_buf_put(out, p, e ? l + 1 : l);
		p += e ? l + 1 : l;
	}
	for (size_t i = 0; i < out->len; i++)
		if (!strchr(" \t\r\n", out->ptr[i]))
			return;
	clawmd_buf_clear(out); /* nothing but whitespace: nothing to carry */
}

/*
 * A composed entry cut short: what a crash can leave of clawmd's own write
 * when it was not fsynced (a size made durable before all of the data, or
 * none of it): empty, a prefix of the header line, or the header line and
 * then only clawmd's own import lines, the last of which may itself be cut
 * short.  It is clawmd's and simply replaced; nothing in it is anybody's
 * text, so nothing is carried or moved aside.  One byte that clawmd would
 * not have written makes it a hand edit again.
 */
static bool torn_ours(const char *data, size_t len)
{
	static const char *const ours[] = {"@./" CLAWMD_SHARED_NAME "\n", "@./" CLAWMD_ROLE_NAME "\n",
					   "@./" CLAWMD_LOCAL_NAME "\n", "@./" CLAWMD_FRAGMENTS_DIR "/"};
	static const char hex[] = "0123456789abcdef";
	const size_t hl = sizeof(CLAWMD_HEADER) - 1;
	const char *end = data + len, *nl = memchr(data, '\n', len);
	if (!nl) { /* the header line itself, cut short */
		if (memcmp(data, CLAWMD_HEADER, len < hl ? len : hl) || len > hl + 16 + 4)
			return false;
		for (size_t i = hl; i < len; i++)
			if (i < hl + 16 ? !strchr(hex, data[i]) || !data[i] : data[i] != " -->"[i - hl - 16])
				return false;
		return true;
	}
	if (!composed_header(data, len))
		return false;
	for (const char *p = nl + 1; p < end;) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		size_t l = e ? (size_t)(e - p) + 1 : (size_t)(end - p); /* with its newline */
		bool mine = false;
		for (size_t i = 0; i < CLAWMD_ARRAY_SIZE(ours) && !mine; i++) {
			size_t ol = strlen(ours[i]);
			if (ours[i][ol - 1] == '/') /* a fragment: the directory, then a name */
				mine = !memcmp(p, ours[i], l < ol ? l : ol) &&
				       (l <= ol || !memchr(p + ol, '/', l - ol));
			else /* a whole line, or the start of the last one */
				mine = e ? l == ol && !memcmp(p, ours[i], ol) : l < ol && !memcmp(p, ours[i], l);
		}
		if (!mine)
			return false;
		p += l;
	}
	return true;
}

/*
 * Compare one wanted entry with what is in `d`.  An entry of the wrong type
 * that clawmd cannot have written (a directory, a FIFO, or a symlink where
 * CLAUDE.md belongs) is preserved first; a file or symlink in a fragment
 * name is ours in either mode and simply replaced, which is how switching
 * between symlink and copy mode converges.
 *
 * Reads are bounded by what the answer needs, never by what the agent put
 * there: a fragment larger than both the wanted content and what a diff
 * is worth showing differs, full stop.
 */
/*
 * What a comparison found right is noted for the record (fs/inputs.h): a
 * file by the identity of what was read; a symlink, which is never
 * changed in place, by its own identity in the group directory and, in
 * the fragments directory, by that directory's (noted by the caller).
 */
static void note_right(struct clawmd_inputs *in, const struct clawmd_dir *d,
		       const struct clawmd_entry *want, const struct stat *read)
{
	struct stat st;
	if (read)
		clawmd_inputs_note(in, CLAWMD_INPUT_CONTENT, CLAWMD_AT_GROUP, want->name, read);
	else if (!strchr(want->name, '/') && in && in->on)
		clawmd_inputs_note(in, CLAWMD_INPUT_CONTENT, CLAWMD_AT_GROUP, want->name,
				   fstatat(d->fd, want->name, &st, AT_SYMLINK_NOFOLLOW) == 0 ? &st : NULL);
}

/* The common case first: a wanted symlink or fragment that is already
 * right, found with one readlinkat() or one read (a no-op compose checks
 * every fragment). */
static bool already_right(const struct clawmd_dir *d, const struct clawmd_entry *want,
			  bool is_entry, struct clawmd_inputs *in)
{
	struct clawmd_err scratch = CLAWMD_ERR_INIT;
	struct clawmd_buf old = CLAWMD_BUF_INIT;
	struct stat st;
	bool right = false;
	if (want->type == CLAWMD_FT_LINK) {
		right = clawmd_fs_readlink(&old, d, leaf(want->name), &scratch) == 0 &&
			!strcmp(old.ptr, want->data);
		if (right)
			note_right(in, d, want, NULL);
	} else if (want->type == CLAWMD_FT_FILE && !is_entry) {
		right = clawmd_fs_read_st(&old, &st, d, leaf(want->name), want->len, &scratch) == 0 &&
			old.len == want->len && !memcmp(old.ptr, want->data, want->len);
		if (right)
			note_right(in, d, want, &st);
	}
	clawmd_buf_release(&old);
	return right;
}

/* The group's CLAUDE.md is clawmd's import entry (whole, or cut short by a
 * crash), holding `line` when one is given. */
static bool group_entry_ours(const struct clawmd_dir *d, const char *line)
{
	struct clawmd_err scratch = CLAWMD_ERR_INIT;
	struct clawmd_buf entry = CLAWMD_BUF_INIT;
	bool ours = clawmd_fs_read(&entry, d, CLAWMD_ENTRY_NAME, ENTRY_OURS_MAX, &scratch) == 0 &&
		    (clawmd_entry_ours(entry.ptr, entry.len) || torn_ours(entry.ptr, entry.len)) &&
		    (!line || memmem(entry.ptr, entry.len, line, strlen(line)));
	clawmd_buf_release(&entry);
	return ours;
}

/*
 * A regular .claude-shared.md that differs from the base is clawmd's
 * stale copy only while the group's CLAUDE.md is clawmd's import entry,
 * the one that imports it.  Otherwise (the flat layout, where the name is
 * nobody's but the agent's, or no compose yet) it is somebody's text:
 * moved aside before the copy is written, never overwritten.
 */
static bool shared_foreign(const struct clawmd_dir *d, const struct clawmd_entry *want,
			   enum clawmd_ftype t)
{
	if (t != CLAWMD_FT_FILE || strcmp(want->name, CLAWMD_SHARED_NAME))
		return false;
	return !group_entry_ours(d, NULL);
}

static int compare_entry(struct clawmd_changes *ch, const struct clawmd_dir *d,
			 const struct clawmd_entry *want, bool is_entry, bool local_free,
			 struct clawmd_inputs *in, const struct clawmd_group *g,
			 struct clawmd_err *err)
{
	struct stat st;
	mode_t m;
	struct clawmd_change *c;
	struct clawmd_buf old = CLAWMD_BUF_INIT;
	bool unread = false;
	int rc;
	if (already_right(d, want, is_entry, in))
		return 0;
	if ((rc = clawmd_fs_type(&m, d, leaf(want->name), err)) < 0) {
		clawmd_buf_release(&old);
		return rc;
	}
	enum clawmd_ftype t = ftype(m);

	if (t == CLAWMD_FT_FILE && (is_entry || want->type == CLAWMD_FT_FILE)) {
		size_t max = is_entry ? ENTRY_OURS_MAX : want->len > SHOW_MAX ? want->len : SHOW_MAX;
		rc = clawmd_fs_read_st(&old, &st, d, leaf(want->name), max, err);
		if (rc < 0 && err->code == CLAWMD_EINPUT) {
			clawmd_err_clear(err); /* larger than wanted: differs */
			clawmd_buf_release(&old);
			unread = true;
			rc = 0;
		}
		if (rc < 0)
			goto out;
		if (is_entry && (unread || !(clawmd_entry_ours(old.ptr, old.len) ||
					     torn_ours(old.ptr, old.len) ||
					     clawmd_flat_ours(g, want->name, old.ptr, old.len)))) {
			c = add(ch, CLAWMD_PRESERVE, want->name, t);
			c->old_unread = unread;
			/* Text someone wrote is carried into the memory file; a
			 * runtime's inlined entry edited in place is not (it
			 * holds every part already imported) and goes aside. */
			c->into_local = local_free && !unread && old.len <= ENTRY_MAX &&
					(!strcmp(want->name, CLAWMD_ENTRY_NAME) ||
					 !composed_header(old.ptr, old.len));
			if (c->into_local)
				carry_text(&c->carry, old.ptr, old.len);
			c->old = old;
			old = (struct clawmd_buf)CLAWMD_BUF_INIT;
			t = CLAWMD_FT_NONE;
		} else if (!unread && want->type == CLAWMD_FT_FILE && old.len == want->len &&
			   !memcmp(old.ptr, want->data, want->len)) {
			note_right(in, d, want, &st);
			goto out; /* unchanged */
		}
	} else if (t == CLAWMD_FT_FILE) {
		unread = true; /* a file where a symlink is wanted: its content does not matter */
	} else if (t == CLAWMD_FT_LINK && !is_entry) {
		if ((rc = clawmd_fs_readlink(&old, d, leaf(want->name), err)) < 0)
			goto out;
		if (want->type == CLAWMD_FT_LINK && !strcmp(old.ptr, want->data)) {
			note_right(in, d, want, NULL);
			goto out;
		}
	} else if (t != CLAWMD_FT_NONE) {
		add(ch, CLAWMD_PRESERVE, want->name, t);
		t = CLAWMD_FT_NONE;
	}
	if (shared_foreign(d, want, t)) {
		add(ch, CLAWMD_PRESERVE, want->name, t)->old_unread = true;
		t = CLAWMD_FT_NONE;
		clawmd_buf_release(&old);
		unread = false;
	}
	c = add(ch, CLAWMD_WRITE, want->name, t);
	c->want = want;
	c->old = old;
	c->old_unread = unread;
	old = (struct clawmd_buf)CLAWMD_BUF_INIT;
out:
	clawmd_buf_release(&old);
	return rc;
}

static bool planned(const struct clawmd_plan *plan, const char *name)
{
	for (size_t i = 0; i < plan->n; i++)
		if (!strcmp(plan->entries[i].name, name))
			return true;
	return false;
}

/*
 * The entry file of a runtime the group no longer runs (a provider switched
 * back): removed when it is clawmd's own and unedited; anything else there
 * is somebody's file and stays.
 */
static void stale_entries(struct clawmd_changes *ch, const struct clawmd_dir *gd,
			  const struct clawmd_plan *plan, const struct clawmd_group *g)
{
	for (int rt = 0; rt < CLAWMD_RUNTIME_N; rt++) {
		const char *name = clawmd_runtime_entry(rt);
		struct clawmd_buf old = CLAWMD_BUF_INIT;
		struct clawmd_err scratch = CLAWMD_ERR_INIT;
		bool seen = !name;
		for (int o = 0; o < rt && !seen; o++)
			seen = clawmd_runtime_entry(o) && !strcmp(clawmd_runtime_entry(o), name);
		if (seen || planned(plan, name))
			continue;
		/* absent, a symlink, too large or not a file: not ours */
		if (clawmd_fs_read(&old, gd, name, ENTRY_OURS_MAX, &scratch) == 0 &&
		    (clawmd_entry_ours(old.ptr, old.len) || clawmd_flat_ours(g, name, old.ptr, old.len))) {
			struct clawmd_change *c = add(ch, CLAWMD_REMOVE, name, CLAWMD_FT_FILE);
			c->old = old;
			continue;
		}
		clawmd_buf_release(&old);
	}
}

/* Fragments clawmd wrote: skill-*.md, module-*.md, mcp-*.md, persona.md. */
static bool fragment_name(const char *name)
{
	size_t len = strlen(name);
	return !strcmp(name, CLAWMD_PERSONA_FRAGMENT) ||
	       !strcmp(name, CLAWMD_SHARED_LEAF) ||
	       (len > 3 && !strcmp(name + len - 3, ".md") &&
		(!strncmp(name, "skill-", 6) || !strncmp(name, "module-", 7) ||
		 !strncmp(name, "mcp-", 4)));
}

/*
 * Entries of `d` that clawmd wrote but the plan no longer wants: stale
 * fragments (in .claude-fragments) and, in either directory, the temps of a
 * run that was killed between staging and committing.  Only files and
 * symlinks: a directory under such a name is not ours and stays.
 */
/*
 * A killed run's temp: a temp name (fs/temp.c) staged for a name clawmd owns in
 * this directory.  Temp names keep 24 bytes of the name, so a fragment's is
 * matched by its prefix.  Anybody else's ".x.<hex>.tmp" is left alone.
 */
static bool our_temp(const char *name, bool in_fragments)
{
	char buf[32];
	const char *base = clawmd_fs_temp_of(buf, name);
	if (!base)
		return false;
	if (in_fragments)
		return !strcmp(base, CLAWMD_PERSONA_FRAGMENT) ||
		       ((strlen(base) == 24 || fragment_name(base)) &&
			(!strncmp(base, "skill-", 6) || !strncmp(base, "module-", 7) ||
			 !strncmp(base, "mcp-", 4)));
	return clawmd_runtime_entry_name(base) || !strcmp(base, CLAWMD_SHARED_NAME) ||
	       !strcmp(base, CLAWMD_FRAGMENTS_DIR) || !strcmp(base, CLAWMD_LOCAL_NAME);
}

/* Whose entry file is being removed: a flat one is told by its record. */
struct change_owner {
	const struct clawmd_group *g;
	const char *name;
};

/* A leftover CLAUDE.md temp that is an unedited composed entry is
 * clawmd's own output, whatever the digest in its name says: that is what
 * a swap that was killed leaves there in the common case. */
static bool composed_ours(const char *data, size_t len, void *payload)
{
	const struct change_owner *o = payload;
	return clawmd_entry_ours(data, len) ||
	       (o && clawmd_flat_ours(o->g, o->name, data, len));
}

static clawmd_fs_ours_fn ours_for(const char *temp)
{
	char buf[32];
	const char *base = clawmd_fs_temp_of(buf, temp);
	return base && clawmd_runtime_entry_name(base) ? composed_ours : NULL;
}

/* Whether the leftover temp `name` would be removed (nothing changed).  A
 * flat entry's temp is told by the group's record, under the entry's name:
 * a swap killed halfway leaves the entry it replaced there, whose digest
 * the record holds beside the new one (compose.c). */
static bool leftover_ours(const struct clawmd_dir *d, const char *name,
			  const struct clawmd_group *g)
{
	char buf[32];
	struct change_owner own = {g, clawmd_fs_temp_of(buf, name)};
	return clawmd_fs_is_own(d, name, ours_for(name), own.name ? &own : NULL);
}

/* What one listing of `d` found left over (names with `prefix`): files
 * (fragments no longer planned, temps) and fragment directories. */
struct leftover_names {
	char **files, **dirs;
	size_t nfiles, ndirs, fcap, dcap;
};

static int list_leftovers(struct leftover_names *out, const struct clawmd_dir *d,
			  const char *prefix, const struct clawmd_plan *plan, struct clawmd_err *err)
{
	DIR *dir = clawmd_fs_list(d->fd);
	if (!dir)
		return clawmd_err_sys(err, CLAWMD_EFS, "could not list '%s'", d->path);
	/* One listing serves both: names and temps of fragment files, and (in
	 * .claude-fragments) fragment directories no longer planned (a skill
	 * dropped, a switch to symlink mode, imports removed) and a killed
	 * run's staging directories. */
	struct dirent *e;
	while ((e = readdir(dir))) {
		char buf[32];
		struct stat st;
		bool fragdir = *prefix &&
			       (clawmd_fragdir_name(e->d_name) ||
				clawmd_fragdir_temp_of(buf, e->d_name)) &&
			       fstatat(d->fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			       S_ISDIR(st.st_mode);
		if (!fragdir && !our_temp(e->d_name, *prefix) &&
		    !(*prefix && fragment_name(e->d_name)))
			continue;
		char *name = clawmd_xasprintf("%s%s", prefix, e->d_name);
		if (planned(plan, name)) {
			free(name);
		} else if (fragdir) {
			clawmd_xgrow(&out->dirs, &out->dcap, out->ndirs + 1, sizeof(*out->dirs));
			out->dirs[out->ndirs++] = name;
		} else {
			clawmd_xgrow(&out->files, &out->fcap, out->nfiles + 1, sizeof(*out->files));
			out->files[out->nfiles++] = name;
		}
	}
	closedir(dir);
	/* Sorted, so that output and syscalls are deterministic. */
	if (out->nfiles)
		qsort(out->files, out->nfiles, sizeof(*out->files), clawmd_strcmp_ptr);
	if (out->ndirs)
		qsort(out->dirs, out->ndirs, sizeof(*out->dirs), clawmd_strcmp_ptr);
	return 0;
}

/* What becomes of the leftover file `name` (in `d`, with `prefix`). */
static int leftover_file(struct clawmd_changes *ch, const struct clawmd_dir *d, const char *prefix,
			 const char *name, const struct clawmd_group *g, struct clawmd_err *err)
{
	mode_t m;
	int rc;
	if ((rc = clawmd_fs_type(&m, d, leaf(name), err)) < 0)
		return rc;
	/* A staging directory of a killed run (only ever directly in the
	 * group directory) is emptied of our names and removed. */
	char buf[32];
	if (m == S_IFDIR && !*prefix && !strcmp(clawmd_fs_temp_of(buf, name), CLAWMD_FRAGMENTS_DIR)) {
		add(ch, CLAWMD_REMOVE, name, CLAWMD_FT_DIR);
		return 0;
	}
	if (m != S_IFREG && m != S_IFLNK)
		return 0;
	/* A temp is removed only when it holds what clawmd staged (or another
	 * provably own content, see leftover_ours); after a swap that a kill
	 * interrupted, it holds the agent's file, which is moved aside
	 * instead.  Apply checks again when it acts.  The check reads at most
	 * CLAWMD_FS_STAGED_MAX, once: what is not ours is moved aside, so no
	 * spawn reads it again. */
	bool temp = clawmd_fs_temp_of(buf, leaf(name)) != NULL;
	if (temp && !leftover_ours(d, leaf(name), g)) {
		add(ch, CLAWMD_PRESERVE, name, ftype(m))->old_unread = true;
		return 0;
	}
	struct clawmd_change *c = add(ch, CLAWMD_REMOVE, name, ftype(m));
	c->old_unread = m == S_IFREG;
	if (m == S_IFLNK)
		rc = clawmd_fs_readlink(&c->old, d, leaf(name), err);
	return rc < 0 ? rc : 0;
}

static int leftovers(struct clawmd_changes *ch, const struct clawmd_dir *d,
		     const char *prefix, const struct clawmd_plan *plan,
		     const struct clawmd_group *g, struct clawmd_err *err)
{
	struct leftover_names l = {0};
	int rc = list_leftovers(&l, d, prefix, plan, err);
	for (size_t i = 0; i < l.nfiles && rc == 0; i++)
		rc = leftover_file(ch, d, prefix, l.files[i], g, err);
	for (size_t i = 0; i < l.ndirs && rc == 0; i++)
		add(ch, CLAWMD_REMOVE, l.dirs[i], CLAWMD_FT_DIR)->old_unread = true;
	clawmd_strv_free(l.files, l.nfiles);
	clawmd_strv_free(l.dirs, l.ndirs);
	return rc;
}

static int local_state(bool *missing, bool *free_for_entry, const struct clawmd_dir *gd,
		       struct clawmd_inputs *in, struct clawmd_err *err)
{
	struct stat st;
	*missing = *free_for_entry = false;
	bool there = fstatat(gd->fd, CLAWMD_LOCAL_NAME, &st, AT_SYMLINK_NOFOLLOW) == 0;
	if (there || errno == ENOENT)
		clawmd_inputs_note(in, CLAWMD_INPUT_TYPE, CLAWMD_AT_GROUP, CLAWMD_LOCAL_NAME,
				   there ? &st : NULL);
	if (!there) {
		if (errno != ENOENT)
			return clawmd_err_sys(err, CLAWMD_EFS, "could not stat '%s/" CLAWMD_LOCAL_NAME "'",
					      gd->path);
		*missing = *free_for_entry = true;
		return 0;
	}
	/* An empty regular file may be replaced; a symlink is never followed
	 * and counts as content. */
	*free_for_entry = S_ISREG(st.st_mode) && st.st_size == 0;
	return 0;
}

/* A copied fragment's directory (copy mode, relative imports): rewritten
 * whole when anything in it differs; anything else at its name is moved
 * aside first. */
static int compare_fragdir(struct clawmd_changes *ch, const struct clawmd_dir *d,
			   const struct clawmd_entry *want, struct clawmd_inputs *in,
			   struct clawmd_err *err)
{
	mode_t m;
	int rc = clawmd_fs_type(&m, d, leaf(want->name), err);
	if (rc < 0)
		return rc;
	if (m == S_IFDIR && clawmd_fragdir_same(d, leaf(want->name), want, in, want->name))
		return 0;
	if (m && m != S_IFDIR) {
		add(ch, CLAWMD_PRESERVE, want->name, ftype(m));
		m = 0;
	}
	struct clawmd_change *c = add(ch, CLAWMD_WRITE, want->name, ftype(m));
	c->want = want;
	c->old_unread = m != 0;
	return 0;
}

/* The fragments directory: a planted symlink or file there is moved aside
 * and a real directory made in its place (fd stays -1).  Its identity
 * vouches for the symlinks in it and for stale fragments being absent
 * (its listing, in leftovers()). */
static int compute_fragments_dir(struct clawmd_changes *out, struct clawmd_dir *fd,
				 const struct clawmd_dir *gd, bool flat, struct clawmd_inputs *in,
				 struct clawmd_err *err)
{
	mode_t m;
	struct stat st;
	int rc = clawmd_fs_type(&m, gd, CLAWMD_FRAGMENTS_DIR, err);
	if (rc < 0)
		return rc;
	if (m == S_IFDIR) {
		if ((rc = clawmd_dir_openat(fd, gd, CLAWMD_FRAGMENTS_DIR, false, err)) < 0)
			return rc;
		if (fstat(fd->fd, &st) == 0)
			clawmd_inputs_note(in, CLAWMD_INPUT_CONTENT, CLAWMD_AT_GROUP, CLAWMD_FRAGMENTS_DIR, &st);
		else
			clawmd_inputs_lose(in);
		return 0;
	}
	st.st_mode = m;
	clawmd_inputs_note(in, CLAWMD_INPUT_TYPE, CLAWMD_AT_GROUP, CLAWMD_FRAGMENTS_DIR, m ? &st : NULL);
	if (flat) /* the flat document has none: what is there is not clawmd's */
		return 0;
	if (m)
		add(out, CLAWMD_PRESERVE, CLAWMD_FRAGMENTS_DIR, ftype(m));
	add(out, CLAWMD_MKDIR, CLAWMD_FRAGMENTS_DIR, CLAWMD_FT_NONE);
	return 0;
}

/* Each entry of the plan against what is there. */
static int compute_entries(struct clawmd_changes *out, const struct clawmd_plan *plan,
			   const struct clawmd_dir *fd, const struct clawmd_dir *gd, bool local_free,
			   struct clawmd_inputs *in, const struct clawmd_group *g,
			   struct clawmd_err *err)
{
	int rc = 0;
	for (size_t i = 0; i < plan->n && rc >= 0; i++) {
		const struct clawmd_entry *e = &plan->entries[i];
		bool in_frag = strchr(e->name, '/') != NULL;
		if (in_frag && fd->fd < 0) /* the directory is new: all fragments too */
			add(out, CLAWMD_WRITE, e->name, CLAWMD_FT_NONE)->want = e;
		else if (e->type == CLAWMD_FT_DIR)
			rc = compare_fragdir(out, fd, e, in, err);
		else
			rc = compare_entry(out, in_frag ? fd : gd, e, clawmd_runtime_entry_name(e->name),
					   local_free, in, g, err);
	}
	return rc;
}

/* What is carried into CLAUDE.local.md, and whether it is made empty.  A
 * legacy entry carried there loses its import of the legacy
 * .claude-global.md (gone after the cutover), as in migrate. */
static void compute_local(struct clawmd_changes *out, bool local_missing, const char *ct_group)
{
	bool entry_into_local = false;
	for (size_t i = 0; i < out->n; i++) {
		struct clawmd_change *c = &out->v[i];
		if (c->action != CLAWMD_PRESERVE || !c->into_local || !c->carry.len)
			continue;
		struct clawmd_buf kept = CLAWMD_BUF_INIT;
		clawmd_entry_carry(&kept, c->carry.ptr, c->carry.len, ct_group);
		size_t k = 0;
		while (k < kept.len && strchr(" \t\r\n", kept.ptr[k]))
			k++;
		if (k == kept.len)
			clawmd_buf_clear(&kept); /* nothing else: nothing to carry */
		clawmd_buf_release(&c->carry);
		c->carry = kept;
		entry_into_local |= c->carry.len > 0;
	}
	if (local_missing && !entry_into_local)
		add(out, CLAWMD_CREATE_LOCAL, CLAWMD_LOCAL_NAME, CLAWMD_FT_NONE);
}

/*
 * What another layout left: the flat document keeps nothing of the import
 * layout (.claude-fragments goes when it is clawmd's directory: its files
 * were listed as stale by leftovers(), anything else in it is moved aside
 * with it), and neither it nor symlink mode, whose link to the base lies
 * in .claude-fragments, keeps .claude-shared.md when it is clawmd's or
 * nanoclaw's (a symlink to the base, or copy mode's copy of it: the base's
 * text, or any text while clawmd's entry imports it).  Anything else under
 * those names is somebody's and stays.
 */
static int layout_leftovers(struct clawmd_changes *ch, const struct clawmd_dir *gd,
			    const struct clawmd_dir *fd, const struct clawmd_group *g,
			    const struct clawmd_plan *plan, struct clawmd_err *err)
{
	mode_t m;
	int rc;
	if (plan->flat && fd->fd >= 0)
		add(ch, CLAWMD_REMOVE, CLAWMD_FRAGMENTS_DIR, CLAWMD_FT_DIR)->old_unread = true;
	for (size_t i = 0; i < plan->n; i++)
		if (!strcmp(plan->entries[i].name, CLAWMD_SHARED_NAME))
			return 0; /* copy mode's: compared as an entry */
	if ((rc = clawmd_fs_type(&m, gd, CLAWMD_SHARED_NAME, err)) < 0)
		return rc;
	if (m == S_IFLNK) {
		struct clawmd_change *c = add(ch, CLAWMD_REMOVE, CLAWMD_SHARED_NAME, CLAWMD_FT_LINK);
		return clawmd_fs_readlink(&c->old, gd, CLAWMD_SHARED_NAME, err) < 0 ? err->code : 0;
	}
	if (m != S_IFREG)
		return 0;
	struct clawmd_buf have = CLAWMD_BUF_INIT, base = CLAWMD_BUF_INIT;
	struct clawmd_err scratch = CLAWMD_ERR_INIT;
	struct clawmd_dir root = CLAWMD_DIR_INIT;
	char *dir = clawmd_path_dir(g->lay->base);
	const char *leafname = strrchr(g->lay->base, '/') ? strrchr(g->lay->base, '/') + 1 : g->lay->base;
	bool same = clawmd_fs_read(&have, gd, CLAWMD_SHARED_NAME, ENTRY_MAX, &scratch) == 0 &&
		    clawmd_dir_open(&root, dir, &scratch) == 0 &&
		    clawmd_fs_read(&base, &root, leafname, ENTRY_MAX, &scratch) == 0 &&
		    have.len == base.len && !memcmp(have.ptr, base.ptr, have.len);
	/* copy mode's, stale or not, while clawmd's entry imports it */
	if (same || group_entry_ours(gd, "\n@./" CLAWMD_SHARED_NAME "\n"))
		add(ch, CLAWMD_REMOVE, CLAWMD_SHARED_NAME, CLAWMD_FT_FILE)->old_unread = true;
	clawmd_dir_release(&root);
	clawmd_buf_release(&have);
	clawmd_buf_release(&base);
	free(dir);
	return 0;
}

int clawmd_changes_compute(struct clawmd_changes *out, struct clawmd_group *g,
			   const struct clawmd_plan *plan, struct clawmd_err *err)
{
	const struct clawmd_dir *group;
	struct clawmd_dir fd = CLAWMD_DIR_INIT;
	struct clawmd_inputs *in = &g->inputs; /* what the comparison read, noted */
	bool local_missing, local_free;
	int rc;

	clawmd_changes_init(out);
	out->group = clawmd_xstrdup(g->name);
	out->path = clawmd_xstrdup(g->shown);
	if ((rc = clawmd_group_dir(&group, g, err)) < 0)
		goto out;
	/* The caller's descriptor, under the name messages show. */
	struct clawmd_dir gd = {group->fd, out->path};
	if ((rc = local_state(&local_missing, &local_free, &gd, in, err)) < 0)
		goto out;
	/* The flat document carries nothing into CLAUDE.local.md (nanoclaw
	 * keeps memory in memory/) and creates none: a hand edit goes aside. */
	if (plan->flat)
		local_free = local_missing = false;
	if ((rc = compute_fragments_dir(out, &fd, &gd, plan->flat, in, err)) < 0 ||
	    (rc = compute_entries(out, plan, &fd, &gd, local_free, in, g, err)) < 0)
		goto out;
	/* Neither the group directory's leftovers nor the entry files of
	 * runtimes the group does not run are noted: only clawmd writes what
	 * they look for (its temps, its own entries), and a compose forgets
	 * the record before it writes; noting them would cost every no-op a
	 * stat per name, or a listing of the directory the agent writes in. */
	if ((rc = leftovers(out, &gd, "", plan, g, err)) < 0)
		goto out;
	stale_entries(out, &gd, plan, g);
	if ((rc = layout_leftovers(out, &gd, &fd, g, plan, err)) < 0)
		goto out;
	if (fd.fd >= 0 && (rc = leftovers(out, &fd, CLAWMD_FRAGMENTS_DIR "/", plan, g, err)) < 0)
		goto out;
	compute_local(out, local_missing, g->lay->ct_group);
out:
	clawmd_dir_release(&fd);
	return rc;
}

/* ---- apply -------------------------------------------------------------- */

/*
 * Carry a hand-written entry's text into CLAUDE.local.md, which compute saw
 * missing or empty.  The agent may hold it open and write to it at any
 * moment (its memory: an editor, a tool appending), so its inode is never
 * replaced, only appended to (issue 42: a swapped-in new file left the
 * agent's next line in an unlinked inode):
 *  1. missing: the staged text, given the directory's owner first (so the
 *     agent can write to it from the moment it appears), takes the name
 *     with RENAME_NOREPLACE, which fails if it appeared meanwhile;
 *  2. present: appended in place (clawmd_fs_append_empty), only while it
 *     is still an empty regular file;
 *  3. not empty after all (the agent wrote since compute looked): 1, and
 *     the caller moves the entry aside instead.  Nothing was written.
 * Returns 0 when carried, 1, or EFS.  The staged temp, unused in 2 and 3,
 * is removed by the stage's release.
 */
static int commit_local(const struct clawmd_dir *gd, struct clawmd_stage *st,
			const struct clawmd_buf *carry, struct clawmd_err *err)
{
	int rc = clawmd_fs_own_like_dir(gd, st->tmp, err);
	for (int tries = 0; rc == 0 && tries < 3; tries++) {
		if (renameat2(gd->fd, st->tmp, gd->fd, CLAWMD_LOCAL_NAME, RENAME_NOREPLACE) == 0) {
			st->pending = false;
			return 0;
		}
		if (errno != EEXIST)
			return clawmd_err_sys(err, CLAWMD_EFS,
					      "could not write '%s/" CLAWMD_LOCAL_NAME "'", gd->path);
		rc = clawmd_fs_append_empty(gd, CLAWMD_LOCAL_NAME, carry->ptr, carry->len, err);
		struct stat there;
		if (rc != 1 || fstatat(gd->fd, CLAWMD_LOCAL_NAME, &there, AT_SYMLINK_NOFOLLOW) == 0 ||
		    errno != ENOENT)
			return rc;
		rc = 0; /* renamed away meanwhile: missing again */
	}
	return rc < 0 ? rc : 1;
}

/*
 * Put the new CLAUDE.md in place.  Compute decided what was there may be
 * replaced (`expect`: its content, or NULL when it was moved aside), but
 * the agent may have edited it since.  So swap instead of renaming over:
 *  1. RENAME_EXCHANGE: the new entry takes the name in one step, and the
 *     old one lands at the temp name, where nothing can be lost;
 *  2. it is removed only if it is exactly what compute saw or an unedited
 *     composed entry (clawmd_fs_remove_own); otherwise it is moved aside.
 * When nothing is there, RENAME_NOREPLACE, so a file created meanwhile is
 * swapped (and checked) instead of overwritten.
 */
struct entry_expect {
	const struct clawmd_buf *expect;
};

static bool entry_ours(const char *data, size_t len, void *payload)
{
	const struct entry_expect *e = payload;
	if (e->expect && len == e->expect->len && !memcmp(data, e->expect->ptr, len))
		return true;
	return clawmd_entry_ours(data, len);
}

static int commit_entry(const struct clawmd_dir *gd, struct clawmd_stage *st,
			const struct clawmd_buf *expect, char **preserved, struct clawmd_err *err)
{
	for (int tries = 0;; tries++) {
		if (renameat2(gd->fd, st->tmp, gd->fd, st->name, RENAME_EXCHANGE) == 0)
			break;
		if (errno == EINVAL) /* no RENAME_EXCHANGE here: a plain rename */
			return clawmd_fs_commit(st, err);
		if (errno == ENOENT && tries < 2) {
			if (renameat2(gd->fd, st->tmp, gd->fd, st->name, RENAME_NOREPLACE) == 0) {
				st->pending = false;
				return 0;
			}
			if (errno == EEXIST)
				continue;
		}
		return clawmd_err_sys(err, CLAWMD_EFS, "could not rename '%s/%s' to '%s/%s'",
				      gd->path, st->tmp, gd->path, st->name);
	}
	st->pending = false; /* the temp name now holds the old entry */
	struct entry_expect e = {expect};
	return clawmd_fs_remove_own(preserved, gd, st->tmp, st->name, entry_ours, &e, err);
}

/* Remove a killed run's staging directory: our names inside, then the
 * directory.  Anything else inside is not ours: the directory is then
 * moved aside with it, so it is not reported as drift forever. */
static int remove_staging_dir(const struct clawmd_dir *gd, const char *name,
			      struct clawmd_err *err)
{
	struct clawmd_dir sd = CLAWMD_DIR_INIT;
	int rc = clawmd_dir_openat(&sd, gd, name, true, err);
	if (rc != 0)
		return rc < 0 ? rc : 0;
	DIR *dir = clawmd_fs_list(sd.fd);
	if (!dir) {
		rc = clawmd_err_sys(err, CLAWMD_EFS, "could not list '%s'", sd.path);
		goto out;
	}
	struct dirent *e;
	while ((e = readdir(dir)) && rc == 0) {
		mode_t m;
		if (!fragment_name(e->d_name) && !our_temp(e->d_name, true))
			continue;
		if ((rc = clawmd_fs_type(&m, &sd, e->d_name, err)) == 0 &&
		    (m == S_IFREG || m == S_IFLNK))
			rc = clawmd_fs_unlink(&sd, e->d_name, err);
	}
	closedir(dir);
	if (rc == 0 && unlinkat(gd->fd, name, AT_REMOVEDIR) < 0) {
		char *moved = NULL;
		if (errno == ENOTEMPTY || errno == EEXIST)
			rc = clawmd_fs_move_aside(&moved, gd, name, err);
		else
			rc = clawmd_err_sys(err, CLAWMD_EFS, "could not remove '%s'", sd.path);
		free(moved);
	}
out:
	clawmd_dir_release(&sd);
	return rc;
}

/* A name moved aside inside the fragments directory is shown with it. */
static void in_dir(char **moved_to, const char *name)
{
	if (*moved_to && strchr(name, '/')) {
		char *p = clawmd_xasprintf(CLAWMD_FRAGMENTS_DIR "/%s", *moved_to);
		free(*moved_to);
		*moved_to = p;
	}
}

/*
 * Apply in two phases so that a failure while writing (a full disk, EIO)
 * leaves the group exactly as it was:
 *
 *  1. stage: every new file and symlink is written, fsynced and closed
 *     under a temp name; a new .claude-fragments is built complete under a
 *     temp directory name.  Any failure removes the temps and stops.
 *  2. commit, in an order where each intermediate state still loads:
 *     a. move wrong-typed entries aside (never deleting their content);
 *     b. fragments and the shared base, then the new directory into place,
 *        so everything the new CLAUDE.md imports exists before it does;
 *     c. preserve a hand-written CLAUDE.md, then rename the new one in;
 *     d. remove stale fragments, which nothing imports any more;
 *     e. create CLAUDE.local.md if missing; fsync both directories when
 *        something in them cannot be regenerated (below).
 *
 * What is fsynced: only what cannot be regenerated.
 *  - Fragments, the shared base and the composed CLAUDE.md are rebuilt
 *    from the sources by the next compose, which the runner runs before
 *    every spawn, i.e. before anything loads them.  A crash can leave each
 *    of them missing, empty, torn, or as it was before; the next compose
 *    sees every one of those: fragments are compared byte for byte (or
 *    through the record of lib/compose/record.c, which a torn file cannot match:
 *    its size, inode or times differ, and a compose that changes the group
 *    spoils the record before it starts), and an entry cut short is
 *    recognised as clawmd's own (torn_ours) and replaced, never carried or
 *    preserved.  The rename over the target still makes each replacement
 *    atomic for readers while the machine runs.  So they are not fsynced,
 *    and neither are their directories: that was ~90% of a first compose.
 *  - What is carried into CLAUDE.local.md and what is moved aside (a
 *    hand-written CLAUDE.md, anything of the wrong type, an entry edited
 *    while compose ran) exists nowhere else: the carried file is fsynced
 *    before it is renamed in, and both directories are fsynced after.
 *  - migrate writes through clawmd_fs_replace_file(), always durable.
 */
/* What the phases of an apply share. */
struct apply {
	struct clawmd_changes *ch;
	struct clawmd_dir gd;	   /* the group's descriptor, under the name messages show */
	struct clawmd_dir fd;	   /* .claude-fragments, or the new one under its temp name */
	struct clawmd_stage *st;   /* st[i]: change i's staged file or symlink */
	char (*dtmp)[64];	   /* dtmp[i]: change i's staged fragment directory */
	size_t nstaged;		   /* changes staged for */
	char tmpdir[64];	   /* the new .claude-fragments, until renamed in */
	bool mkdir_frag, durable;
	const struct clawmd_group *g; /* whose flat entries are judged by its record */
	struct clawmd_err *err;
};

/* The directory fragments are staged in: the existing .claude-fragments,
 * or a new one built complete under a temp name. */
static int apply_fragments_dir(struct apply *a)
{
	/* Nothing to do in it (the flat document has no fragments): whatever
	 * the agent put at the name, even a symlink, is not opened, and not a
	 * reason to fail the compose. */
	bool inside = false;
	for (size_t i = 0; i < a->ch->n && !inside; i++)
		inside = strchr(a->ch->v[i].name, '/') != NULL;
	if (!a->mkdir_frag && !inside)
		return 0;
	if (!a->mkdir_frag)
		return clawmd_dir_openat(&a->fd, &a->gd, CLAWMD_FRAGMENTS_DIR, true, a->err) < 0
			       ? a->err->code
			       : 0;
	uint64_t r = 0;
	if (getrandom(&r, sizeof(r), 0) != sizeof(r))
		r = clawmd_fnv1a64(&a, sizeof(a)) ^ (uint64_t)getpid();
	snprintf(a->tmpdir, sizeof(a->tmpdir), "." CLAWMD_FRAGMENTS_DIR ".%016llx.tmp",
		 (unsigned long long)r);
	if (mkdirat(a->gd.fd, a->tmpdir, 0755) < 0) {
		a->tmpdir[0] = '\0';
		return clawmd_err_sys(a->err, CLAWMD_EFS, "could not write '%s/%s'", a->gd.path,
				      CLAWMD_FRAGMENTS_DIR);
	}
	int rc = clawmd_dir_openat(&a->fd, &a->gd, a->tmpdir, false, a->err);
	if (rc < 0)
		return rc;
	free(a->fd.path);
	a->fd.path = clawmd_xasprintf("%s/" CLAWMD_FRAGMENTS_DIR, a->gd.path);
	return 0;
}

/* 1. Stage every new file, symlink and fragment directory, and the text
 * carried into CLAUDE.local.md. */
static int apply_stage(struct apply *a)
{
	int rc = apply_fragments_dir(a);
	for (size_t i = 0; i < a->ch->n && rc >= 0; i++) {
		const struct clawmd_change *c = &a->ch->v[i];
		if (c->action == CLAWMD_PRESERVE && c->into_local && c->carry.len &&
		    (rc = clawmd_fs_stage_file(&a->st[i], &a->gd, CLAWMD_LOCAL_NAME, c->carry.ptr,
					       c->carry.len, a->err)) < 0)
			break;
		if (c->action != CLAWMD_WRITE)
			continue;
		const struct clawmd_dir *d = strchr(c->name, '/') ? &a->fd : &a->gd;
		if (c->want->type == CLAWMD_FT_DIR)
			rc = clawmd_fragdir_stage(a->dtmp[i], &a->fd, leaf(c->name), c->want, a->err);
		else if (c->want->type == CLAWMD_FT_LINK)
			rc = clawmd_fs_stage_link(&a->st[i], d, leaf(c->name), c->want->data, a->err);
		else
			rc = clawmd_fs_stage_file_unsynced(&a->st[i], d, leaf(c->name), c->want->data,
							   c->want->len, a->err);
	}
	return rc < 0 ? rc : 0;
}

/* 2a. Move aside what is in the way (not CLAUDE.md: see 2c). */
static int apply_move_aside(struct apply *a)
{
	for (size_t i = 0; i < a->ch->n; i++) {
		struct clawmd_change *c = &a->ch->v[i];
		if (c->action != CLAWMD_PRESERVE || clawmd_runtime_entry_name(c->name))
			continue;
		const struct clawmd_dir *d = strchr(c->name, '/') ? &a->fd : &a->gd;
		/* A leftover temp that is not ours goes aside under the name it
		 * was staged for: "CLAUDE.local.md.clawmd-preserved-...". */
		char tb[32];
		const char *as = clawmd_fs_temp_of(tb, leaf(c->name));
		int rc = clawmd_fs_move_aside_as(&c->moved_to, d, leaf(c->name),
						 as ? as : leaf(c->name), a->err);
		if (rc < 0)
			return rc;
		in_dir(&c->moved_to, c->name);
	}
	return 0;
}

/* 2b. Fragments and the shared base; then the new directory. */
static int apply_fragments(struct apply *a)
{
	int rc = 0;
	for (size_t i = 0; i < a->ch->n && rc >= 0; i++) {
		const struct clawmd_change *c = &a->ch->v[i];
		if (c->action != CLAWMD_WRITE || clawmd_runtime_entry_name(c->name))
			continue;
		if (c->want->type == CLAWMD_FT_DIR) {
			rc = clawmd_fragdir_commit(&a->fd, a->dtmp[i], leaf(c->name), c->want, a->err);
			a->dtmp[i][0] = '\0';
		} else {
			rc = clawmd_fs_commit(&a->st[i], a->err);
		}
	}
	if (rc < 0 || !a->mkdir_frag)
		return rc < 0 ? rc : 0;
	if (a->durable && (rc = clawmd_fs_sync_dir(&a->fd, a->err)) < 0)
		return rc;
	if ((rc = clawmd_fs_rename_noreplace(&a->gd, a->tmpdir, CLAWMD_FRAGMENTS_DIR, a->err)) < 0)
		return rc;
	a->tmpdir[0] = '\0';
	return 0;
}

/* 2c. The entries (CLAUDE.md, then the other runtimes'): carry or move
 * aside what clawmd did not write, then swap the new one in. */
static int apply_entries(struct apply *a)
{
	const struct clawmd_buf *expect = NULL; /* what compute saw, per entry */
	const char *expect_of = NULL;
	int rc = 0;
	for (size_t i = 0; i < a->ch->n; i++) {
		struct clawmd_change *c = &a->ch->v[i];
		if (!clawmd_runtime_entry_name(c->name))
			continue;
		if (!expect_of || strcmp(expect_of, c->name))
			expect = NULL, expect_of = c->name; /* the entry's PRESERVE, then its WRITE */
		if (c->action == CLAWMD_PRESERVE && c->into_local && c->carry.len) {
			rc = commit_local(&a->gd, &a->st[i], &c->carry, a->err);
			if (rc < 0)
				return rc;
			if (rc == 0) {
				c->moved_to = clawmd_xstrdup(CLAWMD_LOCAL_NAME);
				expect = &c->old;
				continue;
			}
			c->into_local = false; /* CLAUDE.local.md filled meanwhile */
		}
		if (c->action == CLAWMD_PRESERVE && c->into_local) {
			expect = &c->old; /* only clawmd's own lines: nothing to carry */
		} else if (c->action == CLAWMD_PRESERVE) {
			if ((rc = clawmd_fs_move_aside(&c->moved_to, &a->gd, c->name, a->err)) < 0)
				return rc;
		} else if (c->action == CLAWMD_WRITE) {
			if (c->old_type == CLAWMD_FT_FILE && !c->old_unread)
				expect = &c->old;
			char *preserved = NULL;
			rc = commit_entry(&a->gd, &a->st[i], expect, &preserved, a->err);
			c->moved_to = preserved; /* edited while we worked: kept, and said */
			if (rc < 0)
				return rc;
		}
	}
	return 0;
}

/* One removal (2d), judged again as it goes where the agent may have put
 * something of its own there since compute looked. */
static int apply_remove(struct apply *a, struct clawmd_change *c)
{
	const struct clawmd_dir *d = strchr(c->name, '/') ? &a->fd : &a->gd;
	char tb[32], *kept = NULL;
	int rc;
	if (c->old_type == CLAWMD_FT_DIR)
		return d == &a->fd ? clawmd_fragdir_remove(&a->fd, leaf(c->name), a->err)
				   : remove_staging_dir(&a->gd, c->name, a->err);
	if (clawmd_fs_temp_of(tb, leaf(c->name))) { /* compute judged it ours */
		struct change_owner own = {a->g, tb};
		rc = clawmd_fs_remove_own(&kept, d, leaf(c->name), tb, ours_for(leaf(c->name)), &own,
					  a->err);
	} else if (clawmd_runtime_entry_name(c->name)) { /* the agent may have edited it */
		struct change_owner own = {a->g, c->name};
		rc = clawmd_fs_remove_own(&kept, &a->gd, c->name, c->name, composed_ours, &own, a->err);
	} else {
		return clawmd_fs_unlink(d, leaf(c->name), a->err);
	}
	if (kept) {
		c->action = CLAWMD_PRESERVE;
		c->moved_to = kept;
		in_dir(&c->moved_to, c->name);
	}
	return rc;
}

/* 2d. Stale fragments, leftovers and entries; 2e. CLAUDE.local.md if
 * missing, then the directories synced when something in them cannot be
 * made again. */
static int apply_finish(struct apply *a)
{
	int rc = 0;
	for (size_t i = 0; i < a->ch->n && rc >= 0; i++) {
		struct clawmd_change *c = &a->ch->v[i];
		if (c->action == CLAWMD_REMOVE)
			rc = apply_remove(a, c);
		else if (c->action == CLAWMD_CREATE_LOCAL &&
			 (rc = clawmd_fs_create_empty(&a->gd, CLAWMD_LOCAL_NAME, a->err)) == 0)
			rc = clawmd_fs_own_like_dir(&a->gd, CLAWMD_LOCAL_NAME, a->err);
	}
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < a->ch->n; i++)
		a->durable |= a->ch->v[i].moved_to != NULL; /* edited while compose ran */
	if (a->durable && a->fd.fd >= 0 && (rc = clawmd_fs_sync_dir(&a->fd, a->err)) < 0)
		return rc;
	return a->durable && (rc = clawmd_fs_sync_dir(&a->gd, a->err)) < 0 ? rc : 0;
}

/* Whatever the outcome: staged temps removed. */
static void apply_release(struct apply *a)
{
	for (size_t i = 0; i < a->nstaged; i++) {
		if (a->st[i].name)
			clawmd_fs_stage_release(&a->st[i]);
		if (a->dtmp[i][0])
			clawmd_fragdir_unstage(&a->fd, a->dtmp[i]);
	}
	if (a->tmpdir[0]) /* staged temps are gone now, so the directory is empty */
		unlinkat(a->gd.fd, a->tmpdir, AT_REMOVEDIR);
	clawmd_dir_release(&a->fd);
	free(a->st);
	free(a->dtmp);
}

int clawmd_changes_apply(struct clawmd_changes *ch, struct clawmd_group *g,
			 struct clawmd_err *err)
{
	const struct clawmd_dir *group;
	if (ch->n == 0)
		return 0;
	int rc = clawmd_group_dir(&group, g, err);
	if (rc < 0)
		return rc;
	struct apply a = {.ch = ch, .gd = {group->fd, ch->path}, .fd = CLAWMD_DIR_INIT,
			  .st = clawmd_xcalloc(ch->n, sizeof(*a.st)),
			  .dtmp = clawmd_xcalloc(ch->n, sizeof(*a.dtmp)), .nstaged = ch->n,
			  .g = g, .err = err};
	for (size_t i = 0; i < ch->n; i++) {
		a.mkdir_frag |= ch->v[i].action == CLAWMD_MKDIR;
		a.durable |= ch->v[i].action == CLAWMD_PRESERVE;
	}
	if ((rc = apply_stage(&a)) == 0 && (rc = apply_move_aside(&a)) == 0 &&
	    (rc = apply_fragments(&a)) == 0 && (rc = apply_entries(&a)) == 0)
		rc = apply_finish(&a);
	apply_release(&a);
	return rc < 0 ? rc : 0;
}

bool clawmd_changes_drift(const struct clawmd_changes *ch)
{
	for (size_t i = 0; i < ch->n; i++)
		if (ch->v[i].action != CLAWMD_CREATE_LOCAL)
			return true;
	return false;
}
