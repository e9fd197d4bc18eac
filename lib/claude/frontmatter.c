/*
 * frontmatter.c - strip a leading frontmatter block and read `paths:` the
 * way Claude Code does (§6.1 and §7 of claude-code-memory.md).
 *
 * The block is what /^---\s*\n([\s\S]*?)---\s*\n?/ matches at offset 0
 * (JavaScript \s, so it spans newlines and Unicode spaces).  Its capture is
 * parsed with libyaml; on a parse error it is retried once after quoting
 * simple `key: value` lines whose value holds a YAML special character (as
 * Claude Code's parser does), and a block that still fails counts as {}.
 */
#include "claude/frontmatter.h"
#include "claude/mdscan.h"
#include "base/util.h"

#include <stdio.h>
#include <yaml.h>

/* ---- the block ---------------------------------------------------------- */

static size_t skip_ws(const char *s, size_t len, size_t i)
{
	size_t w;
	while (i < len && (w = clawmd_js_space(s, len, i)))
		i += w;
	return i;
}

/* Offset just past the last '\n' in the whitespace run at i, or 0. */
static size_t last_newline_in_ws(const char *s, size_t len, size_t i, size_t *after)
{
	size_t e = skip_ws(s, len, i), nl = 0;
	bool found = false;
	for (size_t k = i; k < e; k++)
		if (s[k] == '\n') {
			nl = k + 1;
			found = true;
		}
	*after = e;
	return found ? nl : 0;
}

/* ---- paths: globs ------------------------------------------------------- */

static void push_str(char ***v, size_t *n, size_t *cap, char *s)
{
	clawmd_xgrow(v, cap, *n + 1, sizeof(char *));
	(*v)[(*n)++] = s;
}

static char *trimmed(const char *s, size_t len)
{
	size_t a, b;
	clawmd_js_trim(s, len, &a, &b);
	return clawmd_xstrndup(s + a, b - a);
}

/*
 * /^([^{]*)\{([^}]+)\}(.*)$/ expanded recursively, alternatives trimmed,
 * until *n reaches CLAWMD_PATHS_MAX: 26 groups of {a,b} would otherwise be
 * 2^26 patterns.  False when it stopped there.
 */
static bool expand_braces(char ***v, size_t *n, size_t *cap, const char *p)
{
	if (*n >= CLAWMD_PATHS_MAX)
		return false;
	const char *o = strchr(p, '{');
	const char *c = o ? strchr(o + 1, '}') : NULL;
	if (!o || !c || c == o + 1) {
		push_str(v, n, cap, clawmd_xstrdup(p));
		return true;
	}
	const char *alt = o + 1;
	for (;;) {
		const char *end = memchr(alt, ',', (size_t)(c - alt));
		if (!end)
			end = c;
		char *part = trimmed(alt, (size_t)(end - alt));
		char *combined = clawmd_xasprintf("%.*s%s%s", (int)(o - p), p, part, c + 1);
		bool all = expand_braces(v, n, cap, combined);
		free(combined);
		free(part);
		if (!all)
			return false;
		if (end == c)
			break;
		alt = end + 1;
	}
	return true;
}

bool clawmd_paths_split(char ***v, size_t *n, const char *s)
{
	bool capped = false;
	size_t cap = *n;
	size_t len = strlen(s), start = 0;
	int depth = 0;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && s[i] == '{')
			depth++;
		else if (i < len && s[i] == '}')
			depth--;
		if (i < len && !(s[i] == ',' && depth == 0))
			continue;
		char *part = trimmed(s + start, i - start);
		start = i + 1;
		if (!*part) {
			free(part);
			continue;
		}
		size_t first = *n;
		capped = !expand_braces(v, n, &cap, part) || capped;
		free(part);
		/* a trailing slash-star-star goes: src matches what src/(**) does */
		size_t k = first;
		for (size_t j = first; j < *n; j++) {
			char *pattern = (*v)[j];
			size_t gl = strlen(pattern);
			if (gl >= 3 && !strcmp(pattern + gl - 3, "/**"))
				pattern[gl - 3] = '\0';
			if (*pattern)
				(*v)[k++] = pattern;
			else
				free(pattern);
		}
		*n = k;
	}
	return !capped;
}

