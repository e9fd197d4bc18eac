/* inline.c - one entry file holding every part, for a runtime that does not
 * follow @ imports (inline.h). */
#include "compose/inline.h"
#include "group/entry.h"
#include "base/util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void clawmd_inline_init(struct clawmd_inline *in)
{
	memset(in, 0, sizeof(*in));
	clawmd_buf_put(&in->text, "", 0);
}

static void add_part(struct clawmd_inline *in, const char *from, const char *text, size_t len,
		     size_t unit)
{
	if (!len)
		return;
	size_t before = in->text.len;
	/* A blank line between parts, so a part's last paragraph never runs
	 * into the next one's first; the comment says where it came from. */
	clawmd_buf_printf(&in->text, "\n<!-- from %s -->\n", from);
	clawmd_buf_put(&in->text, text, len);
	if (text[len - 1] != '\n')
		clawmd_buf_putc(&in->text, '\n');
	clawmd_xgrow(&in->parts, &in->cap, in->n + 1, sizeof(*in->parts));
	in->parts[in->n++] = (struct clawmd_inline_part){clawmd_xstrdup(from), before,
							  in->text.len - before, unit, in->kind};
}

void clawmd_inline_add(struct clawmd_inline *in, const char *from, const char *text, size_t len)
{
	add_part(in, from, text, len, in->units++);
}

void clawmd_inline_add_entry(struct clawmd_inline *in, const char *from, const char *from_dir,
			     const struct clawmd_entry *e)
{
	size_t unit = in->units++;
	if (e->type == CLAWMD_FT_FILE) {
		add_part(in, from, e->data, e->len, unit);
		return;
	}
	for (size_t i = 0; i < e->nfiles; i++) {
		char *f = clawmd_path_join(from_dir, e->files[i].name);
		add_part(in, f, e->files[i].data, e->files[i].len, unit);
		free(f);
	}
}

/* The list of what was dropped as the note gives it (the warning names
 * every one: the host's log, whole): at
 * most a list of an eighth of the cap (64 bytes to 4 KiB), then ", and N
 * more".  The agent decides how many fragments its MCP servers make; a
 * note naming them all would outgrow the cap it is there to keep. */
static void names_bounded(struct clawmd_buf *out, const struct clawmd_buf *dropped, size_t n,
			  size_t limit)
{
	size_t max = limit / 8 < 64 ? 64 : limit / 8 > 4096 ? 4096 : limit / 8, shown = 0, at = 0;
	clawmd_buf_clear(out);
	clawmd_buf_put(out, "", 0);
	if (dropped->len <= max || !limit) {
		clawmd_buf_put(out, dropped->ptr, dropped->len);
		return;
	}
	/* whole names only: cut at the last ", " within the bound */
	for (const char *p = dropped->ptr; (p = memmem(p, dropped->len - (size_t)(p - dropped->ptr), ", ", 2)) &&
					    (size_t)(p - dropped->ptr) <= max; p += 2)
		at = (size_t)(p - dropped->ptr), shown++;
	clawmd_buf_put(out, dropped->ptr, at);
	clawmd_buf_printf(out, "%s%zu more", shown ? ", and " : "", n - shown);
}

/* The parts kept (keep[unit]), the first without its leading blank line,
 * then the note naming what was left out. */
static void render(struct clawmd_buf *out, const struct clawmd_inline *in, const bool *keep,
		   bool memory, const struct clawmd_buf *dropped)
{
	struct clawmd_buf body = CLAWMD_BUF_INIT;
	char hex[17];
	clawmd_buf_put(&body, "", 0);
	for (size_t i = 0; i < in->n; i++) {
		const struct clawmd_inline_part *p = &in->parts[i];
		if (!keep[p->unit] || (p->kind == CLAWMD_PART_MEMORY && !memory))
			continue;
		size_t skip = body.len ? 0 : 1;
		clawmd_buf_put(&body, in->text.ptr + p->off + skip, p->len - skip);
	}
	if (dropped->len)
		clawmd_buf_printf(&body, "%s" CLAWMD_INLINE_OMITTED "%s -->\nThese instruction "
				  "sections were left out to fit the size this runtime loads: %s. "
				  "Their tools still work; consult each tool's own description.\n",
				  body.len ? "\n" : "", dropped->ptr, dropped->ptr);
	clawmd_entry_digest(hex, body.ptr, body.len);
	clawmd_buf_clear(out);
	clawmd_buf_printf(out, "%s%s -->\n", CLAWMD_HEADER, hex);
	clawmd_buf_put(out, body.ptr, body.len);
	clawmd_buf_release(&body);
}

void clawmd_inline_finish(struct clawmd_buf *out, struct clawmd_buf *note,
			  const struct clawmd_inline *in, bool memory, const char *shown,
			  const char *who, size_t limit)
{
	bool *keep = clawmd_xmalloc(in->units + 1);
	size_t *size = clawmd_xcalloc(in->units + 1, sizeof(*size)), ndropped = 0;
	struct clawmd_buf dropped = CLAWMD_BUF_INIT, list = CLAWMD_BUF_INIT;
	memset(keep, 1, in->units + 1);
	clawmd_buf_put(&dropped, "", 0);
	clawmd_buf_clear(note);
	for (size_t i = 0; i < in->n; i++)
		if (in->parts[i].kind == CLAWMD_PART_DROP)
			size[in->parts[i].unit] += in->parts[i].len;
	clawmd_buf_put(&list, "", 0);
	render(out, in, keep, memory, &list);
	/* The cap ladder: past the cap the runtime would cut the end off,
	 * silently (the memory first); the largest droppable fragment goes
	 * instead, and the note says which. */
	while (limit && out->len > limit) {
		size_t best = SIZE_MAX;
		for (size_t u = 0; u < in->units; u++)
			if (keep[u] && size[u] && (best == SIZE_MAX || size[u] > size[best]))
				best = u;
		if (best == SIZE_MAX)
			break;
		keep[best] = false;
		for (size_t i = 0; i < in->n; i++)
			if (in->parts[i].unit == best) {
				clawmd_buf_printf(&dropped, "%s%s", dropped.len ? ", " : "",
						  in->parts[i].from);
				ndropped++;
				break;
			}
		names_bounded(&list, &dropped, ndropped, limit);
		render(out, in, keep, memory, &list);
	}
	if (dropped.len)
		clawmd_buf_printf(note, "%s: past the %zu bytes %s loads, left out %s", shown, limit,
				  who, dropped.ptr);
	if (limit && out->len > limit)
		clawmd_buf_printf(note, "%s%s is %zu bytes with nothing left to drop, past the %zu "
				  "that %s loads: it cuts the rest off; trim the persona, the "
				  "shared base or the memory", note->len ? "; " : "", shown, out->len,
				  limit, who);
	clawmd_buf_release(&dropped);
	clawmd_buf_release(&list);
	free(size);
	free(keep);
}

void clawmd_inline_release(struct clawmd_inline *in)
{
	for (size_t i = 0; i < in->n; i++)
		free(in->parts[i].from);
	free(in->parts);
	clawmd_buf_release(&in->text);
	memset(in, 0, sizeof(*in));
}
