/*
 * frontmatter.h - Claude Code's frontmatter handling for memory files and
 * the `paths:` globs of rules (private to the library).
 *
 *	struct clawmd_frontmatter fm;
 *	clawmd_frontmatter_parse(&fm, text, len);
 *	body = text + fm.body;             // what is left after the block
 *	if (fm.nglobs) ... conditional rule ...
 *	clawmd_frontmatter_release(&fm);
 *
 * The block is removed whenever the regex matches, even when its YAML does
 * not parse (then the file counts as unconditional).  Memory exhaustion
 * aborts; nothing else fails.
 */
#ifndef CLAWMD_FRONTMATTER_H
#define CLAWMD_FRONTMATTER_H

#include <stdbool.h>
#include <stddef.h>

/* YAML larger than this is not handed to libyaml (treated as invalid). */
#define CLAWMD_FRONTMATTER_MAX (256u * 1024)
/* A rule keeps at most this many patterns: brace expansion stops there. */
#define CLAWMD_PATHS_MAX 256u

struct clawmd_frontmatter {
	bool block;	/* the text starts with a frontmatter block */
	size_t body;	/* offset of the content after it (0 when none) */
	size_t yaml;	/* offset of the block's YAML text */
	bool yaml_ok;	/* the block parsed as a YAML mapping (maybe on retry) */
	char **globs;	/* the rule's patterns; NULL: unconditional */
	size_t nglobs;
	/* For diagnostics (check): lines and columns are 0-based, in the YAML
	 * text.  `problem` is why the first parse failed ("" when it did not). */
	char problem[160];
	unsigned long problem_line, problem_col;
	bool has_paths; /* a paths: key, at paths_line:paths_col */
	bool globs_capped; /* more than CLAWMD_PATHS_MAX patterns: the rest dropped */
	unsigned long paths_line, paths_col;
};

void clawmd_frontmatter_parse(struct clawmd_frontmatter *out, const char *text, size_t len);
void clawmd_frontmatter_release(struct clawmd_frontmatter *fm);

/*
 * The globs of one `paths:` string, appended to *v: split on commas outside
 * braces, trimmed, brace-expanded, trailing slash-star-star removed, empties
 * dropped.  False when *n reached CLAWMD_PATHS_MAX and the rest was dropped.
 */
bool clawmd_paths_split(char ***v, size_t *n, const char *s);

#endif