/* ---- YAML --------------------------------------------------------------- */

static bool plain_is_null(const yaml_node_t *node)
{
	if (node->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	const char *s = (const char *)node->data.scalar.value;
	return !*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") ||
	       !strcmp(s, "NULL");
}

/* A plain scalar that YAML resolves to something other than a string. */
static bool plain_not_string(const yaml_node_t *node)
{
	if (node->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	const char *s = (const char *)node->data.scalar.value;
	static const char *const words[] = {"true", "True", "TRUE", "false", "False", "FALSE",
					    ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF",
					    "-.inf", "-.Inf", "-.INF", "+.inf"};
	for (size_t i = 0; i < CLAWMD_ARRAY_SIZE(words); i++)
		if (!strcmp(s, words[i]))
			return true;
	char *end;
	if (*s && (strtod(s, &end), *end == '\0'))
		return true;
	return plain_is_null(node);
}

/* Parse; on the first attempt, a failure is recorded for diagnostics.
 * The retry's quoting keeps every line and every key where it was, so
 * the paths: key's position holds for the original text too. */
static bool parse_yaml(const char *s, size_t len, struct clawmd_frontmatter *out, bool first)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	if (!yaml_parser_initialize(&parser))
		return false;
	yaml_parser_set_input_string(&parser, (const unsigned char *)s, len);
	bool ok = yaml_parser_load(&parser, &doc);
	if (!ok && first) {
		snprintf(out->problem, sizeof(out->problem), "%s%s%s",
			 parser.problem ? parser.problem : "invalid YAML", parser.context ? " " : "",
			 parser.context ? parser.context : "");
		out->problem_line = parser.problem_mark.line;
		out->problem_col = parser.problem_mark.column;
	}
	yaml_parser_delete(&parser);
	if (!ok)
		return false;
	yaml_node_t *root = yaml_document_get_root_node(&doc);
	if (!root || root->type != YAML_MAPPING_NODE) {
		if (root && first) {
			snprintf(out->problem, sizeof(out->problem), "is not a mapping");
			out->problem_line = root->start_mark.line;
			out->problem_col = root->start_mark.column;
		}
		yaml_document_delete(&doc);
		return root == NULL; /* an empty document is {} */
	}
	yaml_node_t *paths = NULL;
	for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yaml_document_get_node(&doc, p->key);
		if (k && k->type == YAML_SCALAR_NODE && !strcmp((char *)k->data.scalar.value, "paths")) {
			paths = yaml_document_get_node(&doc, p->value);
			out->has_paths = true;
			out->paths_line = k->start_mark.line;
			out->paths_col = k->start_mark.column;
		}
	}
	char **v = NULL;
	size_t n = 0;
	if (paths && paths->type == YAML_SCALAR_NODE && !plain_not_string(paths)) {
		out->globs_capped = !clawmd_paths_split(&v, &n, (const char *)paths->data.scalar.value);
	} else if (paths && paths->type == YAML_SEQUENCE_NODE) {
		for (yaml_node_item_t *it = paths->data.sequence.items.start;
		     it < paths->data.sequence.items.top; it++) {
			yaml_node_t *e = yaml_document_get_node(&doc, *it);
			if (e && e->type == YAML_SCALAR_NODE && !plain_is_null(e))
				out->globs_capped = !clawmd_paths_split(&v, &n, (const char *)e->data.scalar.value) ||
						    out->globs_capped;
		}
	}
	yaml_document_delete(&doc);
	/* No pattern left, or only "**": the rule applies everywhere. */
	bool all = true;
	for (size_t i = 0; i < n; i++)
		all = all && !strcmp(v[i], "**");
	if (all) {
		clawmd_strv_free(v, n);
		v = NULL;
		n = 0;
	}
	out->globs = v;
	out->nglobs = n;
	return true;
}

