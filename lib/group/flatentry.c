/*
 * flatentry.c - a flat entry as its readers tell it (group/flatentry.h):
 * whether the group's layout is flat, whether a file is a flat document,
 * and whose one is, from the digests kept in the group's lock file.
 * compose writes flat entries (compose/flat.c); compose, migrate and lint
 * ask these questions of what is in the group, as they ask
 * clawmd_entry_ours() (entry.c) of an import-layout CLAUDE.md.
 */
#include "group/flatentry.h"
#include "group/entry.h"
#include "group/group.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool clawmd_flat_wanted(struct clawmd_group *g)
{
	clawmd_runtimes set;
	enum clawmd_runtime first;
	struct clawmd_err scratch = CLAWMD_ERR_INIT;
	if (clawmd_group_runtimes(&set, &first, g, &scratch) == 0) {
		const struct clawmd_contract *c = clawmd_layout_contract(g->lay, first);
		if (c && c->document)
			return !strcmp(c->document, "flat");
	}
	return g->lay->flat;
}

/* ---- whose file it is ---------------------------------------------------------- */

/*
 * Which flat entries clawmd wrote, each with the digest of what it wrote,
 * lies in the first region of the group's lock file (group/group.h),
 * which compose makes and holds anyway: a first compose makes no file for
 * it.  Text, so that an operator can read it:
 *
 *	clawmd-owners 1
 *	CLAUDE.md 0123456789abcdef      one line per entry, NAME DIGEST
 *	end 89abcdef01234567            the FNV-1a 64 of every byte before it
 *	NUL ...                         up to CLAWMD_LOCK_OWNERS bytes
 *
 * Written whole (one pwrite of the region's fixed size, so that a shorter
 * region leaves nothing of a longer one) and read whole (one pread).  It
 * is a cache written without fsync: lost in a crash, the next compose
 * finds a digest it did not record and moves the entry aside before
 * writing it again (nothing lost, a review more).  Zeros, or what an
 * older clawmd left there (no_region): no region yet, and its
 * STATE/flat/<group>, if any, is read instead and moved here by the next
 * write.  Anything else without both the first line and an "end" line
 * holding the digest of what precedes it: torn, and no entry is clawmd's.
 * The digest is FNV-1a, as the entries' own: the no-op record's checksum
 * may change between releases, what a region says must not.
 */
#define OWNERS_HEAD "clawmd-owners 1\n"
#define OWNERS_END "end "
/* the "end" line: "end " + 16 hex digits + newline */
#define OWNERS_TAIL (sizeof(OWNERS_END) - 1 + 16 + 1)

enum owners { OWNERS_NONE, OWNERS_KNOWN, OWNERS_TORN };

/* Where the lines were kept before the lock file held them. */
static char *old_path(const struct clawmd_group *g)
{
	return clawmd_xasprintf("%s/flat/%s", g->lay->state, g->name);
}

static void owners_digest(char out[17], const char *data, size_t len)
{
	snprintf(out, 17, "%016llx", (unsigned long long)clawmd_fnv1a64(data, len));
}

/* What a lock file holds at its start where no region was ever written:
 * nothing (a new file, the hole of a group never flat), or what an older
 * clawmd wrote there, its no-op record ("clawmd", a version byte, a
 * newline) or that record spoilt ("-").  Anything else is a torn region:
 * a tear in its first line must not pass for no region, which would take
 * an edited entry for nanoclaw's output. */
static bool no_region(const char *r, size_t n)
{
	return n == 0 || r[0] == '\0' || r[0] == '-' ||
	       (n >= 8 && !memcmp(r, "clawmd", 6) && r[6] != '-' && r[7] == '\n');
}

/* The region `r` (n bytes): its lines into `lines`. */
static enum owners owners_parse(struct clawmd_buf *lines, const char *r, size_t n)
{
	size_t hl = sizeof(OWNERS_HEAD) - 1;
	char hex[17];
	if (no_region(r, n))
		return OWNERS_NONE;
	if (n < hl || memcmp(r, OWNERS_HEAD, hl))
		return OWNERS_TORN;
	/* NAME is an entry file's name (layout/providers.c): never "end" */
	const char *end = memmem(r + hl - 1, n - (hl - 1), "\n" OWNERS_END, sizeof(OWNERS_END));
	if (!end || (size_t)(end + 1 - r) + OWNERS_TAIL > n || end[OWNERS_TAIL] != '\n')
		return OWNERS_TORN;
	end++;
	owners_digest(hex, r, (size_t)(end - r));
	if (memcmp(end + sizeof(OWNERS_END) - 1, hex, 16))
		return OWNERS_TORN;
	clawmd_buf_put(lines, r + hl, (size_t)(end - r) - hl);
	return OWNERS_KNOWN;
}

