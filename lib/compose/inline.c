/* inline.c - one entry file holding every part, for a runtime that does not
 * follow @ imports (inline.h). */
#include "compose/inline.h"
#include "group/entry.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

void clawmd_inline_init(struct clawmd_inline *in)
{
	memset(in, 0, sizeof(*in));
	clawmd_buf_put(&in->text, "", 0);
}

void clawmd_inline_add(struct clawmd_inline *in, const char *from, const char *text, size_t len)
{
	if (!len)
		return;
	size_t before = in->text.len;
	/* A blank line between parts, so a part's last paragraph never runs
	 * into the next one's first; the comment says where it came from. */
	clawmd_buf_printf(&in->text, "%s<!-- from %s -->\n", in->n ? "\n" : "", from);
	clawmd_buf_put(&in->text, text, len);
	if (text[len - 1] != '\n')
		clawmd_buf_putc(&in->text, '\n');
	clawmd_xgrow(&in->parts, &in->cap, in->n + 1, sizeof(*in->parts));
	in->parts[in->n++] = (struct clawmd_inline_part){clawmd_xstrdup(from), in->text.len - before};
}

void clawmd_inline_add_entry(struct clawmd_inline *in, const char *from, const char *from_dir,
			     const struct clawmd_entry *e)
{
	if (e->type == CLAWMD_FT_FILE) {
		clawmd_inline_add(in, from, e->data, e->len);
		return;
	}
	for (size_t i = 0; i < e->nfiles; i++) {
		char *f = clawmd_path_join(from_dir, e->files[i].name);
		clawmd_inline_add(in, f, e->files[i].data, e->files[i].len);
		free(f);
	}
}

static int by_size_desc(const void *a, const void *b)
{
	const struct clawmd_inline_part *x = a, *y = b;
	return x->len < y->len ? 1 : x->len > y->len ? -1 : strcmp(x->from, y->from);
}

int clawmd_inline_finish(struct clawmd_buf *out, const struct clawmd_inline *in, const char *shown,
			 const char *who, size_t limit, struct clawmd_err *err)
{
	char hex[17];
	clawmd_entry_digest(hex, in->text.ptr, in->text.len);
	clawmd_buf_clear(out);
	clawmd_buf_printf(out, "%s%s -->\n", CLAWMD_HEADER, hex);
	clawmd_buf_put(out, in->text.ptr, in->text.len);
	if (!limit || out->len <= limit)
		return 0;
	/* Past the limit the runtime cuts the file short, silently: the agent
	 * would start without its last parts (its memory first).  Refuse, and
	 * name what to trim. */
	struct clawmd_inline_part *v = clawmd_xmalloc((in->n + 1) * sizeof(*v));
	memcpy(v, in->parts, in->n * sizeof(*v));
	qsort(v, in->n, sizeof(*v), by_size_desc);
	struct clawmd_buf big = CLAWMD_BUF_INIT;
	clawmd_buf_put(&big, "", 0);
	for (size_t i = 0; i < in->n && i < 3; i++)
		clawmd_buf_printf(&big, "%s%s (%zu bytes)", i ? ", " : "", v[i].from, v[i].len);
	clawmd_err_set(err, CLAWMD_EINPUT,
		       "%s would be %zu bytes, past the %zu that %s loads (it cuts the rest off); "
		       "the biggest parts: %s", shown, out->len, limit, who, big.ptr);
	clawmd_buf_release(&big);
	free(v);
	return err->code;
}

void clawmd_inline_release(struct clawmd_inline *in)
{
	for (size_t i = 0; i < in->n; i++)
		free(in->parts[i].from);
	free(in->parts);
	clawmd_buf_release(&in->text);
	memset(in, 0, sizeof(*in));
}