/*
 * Claude Code's retry: lines like `key: value` (key of letters, '_' and
 * '-') whose unquoted value contains one of {}[]*&#!|>%@` or ": " are
 * rewritten as key: "value" with backslashes and quotes escaped.
 */
static char *quote_values(const char *s, size_t len)
{
	struct clawmd_buf b = CLAWMD_BUF_INIT;
	clawmd_buf_put(&b, "", 0);
	size_t i = 0;
	while (i <= len) {
		const char *nl = memchr(s + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - s) : len;
		const char *line = s + i;
		size_t ll = e - i, k = 0;
		while (k < ll && ((line[k] >= 'a' && line[k] <= 'z') || (line[k] >= 'A' && line[k] <= 'Z') ||
				  line[k] == '_' || line[k] == '-'))
			k++;
		bool done = false;
		if (k > 0 && k + 1 < ll && line[k] == ':' && clawmd_js_space(line, ll, k + 1)) {
			size_t v = k + 1;
			v = skip_ws(line, ll, v);
			const char *val = line + v;
			size_t vl = ll - v;
			bool quoted = vl >= 2 && ((val[0] == '"' && val[vl - 1] == '"') ||
						  (val[0] == '\'' && val[vl - 1] == '\''));
			bool special = false;
			for (size_t j = 0; j < vl && !special; j++)
				special = strchr("{}[]*&#!|>%@`", val[j]) != NULL ||
					  (val[j] == ':' && j + 1 < vl && val[j + 1] == ' ');
			if (vl && !quoted && special) {
				clawmd_buf_put(&b, line, k);
				clawmd_buf_puts(&b, ": \"");
				for (size_t j = 0; j < vl; j++) {
					if (val[j] == '\\' || val[j] == '"')
						clawmd_buf_putc(&b, '\\');
					clawmd_buf_putc(&b, val[j]);
				}
				clawmd_buf_putc(&b, '"');
				done = true;
			}
		}
		if (!done)
			clawmd_buf_put(&b, line, ll);
		if (!nl)
			break;
		clawmd_buf_putc(&b, '\n');
		i = e + 1;
	}
	return clawmd_buf_detach(&b);
}

void clawmd_frontmatter_parse(struct clawmd_frontmatter *out, const char *text, size_t len)
{
	memset(out, 0, sizeof(*out));
	if (len < 3 || memcmp(text, "---", 3))
		return;
	size_t after;
	size_t cap0 = last_newline_in_ws(text, len, 3, &after);
	if (!cap0)
		return;
	/* the first later "---" closes it, wherever it is */
	const char *close = memmem(text + cap0, len - cap0, "---", 3);
	if (!close)
		return;
	size_t cap1 = (size_t)(close - text);
	size_t end = skip_ws(text, len, cap1 + 3);
	/* \s* is greedy and \n? optional: all the whitespace goes */
	out->block = true;
	out->body = end;
	out->yaml = cap0;
	size_t ylen = cap1 - cap0;
	if (ylen > CLAWMD_FRONTMATTER_MAX) {
		snprintf(out->problem, sizeof(out->problem), "is larger than %u bytes",
			 CLAWMD_FRONTMATTER_MAX);
		return;
	}
	if (parse_yaml(text + cap0, ylen, out, true)) {
		out->yaml_ok = true;
		return;
	}
	char *q = quote_values(text + cap0, ylen);
	out->yaml_ok = parse_yaml(q, strlen(q), out, false);
	free(q);
}

void clawmd_frontmatter_release(struct clawmd_frontmatter *fm)
{
	if (!fm)
		return;
	clawmd_strv_free(fm->globs, fm->nglobs);
	memset(fm, 0, sizeof(*fm));
}
