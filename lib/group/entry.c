/*
 * entry.c - the composed CLAUDE.md as a file clawmd owns: the digest its
 * header carries, whether a CLAUDE.md found in a group is clawmd's own (or
 * nanoclaw's composer's) and may be replaced, and what is carried out of
 * one that is not.  compose (a hand edit preserved) and migrate (a legacy
 * entry cut over) share these rules, so both read them here.
 */
#include "clawmd.h"
#include "group/entry.h"
#include "base/util.h"

#include <stdio.h>
#include <string.h>

void clawmd_entry_digest(char out[17], const char *data, size_t len)
{
	snprintf(out, 17, "%016llx", (unsigned long long)clawmd_fnv1a64(data, len));
}

/* The headers nanoclaw's own composer (src/claude-md-compose.ts) writes:
 * qwibitai/nanoclaw's since c8fc1da71, and nanocoai/nanoclaw's, which names
 * the persona files and memory/ instead (doc/nanoclaw.md). */
static const char *const nanoclaw_headers[] = {
	"<!-- Composed at spawn \xe2\x80\x94 do not edit. Edit CLAUDE.local.md for per-group "
	"content. -->",
	"<!-- Composed at spawn - do not edit. Standing instructions: instructions.prepend.md. "
	"Memory: memory/. -->",
};

/* Lines of group files nanoclaw's composer may import last: CLAUDE.local.md
 * (qwibitai pull requests 2262 and 2479) and CLAUDE.role.md (2345). */
static const char *const nanoclaw_group_imports[] = {"@./" CLAWMD_LOCAL_NAME, "@./" CLAWMD_ROLE_NAME};

/*
 * An entry written by nanoclaw's composer: one of its exact header lines,
 * then only "@./.claude-shared.md", "@./.claude-fragments/<name>.md" and
 * the group-file imports above, with or without a final newline.  It holds
 * nothing but imports of what compose writes or imports anyway, so a host
 * cutting over from nanoclaw's composer gets it replaced as a composed
 * entry: nothing carried into CLAUDE.local.md (that would import every
 * fragment twice), nothing preserved.  Anything else on any line (a hand
 * edit) makes it not nanoclaw's.
 */
static bool nanoclaw_composed(const char *data, size_t len)
{
	static const char shared[] = "@./" CLAWMD_SHARED_NAME;
	static const char frag[] = "@./" CLAWMD_FRAGMENTS_DIR "/";
	const size_t sl = sizeof(shared) - 1, fl = sizeof(frag) - 1;
	size_t hl = 0;
	for (size_t i = 0; !hl && i < CLAWMD_ARRAY_SIZE(nanoclaw_headers); i++) {
		size_t n = strlen(nanoclaw_headers[i]);
		if (len > n && !memcmp(data, nanoclaw_headers[i], n) && data[n] == '\n')
			hl = n;
	}
	if (!hl)
		return false;
	const char *p = data + hl + 1, *end = data + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		bool ok = false;
		for (size_t i = 0; !ok && i < CLAWMD_ARRAY_SIZE(nanoclaw_group_imports); i++)
			ok = l == strlen(nanoclaw_group_imports[i]) &&
			     !memcmp(p, nanoclaw_group_imports[i], l);
		ok = ok || (l == sl && !memcmp(p, shared, sl)) ||
			  (l > fl + 3 && !memcmp(p, frag, fl) && !memcmp(p + l - 3, ".md", 3) &&
			   !memchr(p + fl, '/', l - fl) && !memchr(p + fl, ' ', l - fl) &&
			   !memchr(p + fl, '\r', l - fl));
		if (!ok)
			return false;
		p += nl ? l + 1 : l;
	}
	return true;
}

/*
 * Ours: the first line is an HTML comment ending in "clawmd:fnv1a64=<hex> -->"
 * and the digest matches the rest of the file.  Only the digest is checked,
 * not the wording before it, so a later release may reword the header
 * without every group's entry looking hand-edited.  An entry written by
 * nanoclaw's own composer counts as ours too (see nanoclaw_composed).
 */
bool clawmd_entry_ours(const char *data, size_t len)
{
	if (nanoclaw_composed(data, len))
		return true;
	static const char tag[] = "clawmd:fnv1a64=";
	const size_t tl = sizeof(tag) - 1, tail = tl + 16 + 4; /* tag, hex, " -->" */
	const char *nl = memchr(data, '\n', len);
	char want[17];
	if (!nl || (size_t)(nl - data) < 4 + tail || memcmp(data, "<!--", 4))
		return false;
	const char *t = nl - tail;
	if (memcmp(t, tag, tl) || memcmp(t + tl + 16, " -->", 4))
		return false;
	clawmd_entry_digest(want, nl + 1, len - (size_t)(nl + 1 - data));
	return !memcmp(t + tl, want, 16);
}

/* ---- what is carried out of a legacy entry -------------------------------- */

static bool eq(const char *s, const char *e, const char *lit)
{
	size_t n = strlen(lit);
	return (size_t)(e - s) == n && !memcmp(s, lit, n);
}

static bool legacy_import(const char *s, const char *e, const char *ct_group)
{
	clawmd_trim(&s, &e);
	if (eq(s, e, "@./" CLAWMD_LEGACY_LINK_NAME) || eq(s, e, "@" CLAWMD_LEGACY_LINK_NAME))
		return true;
	if (!ct_group || e - s < 2 || *s != '@')
		return false;
	size_t n = strlen(ct_group);
	while (n > 1 && ct_group[n - 1] == '/')
		n--;
	s++;
	return (size_t)(e - s) == n + 1 + strlen(CLAWMD_LEGACY_LINK_NAME) &&
	       !memcmp(s, ct_group, n) && s[n] == '/' &&
	       !memcmp(s + n + 1, CLAWMD_LEGACY_LINK_NAME, strlen(CLAWMD_LEGACY_LINK_NAME));
}

void clawmd_entry_carry(struct clawmd_buf *out, const char *text, size_t len, const char *ct_group)
{
	const char *p = text, *end = text + len;
	bool leading = true;	/* nothing but blank lines emitted so far */
	bool after_drop = false; /* a dropped import line came last */
	clawmd_buf_clear(out);
	clawmd_buf_put(out, "", 0);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end, *next = nl ? nl + 1 : end;
		const char *s = p, *e = le;
		clawmd_trim(&s, &e);
		if (legacy_import(p, le, ct_group)) {
			after_drop = true;
		} else if (s == e && after_drop && leading) {
			/* a blank line that only separated the import */
		} else {
			clawmd_buf_put(out, p, (size_t)(next - p));
			if (s != e)
				leading = false;
			after_drop = false;
		}
		p = next;
	}
}
