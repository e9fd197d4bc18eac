/* persona.c - a group's standing instructions, *.prepend.md (persona.h). */
#include "compose/persona.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

static bool is_persona(const char *name)
{
	size_t len = strlen(name), sl = strlen(CLAWMD_PREPEND_SUFFIX);
	return len > sl && !strcmp(name + len - sl, CLAWMD_PREPEND_SUFFIX) &&
	       clawmd_name_valid(name, len);
}

/* instructions.prepend.md first, then bytewise. */
static int persona_cmp(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	bool fx = !strcmp(x, CLAWMD_PERSONA_NAME), fy = !strcmp(y, CLAWMD_PERSONA_NAME);
	return fx != fy ? (fx ? -1 : 1) : strcmp(x, y);
}

int clawmd_persona_list(char ***out, size_t *n, int gfd, struct clawmd_inputs *in)
{
	char **v;
	size_t all, k = 0;
	*out = NULL;
	*n = 0;
	/* The names by suffix, as the one listing saw them (noted). */
	if (clawmd_inputs_list(&v, &all, in, gfd, CLAWMD_AT_GROUP, ".", CLAWMD_PREPEND_SUFFIX) < 0)
		return -1;
	for (size_t i = 0; i < all; i++)
		if (is_persona(v[i]))
			v[k++] = v[i];
		else
			free(v[i]);
	if (k > 1)
		qsort(v, k, sizeof(*v), persona_cmp);
	*out = v;
	*n = k;
	return 0;
}

/* [*lo, *hi) of s[0, len) without the white space around it. */
static void trim(size_t *lo, size_t *hi, const char *s, size_t len)
{
	*lo = 0;
	*hi = len;
	while (*lo < *hi && strchr(" \t\r\n\f\v", s[*lo]))
		(*lo)++;
	while (*hi > *lo && strchr(" \t\r\n\f\v", s[*hi - 1]))
		(*hi)--;
}

int clawmd_persona_build(struct clawmd_buf *out, size_t *ndefused, const struct clawmd_dir *gd,
			 const char *shown, struct clawmd_inputs *in,
			 void (*skipped)(void *payload, const char *msg), void *payload,
			 struct clawmd_err *err)
{
	struct clawmd_buf text = CLAWMD_BUF_INIT, one = CLAWMD_BUF_INIT;
	char **names = NULL;
	size_t n = 0;
	int rc = 0;
	clawmd_buf_clear(out);
	if (clawmd_persona_list(&names, &n, gd->fd, in) < 0)
		return clawmd_err_sys(err, CLAWMD_EFS, "could not list '%s'", shown);
	for (size_t i = 0; i < n; i++) {
		struct clawmd_err e = CLAWMD_ERR_INIT;
		size_t lo, hi;
		if (i == CLAWMD_PERSONA_FILES_MAX) {
			char *m = clawmd_xasprintf("%s: more than %d *%s files; '%s' and those after "
						   "it are left out", shown, CLAWMD_PERSONA_FILES_MAX,
						   CLAWMD_PREPEND_SUFFIX, names[i]);
			skipped(payload, m);
			free(m);
			break;
		}
		struct stat st;
		int r = clawmd_fs_read_st(&one, &st, gd, names[i], CLAWMD_PERSONA_MAX, &e);
		clawmd_inputs_note(in, CLAWMD_INPUT_CONTENT, CLAWMD_AT_GROUP, names[i],
				   st.st_mode ? &st : NULL);
		if (r == 1)
			continue; /* gone since the listing */
		if (r == 0 && memchr(one.ptr, '\0', one.len))
			clawmd_err_set(&e, CLAWMD_EINPUT, "'%s/%s' holds a NUL byte", shown, names[i]);
		if (r < 0 || e.code) {
			/* The name is a valid one: safe to show as it is. */
			char *m = e.msg[0] ? clawmd_xasprintf("%s; left out of the persona", e.msg)
					   : clawmd_xasprintf("%s/%s: unreadable; left out of the persona",
							      shown, names[i]);
			skipped(payload, m);
			free(m);
			continue;
		}
		trim(&lo, &hi, one.ptr, one.len);
		if (lo == hi)
			continue;
		if (text.len + 2 + (hi - lo) > CLAWMD_PERSONA_TEXT_MAX) {
			char *m = clawmd_xasprintf("%s/%s: left out of the persona: with it the persona "
						   "would pass the %d bytes Claude Code loads of one file "
						   "(it skips such a file whole)", shown, names[i],
						   CLAWMD_PERSONA_LOAD_MAX);
			skipped(payload, m);
			free(m);
			continue;
		}
		if (text.len)
			clawmd_buf_puts(&text, "\n\n");
		clawmd_buf_put(&text, one.ptr + lo, hi - lo);
	}
	if (text.len) {
		*ndefused += clawmd_defuse_imports(out, text.ptr, text.len);
		clawmd_buf_putc(out, '\n');
	}
	/* Defusing grows the text (a code span around each directive): past
	 * the load cap still, whole lines go from the end, said. */
	if (out->len > CLAWMD_PERSONA_LOAD_MAX) {
		size_t before = out->len, keep = CLAWMD_PERSONA_LOAD_MAX - 1;
		const char *nl = memrchr(out->ptr, '\n', keep);
		keep = nl ? (size_t)(nl - out->ptr) + 1 : 0;
		out->len = keep;
		out->ptr[keep] = '\0';
		char *m = clawmd_xasprintf("%s: the persona's imports made inert pass the %d bytes "
					   "Claude Code loads of one file: its last %zu bytes are left "
					   "out", shown, CLAWMD_PERSONA_LOAD_MAX, before - keep);
		skipped(payload, m);
		free(m);
	}
	clawmd_strv_free(names, n);
	clawmd_buf_release(&text);
	clawmd_buf_release(&one);
	return rc;
}