/* The lines of STATE/flat/<group>, as the older clawmd that kept them read
 * them (a line of 255 bytes at most, 64 KiB of them).  Read as any file
 * is (fs/fs.h): a symlink, a FIFO or a file past 1 MiB there is no
 * clawmd's, and is taken for a torn record, which vouches for nothing
 * (an open() of a FIFO would wait for a writer: every compose, status
 * and check of the group would hang). */
static enum owners owners_read_old(struct clawmd_buf *lines, const struct clawmd_group *g, bool *old)
{
	struct clawmd_buf b = CLAWMD_BUF_INIT;
	struct clawmd_err e = CLAWMD_ERR_INIT;
	char dot[] = ".";
	struct clawmd_dir cwd = {AT_FDCWD, dot};
	char *p = old_path(g);
	int rc = clawmd_fs_read(&b, &cwd, p, (size_t)1 << 20, &e);
	free(p);
	clawmd_err_clear(&e);
	*old = rc == 0;
	if (rc == 0 && b.len) {
		for (const char *l = b.ptr, *nl; (nl = memchr(l, '\n', b.len - (size_t)(l - b.ptr)));
		     l = nl + 1)
			if (nl - l < 255 && lines->len < 65536)
				clawmd_buf_put(lines, l, (size_t)(nl + 1 - l));
	}
	clawmd_buf_release(&b);
	return rc == 1 ? OWNERS_NONE : rc == 0 ? OWNERS_KNOWN : OWNERS_TORN;
}

/* The ownership lines of `g` into `lines` (cleared first, NUL-terminated):
 * from the lock file (the one held, else the one at its path), or, when it
 * has no region yet, from STATE/flat/<group> (*old then true). */
