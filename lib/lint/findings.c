/* findings.c - findings: adding one, placing it (line, column), sizes, the order check prints. */
#include "clawmd.h"
#include "lint/lint.h"
#include "base/util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- findings ----------------------------------------------------------- */

void clawmd_findings_init(struct clawmd_findings *f)
{
	memset(f, 0, sizeof(*f));
}

void clawmd_findings_release(struct clawmd_findings *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->n; i++) {
		free(f->v[i].group);
		free(f->v[i].file);
		free(f->v[i].message);
		free(f->v[i].hint);
	}
	free(f->v);
	clawmd_findings_init(f);
}

size_t clawmd_findings_count(const struct clawmd_findings *f, enum clawmd_severity sev)
{
	size_t k = 0;
	for (size_t i = 0; i < f->n; i++)
		k += f->v[i].rule->severity >= sev;
	return k;
}

void clawmd_lint_add(struct clawmd_findings *out, const char *code, const char *group,
		     const char *file, unsigned long line, unsigned long col, const char *hint,
		     const char *fmt, ...)
{
	va_list ap;
	char *msg;
	const struct clawmd_lint_rule *rule = clawmd_lint_rule(code);
	if (!rule)
		abort(); /* a typo in a code is a bug, not a finding */
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		abort();
	va_end(ap);
	clawmd_xgrow(&out->v, &out->cap, out->n + 1, sizeof(*out->v));
	out->v[out->n++] = (struct clawmd_finding){
		.rule = rule,
		.group = group ? clawmd_xstrdup(group) : NULL,
		.file = clawmd_xstrdup(file),
		.line = line ? line : 1,
		.col = col ? col : 1,
		.message = msg,
		.hint = clawmd_xstrdup(hint ? hint : ""),
	};
}

void clawmd_lint_pos(unsigned long *line, unsigned long *col, const char *text, size_t off)
{
	unsigned long l = 1, c = 1;
	for (size_t i = 0; i < off && text[i]; i++, c++)
		if (text[i] == '\n')
			l++, c = 0;
	*line = l;
	*col = c;
}

/* A path as shown in findings: relative to `base` when inside it. */
char *clawmd_lint_shown(const char *base, const char *path)
{
	size_t n = base ? strlen(base) : 0;
	while (n > 1 && base[n - 1] == '/')
		n--;
	if (n && !strncmp(path, base, n) && path[n] == '/' && path[n + 1])
		return clawmd_xstrdup(path + n + 1);
	if (n && !strncmp(path, base, n) && !path[n])
		return clawmd_xstrdup(".");
	return clawmd_xstrdup(path);
}

/* ---- memory sizes ------------------------------------------------------- */


/* Account one loaded file: CM201 when large; its size into *total. */
void clawmd_lint_size(struct clawmd_findings *out, const char *group, const char *shown,
		      const char *data, size_t len, size_t *total)
{
	size_t chars = clawmd_utf16_len(data, len);
	*total += chars;
	if (chars > LARGE_FILE_CHARS)
		clawmd_lint_add(out, "CM201", group, shown, 1, 1,
				"split it, or move rarely needed parts into path-scoped rules "
				"(.claude/rules with paths:)",
				"%s has %zu characters, over Claude Code's %d-character warning threshold",
				shown, chars, LARGE_FILE_CHARS);
}

/* `path` is `dir` or below it. */
bool clawmd_lint_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	return !strncmp(path, dir, n) && (path[n] == '\0' || path[n] == '/');
}

/* ---- the layout and the order of findings -------------------------------- */

/* The byte offset of the JSON string "s" in `json`, or 0. */
size_t clawmd_lint_json_find(const char *json, const char *s)
{
	char *q = clawmd_xasprintf("\"%s\"", s);
	const char *p = strstr(json, q);
	free(q);
	return p ? (size_t)(p - json) + 1 : 0;
}

/* CM307: a nanoclaw host's pin the loads go without (render/setup.c). */
static void lint_pin(struct clawmd_findings *out, const struct clawmd_layout *lay)
{
	struct clawmd_release pin;
	struct clawmd_err e = CLAWMD_ERR_INIT;
	char *file = NULL;
	if (lay->nanoclaw && !lay->claude_set && clawmd_nanoclaw_pinned_release(&pin, &file, lay, &e) < 0)
		clawmd_lint_add(out, "CM307", NULL, file ? file : "container/cli-tools.json", 1, 1,
				"mend it (a JSON array of {name, version}), or set claude_version in "
				"clawmd.json",
				"%s; the groups are checked by clawmd's default Claude Code release",
				e.msg);
	free(file);
}

void clawmd_lint_layout(struct clawmd_findings *out, const struct clawmd_layout *lay)
{
	struct clawmd_buf text = CLAWMD_BUF_INIT;
	struct clawmd_dir root = CLAWMD_DIR_INIT;
	struct clawmd_err e = CLAWMD_ERR_INIT;
	lint_pin(out, lay);
	if (!lay->nunknown_keys)
		return;
	if (clawmd_dir_open(&root, lay->root, &e) == 0)
		clawmd_fs_read(&text, &root, "clawmd.json", 256 * 1024, &e);
	for (size_t i = 0; i < lay->nunknown_keys; i++) {
		const char *key = lay->unknown_keys[i], *dot = strrchr(key, '.');
		unsigned long line = 1, col = 1;
		if (text.ptr)
			clawmd_lint_pos(&line, &col, text.ptr,
					clawmd_lint_json_find(text.ptr, dot ? dot + 1 : key));
		char *msg = clawmd_layout_unknown_message(lay, i);
		const char *m = strstr(msg, ": unknown key");
		/* a suggestion only when a key is near (clawmd_spell_nearest) */
		clawmd_lint_add(out, "CM305", NULL, "clawmd.json", line, col,
				strstr(msg, "(did you mean")
					? "spell the key as suggested, or remove it; as it is, clawmd "
					  "ignores it"
					: "remove it, or write one of the keys of doc/layout.md; as it is, "
					  "clawmd ignores it",
				"%s", m ? m + 2 : msg);
		free(msg);
	}
	clawmd_buf_release(&text);
	clawmd_dir_release(&root);
}

static int finding_cmp(const void *a, const void *b)
{
	const struct clawmd_finding *x = a, *y = b;
	int c = strcmp(x->file, y->file);
	if (c)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	if ((c = strcmp(x->rule->code, y->rule->code)))
		return c;
	return strcmp(x->message, y->message);
}

void clawmd_findings_sort(struct clawmd_findings *f)
{
	if (f->n > 1)
		qsort(f->v, f->n, sizeof(*f->v), finding_cmp);
}
