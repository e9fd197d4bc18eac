/* text.c - which blocks of carried text a file already holds, and the
 * marker that says what was appended (migrate/migrate.h): no I/O, so that
 * a run killed after a write finds its text there and appends nothing
 * twice. */
#include "migrate/migrate.h"
#include "base/util.h"

#include <stdio.h>
#include <string.h>

static bool blank_line(const char *s, const char *e)
{
	clawmd_trim(&s, &e);
	return s == e;
}

/* Lines of [s, e) with trailing blanks stripped, each followed by '\n'. */
static void put_normalized(struct clawmd_buf *out, const char *s, const char *e)
{
	while (s < e) {
		const char *nl = memchr(s, '\n', (size_t)(e - s));
		const char *le = nl ? nl : e;
		const char *t = le;
		while (t > s && clawmd_is_blank(t[-1]))
			t--;
		clawmd_buf_put(out, s, (size_t)(t - s));
		clawmd_buf_putc(out, '\n');
		s = nl ? nl + 1 : e;
	}
}

void clawmd_migrate_missing(struct clawmd_buf *out, const char *global, size_t glen,
			    const char *base, size_t blen)
{
	struct clawmd_buf nbase = CLAWMD_BUF_INIT, nblock = CLAWMD_BUF_INIT;
	const char *p = global, *end = global + glen;
	clawmd_buf_clear(out);
	clawmd_buf_put(out, "", 0);
	/* "\n" + every line + "\n": a block is contained when "\n" + its
	 * lines + "\n" occurs in it, i.e. as a run of whole lines. */
	clawmd_buf_putc(&nbase, '\n');
	put_normalized(&nbase, base, base + blen);
	while (p < end) {
		/* Skip blank lines, then take the block up to the next one. */
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *next = nl ? nl + 1 : end;
		if (blank_line(p, nl ? nl : end)) {
			p = next;
			continue;
		}
		const char *bs = p, *be = p;
		while (p < end) {
			nl = memchr(p, '\n', (size_t)(end - p));
			const char *le = nl ? nl : end;
			if (blank_line(p, le))
				break;
			be = le;
			p = nl ? nl + 1 : end;
		}
		clawmd_buf_clear(&nblock);
		clawmd_buf_putc(&nblock, '\n');
		put_normalized(&nblock, bs, be);
		if (!memmem(nbase.ptr, nbase.len, nblock.ptr, nblock.len)) {
			if (out->len)
				clawmd_buf_putc(out, '\n');
			clawmd_buf_put(out, bs, (size_t)(be - bs));
			clawmd_buf_putc(out, '\n');
		}
	}
	clawmd_buf_release(&nbase);
	clawmd_buf_release(&nblock);
}

/* The marker line for carried text from `source`. */
static void marker(struct clawmd_buf *out, const char *source, const char *data, size_t len)
{
	clawmd_buf_printf(out, CLAWMD_MIGRATE_MARKER "%s (fnv1a64=%016llx) -->\n", source,
			  (unsigned long long)clawmd_fnv1a64(data, len));
}

/* `old` + a blank line + the marker + `add`. */
void clawmd_mig_appended(struct clawmd_buf *out, const struct clawmd_buf *old, const char *source,
			 const char *add, size_t addlen, const char *digest_of, size_t digest_len)
{
	clawmd_buf_clear(out);
	clawmd_buf_put(out, old->ptr ? old->ptr : "", old->len);
	if (out->len && out->ptr[out->len - 1] != '\n')
		clawmd_buf_putc(out, '\n');
	if (out->len)
		clawmd_buf_putc(out, '\n');
	marker(out, source, digest_of, digest_len);
	clawmd_buf_put(out, add, addlen);
	if (addlen && add[addlen - 1] != '\n')
		clawmd_buf_putc(out, '\n');
}

bool clawmd_mig_has_marker(const struct clawmd_buf *in, const char *source, const char *data,
			   size_t len)
{
	struct clawmd_buf m = CLAWMD_BUF_INIT;
	marker(&m, source, data, len);
	bool found = in->len && memmem(in->ptr, in->len, m.ptr, m.len);
	clawmd_buf_release(&m);
	return found;
}