static enum owners owners_read(struct clawmd_buf *lines, const struct clawmd_group *g, bool *old)
{
	struct clawmd_buf r = CLAWMD_BUF_INIT;
	enum owners o = OWNERS_NONE;
	int fd = g->lock;
	*old = false;
	clawmd_buf_clear(lines);
	clawmd_buf_put(lines, "", 0);
	if (fd < 0) {
		char *p = clawmd_group_lock_path(g);
		fd = open(p, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		free(p);
	}
	if (fd >= 0) {
		ssize_t n;
		clawmd_buf_grow(&r, CLAWMD_LOCK_OWNERS);
		while ((n = pread(fd, r.ptr, CLAWMD_LOCK_OWNERS, 0)) < 0 && errno == EINTR)
			;
		if (n >= 0)
			o = owners_parse(lines, r.ptr, (size_t)n);
		if (fd != g->lock)
			close(fd);
	}
	if (o == OWNERS_NONE)
		o = owners_read_old(lines, g, old);
	clawmd_buf_release(&r);
	return o;
}

bool clawmd_flat_recorded(const struct clawmd_group *g)
{
	struct clawmd_buf lines = CLAWMD_BUF_INIT;
	bool old;
	bool ok = owners_read(&lines, g, &old) == OWNERS_KNOWN && !old;
	clawmd_buf_release(&lines);
	return ok;
}

/* The header, then nothing or a first section: nanoclaw's import-era
 * entry had the same first line, followed by import lines. */
bool clawmd_flat_header(const char *data, size_t len)
{
	size_t hl = strlen(CLAWMD_FLAT_HEADER);
	if (len <= hl || memcmp(data, CLAWMD_FLAT_HEADER, hl) || data[hl] != '\n')
		return false;
	return len == hl + 1 || (len > hl + 3 && !memcmp(data + hl, "\n\n# ", 4));
}

bool clawmd_flat_ours(const struct clawmd_group *g, const char *name, const char *data, size_t len)
{
	if (!clawmd_flat_header(data, len))
		return false;
	struct clawmd_buf lines = CLAWMD_BUF_INIT;
	bool old, known = false, ours = false;
	char hex[17];
	size_t nl = strlen(name);
	switch (owners_read(&lines, g, &old)) {
	case OWNERS_NONE: /* nanoclaw's own output, or clawmd's before its record */
		ours = true;
		break;
	case OWNERS_TORN: /* nothing in it is believed: moved aside */
		break;
	case OWNERS_KNOWN:
		clawmd_entry_digest(hex, data, len);
		for (const char *l = lines.ptr, *e; (e = strchr(l, '\n')); l = e + 1) {
			if (!strncmp(l, name, nl) && l[nl] == ' ') {
				known = true;
				ours |= e == l + nl + 17 && !strncmp(l + nl + 1, hex, 16);
			}
		}
		ours |= !known;
		break;
	}
	clawmd_buf_release(&lines);
	return ours;
}

/* `line` (its newline included) is one of the lines of `lines`. */
static bool has_line(const char *lines, const char *line)
{
	for (const char *at = lines; (at = strstr(at, line)); at++)
		if (at == lines || at[-1] == '\n')
			return true;
	return false;
}

bool clawmd_flat_remember(const struct clawmd_group *g, const struct clawmd_plan *plan, bool keep)
{
	struct clawmd_buf b = CLAWMD_BUF_INIT, mine = CLAWMD_BUF_INIT, prev = CLAWMD_BUF_INIT;
	size_t room = CLAWMD_LOCK_OWNERS - OWNERS_TAIL;
	bool old = false, kept = false;
	char hex[17];
	clawmd_buf_put(&mine, "", 0);
	for (size_t i = 0; i < plan->n; i++) {
		clawmd_entry_digest(hex, plan->entries[i].data, plan->entries[i].len);
		clawmd_buf_printf(&mine, "%s %s\n", plan->entries[i].name, hex);
	}
	clawmd_buf_puts(&b, OWNERS_HEAD);
	/* Kept: the lines of digests not about to be written again, as many
	 * as leave room for this compose's own (an entry names one of the few
	 * entry files: room for them all many times over). */
	enum owners was = keep ? owners_read(&prev, g, &old) : OWNERS_NONE;
	if (was == OWNERS_KNOWN) {
		for (char *l = prev.ptr, *nl; (nl = strchr(l, '\n')); l = nl + 1) {
			char c = nl[1];
			nl[1] = '\0';
			if (!has_line(mine.ptr, l) && b.len + (size_t)(nl + 1 - l) + mine.len <= room) {
				clawmd_buf_puts(&b, l);
				kept = true;
			}
			nl[1] = c;
		}
	}
	clawmd_buf_put(&b, mine.ptr, mine.len);
	/* Too many to say: a region that says nothing (torn), so that every
	 * flat entry is moved aside rather than one edit taken for clawmd's. */
	if (b.len > room) {
		clawmd_buf_clear(&b);
		clawmd_buf_puts(&b, OWNERS_HEAD);
	} else {
		owners_digest(hex, b.ptr, b.len);
		clawmd_buf_printf(&b, OWNERS_END "%s\n", hex);
	}
	clawmd_buf_grow(&b, CLAWMD_LOCK_OWNERS);
	memset(b.ptr + b.len, 0, CLAWMD_LOCK_OWNERS - b.len);
	/* Written without fsync (a cache, see above).  The file the lines lay
	 * in before goes once the region holds them, not before (an edit would
	 * then pass for nanoclaw's output); when a kill came in between, the
	 * region is read from then on and the file goes at the next compose
	 * that writes.  A failure only costs a review. */
	if (clawmd_group_lock_write(g, b.ptr, CLAWMD_LOCK_OWNERS, 0) == 0 &&
	    (old || was == OWNERS_KNOWN)) {
		char *p = old_path(g), *dir = clawmd_path_join(g->lay->state, "flat");
		if (unlink(p) == 0)
			(void)rmdir(dir); /* the last group's: an empty directory is no state */
		free(dir);
		free(p);
	}
	clawmd_buf_release(&prev);
	clawmd_buf_release(&mine);
	clawmd_buf_release(&b);
	return kept;
}
