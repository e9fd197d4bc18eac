/* group.c - one group linted as its container sees it: container.json, skills, MCP
 * instructions, drift, what loads, the budget, CLAUDE.local.md and git, preserved content. */
#include "clawmd.h"
#include "lint/lint.h"
#include "base/util.h"
#include "group/group.h"
#include "group/flatentry.h" /* whose a flat entry is, its cut marks */
#include "compose/persona.h" /* the persona files, as compose lists them */
#include "fs/inputs.h"
#include "sys/git.h"
#include "claude/frontmatter.h"
#include "claude/match.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- a group ------------------------------------------------------------ */


/* A message of container.json's reader without its leading "PATH: ". */
static const char *cfg_message(const struct clawmd_lint_group *lg, const char *msg)
{
	size_t sl = strlen(lg->cfg_prefix);
	if (!strncmp(msg, lg->cfg_prefix, sl) && msg[sl] == ':')
		msg += sl + 2;
	return msg;
}

/* CM304, CM306: what the reader of a valid container.json warned about. */
static void config_warnings(struct clawmd_lint_group *lg)
{
	for (size_t i = 0; i < lg->cfg->nunknown; i++) {
		unsigned long line, col;
		const char *msg = cfg_message(lg, lg->cfg->warnings[i]);
		clawmd_lint_pos(&line, &col, lg->cfg_text->ptr,
				clawmd_lint_json_find(lg->cfg_text->ptr, lg->cfg->unknown_keys[i]));
		clawmd_lint_add(lg->out, "CM304", lg->group, lg->cfg_shown, line, col,
				"spell the key as suggested; as it is, clawmd ignores it",
				"%s", msg);
	}
	/* CM306: a provider no contract knows composes the default
	 * surfaces (nanoclaw spawns it so); the host may mean another. */
	for (size_t i = 0; i < lg->cfg->nruntime_names; i++) {
		char *m = clawmd_group_unknown_runtime(lg->grp, i);
		if (!m)
			continue;
		unsigned long line, col;
		const char *msg = cfg_message(lg, m);
		clawmd_lint_pos(&line, &col, lg->cfg_text->ptr,
				clawmd_lint_json_find(lg->cfg_text->ptr, i == 0 && lg->cfg->provider_given
									   ? "provider" : "runtimes"));
		clawmd_lint_add(lg->out, "CM306", lg->group, lg->cfg_shown, line, col,
				"name a provider of doc/runtimes.md, or give it a contract under "
				"\"providers\" in clawmd.json", "%s", msg);
		free(m);
	}
}

/* CM302: container.json refused, with the reader's message `msg` (the
 * file named first: findings carry it separately). */
static void config_refused(struct clawmd_lint_group *lg, const char *msg)
{
	unsigned long line = 1, col = 1;
	size_t sl = strlen(lg->cfg_prefix);
	bool syntax = false; /* the parser said where */
	if (!strncmp(msg, lg->cfg_prefix, sl)) {
		msg += sl;
		if (sscanf(msg, ":%lu:%lu:", &line, &col) != 2)
			line = col = 1;
		else
			syntax = true;
		while (*msg == ':' || (*msg >= '0' && *msg <= '9'))
			msg++;
		while (*msg == ' ')
			msg++;
	}
	if (line == 1 && col == 1 && lg->cfg_text->ptr &&
	    !memchr(lg->cfg_text->ptr, '\0', lg->cfg_text->len)) {
		/* Point at the offending value ("... '../x'"), else at the key the
		 * message starts with ("skills[2]: ..."). */
		const char *q = strchr(msg, '\'');
		const char *qe = q ? strchr(q + 1, '\'') : NULL;
		size_t kl = strcspn(msg, "[.: ");
		char *tok = qe && qe > q + 1 ? clawmd_xstrndup(q + 1, (size_t)(qe - q - 1))
					   : clawmd_xstrndup(msg, kl);
		size_t at = tok[0] ? clawmd_lint_json_find(lg->cfg_text->ptr, tok) : 0;
		if (!at && qe) {
			free(tok);
			tok = clawmd_xstrndup(msg, kl);
			at = tok[0] ? clawmd_lint_json_find(lg->cfg_text->ptr, tok) : 0;
		}
		if (at)
			clawmd_lint_pos(&line, &col, lg->cfg_text->ptr, at - 1);
		free(tok);
	}
	/* The hint fits what is wrong: the JSON itself, a name, or a value. */
	const char *hint =
		syntax || !strncmp(msg, "expected a JSON", 15)
			? "fix the JSON at this position (a comma, quote or bracket, or a byte that "
			  "is not UTF-8 text); compose refuses the group until then"
		: strstr(msg, "invalid name") || strstr(msg, "invalid server name")
			? "rename it to match [A-Za-z0-9][A-Za-z0-9._-]{0,63}; compose refuses the "
			  "group until then"
		: strstr(msg, ": expected") || strstr(msg, "unknown value")
			? "give this key what the message expects; compose refuses the group until "
			  "then"
			: "fix container.json as the message says; compose refuses the group until "
			  "then";
	clawmd_lint_add(lg->out, "CM302", lg->group, lg->cfg_shown, line, col, hint, "%s", msg);
}

static void lint_config(struct clawmd_lint_group *lg, struct clawmd_err *err)
{
	struct clawmd_err perr = CLAWMD_ERR_INIT;
	int rc = clawmd_group_config(&lg->cfg, lg->grp, &perr);
	lg->cfg_text = &lg->grp->config_text;
	if (rc == 0) {
		lg->cfg_ok = true;
		config_warnings(lg);
		return;
	}
	config_refused(lg, perr.msg);
}

/* CM303: every listed skill must be a directory under the skills dir. */
static void lint_skills(struct clawmd_lint_group *lg)
{
	if (!lg->cfg_ok || lg->cfg->all_skills)
		return;
	for (size_t i = 0; i < lg->cfg->nskills; i++) {
		char *dir = clawmd_path_join(lg->lay->skills, lg->cfg->skills[i]);
		struct stat st;
		if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
			unsigned long line, col;
			clawmd_lint_pos(&line, &col, lg->cfg_text->ptr,
					clawmd_lint_json_find(lg->cfg_text->ptr, lg->cfg->skills[i]));
			char *shown = clawmd_lint_shown(lg->lay->root, dir);
			clawmd_lint_add(lg->out, "CM303", lg->group, lg->cfg_shown, line, col,
					"remove it from \"skills\", or add the skill's directory",
					"skill '%s' is selected but %s does not exist",
					lg->cfg->skills[i], shown);
			free(shown);
		}
		free(dir);
	}
}

struct directive_ctx {
	struct clawmd_lint_group *lg;
	const struct clawmd_mcp *m;
	size_t value;	/* offset of the instructions' string literal, or 0 */
	int live;	/* the fragment on disk: -1 none, 0 defused, 1 imports live; -2 flat */
};

static size_t hex4(const char *s, unsigned *cp)
{
	*cp = 0;
	for (int i = 0; i < 4; i++) {
		char c = s[i];
		unsigned v = c >= '0' && c <= '9' ? (unsigned)(c - '0')
			     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
			     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16;
		if (v == 16)
			return 0;
		*cp = *cp * 16 + v;
	}
	return 4;
}

/*
 * The byte offset in the JSON text of decoded byte `off` of the string
 * literal at `lit` (its opening quote): walk the escapes, counting what
 * each decodes to in UTF-8.
 */
static size_t json_raw_offset(const char *json, size_t lit, size_t off)
{
	size_t i = lit + 1, dec = 0;
	unsigned cp, lo;
	while (json[i] && json[i] != '"' && dec < off) {
		if (json[i] != '\\') {
			i++, dec++;
			continue;
		}
		if (json[i + 1] != 'u' || !hex4(json + i + 2, &cp)) {
			i += 2, dec++;
			continue;
		}
		if (cp >= 0xD800 && cp < 0xDC00 && json[i + 6] == '\\' && json[i + 7] == 'u' &&
		    hex4(json + i + 8, &lo) && lo >= 0xDC00 && lo < 0xE000) {
			i += 12, dec += 4;
			continue;
		}
		i += 6, dec += cp < 0x80 ? 1 : cp < 0x800 ? 2 : 3;
	}
	return i;
}

/* The offset of the opening quote of server `name`'s "instructions" value. */
static size_t json_instructions(const char *json, const char *name)
{
	size_t k = clawmd_lint_json_find(json, name);
	const char *p = k ? strstr(json + k, "\"instructions\"") : NULL;
	if (!p)
		return 0;
	p += strlen("\"instructions\"");
	while (*p && (isspace((unsigned char)*p) || *p == ':'))
		p++;
	return *p == '"' ? (size_t)(p - json) : 0;
}

static int report_directive(size_t off, size_t len, const char *path, void *payload)
{
	struct directive_ctx *d = payload;
	const char *json = d->lg->cfg_text->ptr;
	unsigned long line, col;
	if (d->value)
		clawmd_lint_pos(&line, &col, json, json_raw_offset(json, d->value, off));
	else
		clawmd_lint_pos(&line, &col, json, clawmd_lint_json_find(json, d->m->name));
	int shown_len = len > 200 ? 200 : (int)len;
	const char *state =
		d->live == -2 ? "defused by compose in the flat document (the model reads it as text; "
				"nothing is imported; nanoclaw's composer would leave it live)"
		: d->live > 0 ? "LIVE in the fragment on disk, so Claude Code imports it until the next "
			      "compose defuses it"
		: d->live == 0 ? "defused by compose in the fragment (the model reads it as text; "
				 "nothing is imported)"
			       : "which compose defuses when it writes the fragment";
	clawmd_lint_add(d->lg->out, "CM301", d->lg->group, d->lg->cfg_shown, line, col,
			d->live > 0 ? "run 'clawmd compose' for the group now; then drop the '@' or "
				      "write the path in backticks"
				    : "drop the '@' or write the path in backticks",
			"mcpServers.%s.instructions has the @ directive '%.*s', %s", d->m->name,
			shown_len, d->m->instructions + off, state);
	return 0;
}

static int count_import(size_t off, size_t len, const char *path, void *payload)
{
	(*(size_t *)payload)++;
	return 0;
}

/* Whether the MCP fragment compose wrote for `server` still imports
 * anything: -1 when there is none (or it is not a regular file). */
static int fragment_live(struct clawmd_lint_group *lg, const char *server)
{
	struct clawmd_dir fd = CLAWMD_DIR_INIT;
	struct clawmd_buf buf = CLAWMD_BUF_INIT;
	struct clawmd_err e = CLAWMD_ERR_INIT;
	int live = -1;
	char *name = clawmd_xasprintf("mcp-%s.md", server);
	if (clawmd_dir_openat(&fd, &lg->gd, CLAWMD_FRAGMENTS_DIR, true, &e) == 0 &&
	    clawmd_fs_read(&buf, &fd, name, CLAWMD_INSTRUCTIONS_MAX * 2, &e) == 0) {
		size_t n = 0;
		clawmd_md_imports(buf.ptr, buf.len, count_import, &n);
		live = n > 0;
	}
	free(name);
	clawmd_buf_release(&buf);
	clawmd_dir_release(&fd);
	return live;
}

/* CM301: @ directives in inline MCP instructions, located at the directive
 * inside the JSON string (escapes accounted for). */
static void lint_mcp(struct clawmd_lint_group *lg)
{
	if (!lg->cfg_ok)
		return;
	bool flat = clawmd_flat_wanted(lg->grp);
	for (size_t i = 0; i < lg->cfg->nmcp; i++) {
		const struct clawmd_mcp *m = &lg->cfg->mcp[i];
		if (!m->instructions)
			continue;
		struct directive_ctx d = {lg, m, json_instructions(lg->cfg_text->ptr, m->name),
					  flat ? -2 : fragment_live(lg, m->name)};
		clawmd_md_imports(m->instructions, strlen(m->instructions), report_directive, &d);
	}
}

struct persona_ctx {
	struct clawmd_lint_group *lg;
	const char *text, *shown;
};

static int report_persona(size_t off, size_t len, const char *path, void *payload)
{
	struct persona_ctx *p = payload;
	unsigned long line, col;
	clawmd_lint_pos(&line, &col, p->text, off);
	clawmd_lint_add(p->lg->out, "CM308", p->lg->group, p->shown, line, col,
			"drop the '@' or write the path in backticks",
			"the persona has the @ directive '%.*s', which compose defuses (the model reads "
			"it as text; nothing is imported)", len > 200 ? 200 : (int)len, p->text + off);
	return 0;
}

/* CM308: @ directives in the persona files the layout reads. */
static void lint_persona(struct clawmd_lint_group *lg)
{
	struct clawmd_inputs scratch;
	char **names = NULL;
	size_t n = 0;
	if (!lg->lay->persona)
		return;
	clawmd_inputs_init(&scratch);
	if (clawmd_persona_list(&names, &n, lg->gd.fd, &scratch) == 0) {
		for (size_t i = 0; i < n && i < CLAWMD_PERSONA_FILES_MAX; i++) {
			struct clawmd_buf text = CLAWMD_BUF_INIT;
			struct clawmd_err e = CLAWMD_ERR_INIT;
			if (clawmd_fs_read(&text, &lg->gd, names[i], CLAWMD_PERSONA_MAX, &e) == 0 && text.len) {
				char *shown = clawmd_path_join(lg->gshown, names[i]);
				struct persona_ctx p = {lg, text.ptr, shown};
				clawmd_md_imports(text.ptr, text.len, report_persona, &p);
				free(shown);
			}
			clawmd_buf_release(&text);
		}
		clawmd_strv_free(names, n);
	}
	clawmd_inputs_release(&scratch);
}

/* CM401, CM402: compare the plan with the disk, as compose --check does. */
static int lint_drift(struct clawmd_lint_group *lg, struct clawmd_err *err)
{
	struct clawmd_changes ch;
	clawmd_changes_init(&ch);
	int rc = clawmd_changes_compute(&ch, lg->grp, &lg->plan, err);
	if (rc < 0)
		return rc;
	/* A hand-edited entry shows as a PRESERVE of it (then its WRITE).  Any
	 * runtime's entry file, as compose tells them (compose/changes.c): a
	 * flat group of Codex alone has an AGENTS.md and no CLAUDE.md.  A
	 * PRESERVE first, else CLAUDE.md's change, else another entry's. */
	const struct clawmd_change *entry = NULL;
	for (size_t i = 0; i < ch.n; i++) {
		const struct clawmd_change *c = &ch.v[i];
		if (!clawmd_runtime_entry_name(c->name))
			continue;
		if (!entry || (entry->action != CLAWMD_PRESERVE &&
			       (c->action == CLAWMD_PRESERVE ||
				(!strcmp(c->name, CLAWMD_ENTRY_NAME) &&
				 strcmp(entry->name, CLAWMD_ENTRY_NAME)))))
			entry = c;
	}
	char *at = entry ? clawmd_xasprintf("%s/%s", lg->gshown, entry->name)
			 : clawmd_xstrdup(lg->entry_shown);
	if (!clawmd_changes_drift(&ch)) {
		lg->drift = CLAWMD_DRIFT_CLEAN;
	} else if (entry && entry->action != CLAWMD_PRESERVE && entry->old_type == CLAWMD_FT_NONE) {
		lg->drift = CLAWMD_DRIFT_NEVER;
		char *hint = clawmd_xasprintf("run 'clawmd compose %s' (the container runner does it "
					      "at every spawn)", lg->group);
		clawmd_lint_add(lg->out, "CM402", lg->group, at, 1, 1, hint,
				"%s has never been composed", lg->gshown);
		free(hint);
	} else if (entry && (entry->action == CLAWMD_PRESERVE ||
			     !(clawmd_entry_ours(entry->old.ptr ? entry->old.ptr : "", entry->old.len) ||
			       /* a flat entry's header is nanoclaw's: its record says */
			       clawmd_flat_ours(lg->grp, entry->name,
						entry->old.ptr ? entry->old.ptr : "", entry->old.len)))) {
		lg->drift = CLAWMD_DRIFT_HAND_EDITED;
		char *hint = clawmd_xasprintf("put per-group content in CLAUDE.local.md; the next "
					      "compose moves this file's content there (or aside) and "
					      "rewrites %s", entry->name);
		clawmd_lint_add(lg->out, "CM401", lg->group, at, 1, 1, hint,
				"%s was not written by clawmd (edited by hand, or a legacy file)", at);
		free(hint);
	} else {
		lg->drift = CLAWMD_DRIFT_CHANGE;
		struct clawmd_buf names = CLAWMD_BUF_INIT;
		size_t shown = 0, more = 0;
		for (size_t i = 0; i < ch.n; i++) {
			/* an entry moved aside, then written: one name */
			if (i && !strcmp(ch.v[i].name, ch.v[i - 1].name))
				continue;
			if (shown == 8) {
				more++;
				continue;
			}
			clawmd_buf_printf(&names, "%s%s", shown++ ? ", " : "", ch.v[i].name);
		}
		if (more)
			clawmd_buf_printf(&names, ", and %zu more", more);
		char *hint = clawmd_xasprintf("run 'clawmd compose %s'; 'clawmd compose --dry-run %s' "
					      "shows the diff", lg->group, lg->group);
		clawmd_lint_add(lg->out, "CM402", lg->group, at, 1, 1, hint,
				"%s is stale: compose would change %s", lg->gshown, names.ptr);
		free(hint);
		clawmd_buf_release(&names);
	}
	free(at);
	clawmd_changes_release(&ch);
	return 0;
}

/* What the container loads at startup, through the mount table: CM101-CM105
 * and CM201, and the memory size for the budget.  Claude Code's load, set
 * up as render --group sets it up (clawmd_render_setup: on a nanoclaw host
 * the release its image pins and the sources its runner passes), so that
 * check, status and render say the same of one group. */
static int lint_memory(struct clawmd_lint_group *lg, struct clawmd_err *err)
{
	struct clawmd_render_opts ro = CLAWMD_RENDER_OPTS_INIT;
	struct clawmd_render_setup s;
	ro.memory.runtime = CLAWMD_RUNTIME_CLAUDE;
	ro.runtime_set = true;
	ro.memory.approve_external = lg->opts->approve_external;
	ro.broken_pin_noted = true; /* CM307, once for the root */
	int rc = clawmd_render_setup(&s, lg->grp, &ro, err);
	if (rc == 0) {
		struct clawmd_lint_view V = {
			.out = lg->out,
			.group = lg->group,
			.root = lg->lay->root,
			.mounts = s.mounts,
			.nmounts = s.nmounts,
			.plan = lg->planned ? &lg->plan : NULL,
			.gpath = lg->gpath,
		};
		rc = clawmd_lint_loaded(&V, &s.memory, &lg->memory_chars, err);
	}
	clawmd_render_setup_release(&s);
	return rc;
}

/* CM601-CM603 for runtime `c`'s load `m` in the container (its entry
 * `entry` there, shown as `shown`, holding `text`), and the seed loaders'
 * own findings. */
static void runtime_loaded(struct clawmd_lint_group *lg, const struct clawmd_contract *c,
			   const char *entry, const char *shown, const struct clawmd_buf *text,
			   const struct clawmd_memory_opts *mo, const struct clawmd_memory *m)
{
	const char *title = c->title;
	bool loaded = false;
	for (size_t i = 0; i < m->nfiles && !loaded; i++)
		loaded = !strcmp(m->files[i].path, entry);
	size_t limit = clawmd_contract_load_limit(c);
	if (!loaded)
		clawmd_lint_add(lg->out, "CM601", lg->group, shown, 1, 1,
				"remove the file that takes its place; keep what it holds in "
				"CLAUDE.local.md",
				"%s does not load %s: another file takes its place", title,
				shown);
	else if (limit && text->len > limit)
		clawmd_lint_add(lg->out, "CM602", lg->group, shown, 1, 1,
				"trim the persona, the shared base or the memory (nothing "
				"droppable is left)",
				"%s loads %zu of the %zu bytes of %s and cuts the rest off",
				title, limit, text->len, shown);
	for (size_t i = 0; i < m->nimports; i++) {
		const struct clawmd_mem_import *im = &m->imports[i];
		/* written inside code: text, never an import */
		if (im->status == CLAWMD_IMPORT_LOADED || im->status == CLAWMD_IMPORT_CYCLE ||
		    im->status == CLAWMD_IMPORT_DUPLICATE || im->status == CLAWMD_IMPORT_EMPTY ||
		    im->status == CLAWMD_IMPORT_INSIDE_CODE)
			continue;
		/* copy mode only helps an import that leaves the group */
		clawmd_lint_add(lg->out, "CM603", lg->group, shown, 1, 1,
				im->status == CLAWMD_IMPORT_EXTERNAL
					? "compose in copy mode, or remove the import"
					: "fix the path (a text file inside the group), or "
					  "remove the import",
				"%s does not follow @%s in %s (%s)", title, im->raw, im->from,
				im->status == CLAWMD_IMPORT_EXTERNAL
					? "its real path leaves the group"
					: clawmd_import_status_name(im->status));
	}
	/* CM606-CM610: the seed documents' own loaders (lint/seed.c) */
	if (c->like == CLAWMD_RUNTIME_CALIBAN || c->like == CLAWMD_RUNTIME_CHIMERA)
		clawmd_lint_seed(lg, c, shown, mo, m);
}

/*
 * CM601-CM603: for each runtime the group runs but Claude Code (lint_memory
 * covers it), what that runtime loads in the container, by its own rules
 * (render/<runtime>.c): clawmd's entry file must be among it, whole, and
 * every import it holds followed.
 */
static int lint_runtimes(struct clawmd_lint_group *lg, struct clawmd_err *err)
{
	clawmd_runtimes set;
	enum clawmd_runtime first;
	struct clawmd_mount *mounts = NULL;
	size_t nmounts = 0;
	if (!lg->cfg_ok) /* CM302 said why */
		return 0;
	int rc = clawmd_group_runtimes(&set, &first, lg->grp, err);
	if (rc < 0 || !(set & ~(1u << CLAWMD_RUNTIME_CLAUDE)))
		return rc;
	if ((rc = clawmd_group_mounts(&mounts, &nmounts, lg->grp, err)) < 0)
		return rc;
	for (int rt = 1; rt < clawmd_layout_nruntimes(lg->lay); rt++) {
		const struct clawmd_contract *c = clawmd_layout_contract(lg->lay, rt);
		if (!(set & (1u << rt)) || !c || !c->entry)
			continue;
		const char *name = c->entry, *title = c->title;
		char *entry = clawmd_path_join(lg->lay->ct_group, name);
		char *shown = clawmd_path_join(lg->gshown, name);
		struct clawmd_buf text = CLAWMD_BUF_INIT;
		struct clawmd_err scratch = CLAWMD_ERR_INIT;
		struct clawmd_memory m;
		struct clawmd_memory_opts mo = {.version = CLAWMD_MEMORY_OPTS_VERSION,
						.cwd = lg->lay->ct_group, .mounts = mounts,
						.nmounts = nmounts, .runtime = c->like};
		clawmd_memory_init(&m);
		/* not composed yet: CM402 says so */
		bool present = clawmd_fs_read(&text, &lg->gd, name, 64u << 20, &scratch) == 0;
		/* CM605: the group's files hand it the same text twice */
		const char *twice = lg->planned ? clawmd_plan_twice(&lg->plan, c) : NULL;
		if (twice)
			clawmd_lint_add(lg->out, "CM605", lg->group, shown, 1, 1,
					"run this provider in a group of its own",
					"%s reads both %s and %s: it gets the same instructions twice",
					title, name, twice);
		/* render knows no other runtime's rules than the built-in ones */
		bool loader = c->like != CLAWMD_RUNTIME_CLAUDE && c->like != CLAWMD_RUNTIME_MOCK;
		if (loader && present && clawmd_memory_load(&m, &mo, &scratch) == 0)
			runtime_loaded(lg, c, entry, shown, &text, &mo, &m);
		clawmd_memory_release(&m);
		clawmd_buf_release(&text);
		free(entry);
		free(shown);
	}
	clawmd_mounts_free(mounts, nmounts);
	return 0;
}

/* CM604 for each section of a flat document cut short to fit its cap
 * (nothing droppable was left): its heading and the bytes it lost.  The
 * agent writes the persona, so a forged note only reports itself. */
static void lint_cut(struct clawmd_lint_group *lg, const char *name, const struct clawmd_buf *text)
{
	const size_t hl = strlen(CLAWMD_FLAT_CUT_HEAD), tl = strlen(CLAWMD_FLAT_CUT_TAIL);
	const char *p = text->ptr, *end = text->ptr + text->len, *t, *h = NULL, *scan = text->ptr;
	while ((t = memmem(p, (size_t)(end - p), CLAWMD_FLAT_CUT_TAIL, tl))) {
		const char *num = t;
		while (num > p && num[-1] >= '0' && num[-1] <= '9')
			num--;
		p = t + tl;
		if (num == t || (size_t)(num - text->ptr) < hl || memcmp(num - hl, CLAWMD_FLAT_CUT_HEAD, hl))
			continue;
		/* the section's heading: the last "\n# " line before the note
		 * (one pass over the text, however many notes it holds) */
		for (const char *q = scan; (q = memmem(q, (size_t)(num - q), "\n# ", 3)); q += 3)
			h = q + 3;
		scan = num;
		size_t hlen = h ? strcspn(h, "\n") : 0;
		char *shown = clawmd_path_join(lg->gshown, name);
		clawmd_lint_add(lg->out, "CM604", lg->group, shown, 1, 1,
				"trim the persona (instructions.prepend.md), or raise the provider's cap",
				"cut to fit the size its runtime loads: the last %.*s bytes of the section "
				"'%.*s'", (int)(t - num), num, (int)(hlen > 80 ? 80 : hlen), h ? h : "");
		free(shown);
	}
}

/*
 * CM604: an entry file of the group the cap ladder cut, in either layout:
 * the inlined entry's last part, or the flat document's "Omitted for size"
 * section, names what was left out.
 */
static void lint_dropped(struct clawmd_lint_group *lg)
{
	static const char flat[] = "\n\n# Omitted for size\n\nThese instruction sections were "
				   "omitted to fit the project-document size cap: ";
	/* persona files the plan left out to keep the fragment loadable
	 * (compose/persona.c): its warnings name them */
	for (size_t i = 0; lg->planned && i < lg->plan.nwarnings; i++) {
		const char *w = lg->plan.warnings[i], *at = strstr(w, ": left out of the persona: ");
		if (at && strstr(at, " Claude Code loads of one file"))
			clawmd_lint_add(lg->out, "CM604", lg->group, lg->entry_shown, 1, 1,
					"trim the persona files (*.prepend.md)", "%s", w);
	}
	for (size_t i = 0; lg->planned && i < lg->plan.n; i++) {
		const char *name = lg->plan.entries[i].name;
		struct clawmd_buf text = CLAWMD_BUF_INIT;
		struct clawmd_err scratch = CLAWMD_ERR_INIT;
		if (!clawmd_runtime_entry_name(name) ||
		    clawmd_fs_read(&text, &lg->gd, name, 64u << 20, &scratch) != 0) {
			clawmd_buf_release(&text);
			continue;
		}
		const char *from = NULL, *end = NULL;
		const char *om = memmem(text.ptr, text.len, CLAWMD_INLINE_OMITTED_MARK,
					strlen(CLAWMD_INLINE_OMITTED_MARK));
		if (om) {
			from = om + strlen(CLAWMD_INLINE_OMITTED_MARK);
			end = memmem(from, text.len - (size_t)(from - text.ptr), " -->", 4);
		} else if ((om = memmem(text.ptr, text.len, flat, sizeof(flat) - 1))) {
			from = om + sizeof(flat) - 1;
			end = memmem(from, text.len - (size_t)(from - text.ptr), ". Their tools", 13);
		}
		if (from && end) {
			char *shown = clawmd_path_join(lg->gshown, name);
			clawmd_lint_add(lg->out, "CM604", lg->group, shown, 1, 1,
					"trim the biggest instructions, or raise the provider's cap",
					"left out to fit the size its runtime loads: %.*s",
					(int)(end - from), from);
			free(shown);
		}
		lint_cut(lg, name, &text);
		clawmd_buf_release(&text);
	}
}

/* CM501-CM503 for the group's rules, as the container sees them. */
static int lint_group_rules(struct clawmd_lint_group *lg)
{
	struct clawmd_mount *mounts = NULL;
	size_t nmounts = 0;
	struct clawmd_err err = CLAWMD_ERR_INIT;
	int rc = clawmd_group_mounts(&mounts, &nmounts, lg->grp, &err);
	if (rc < 0)
		return 0; /* lint_memory reported it */
	struct clawmd_view v = {mounts, nmounts};
	clawmd_lint_rules_dir(lg->out, lg->group, &v, lg->lay->ct_group, lg->lay->root);
	clawmd_mounts_free(mounts, nmounts);
	return 0;
}

static void lint_budget(struct clawmd_lint_group *lg)
{
	long budget = lg->lay->token_budget;
	size_t tokens = (lg->memory_chars + 3) / 4;
	if (budget > 0 && tokens > (size_t)budget)
		clawmd_lint_add(lg->out, "CM202", lg->group, lg->entry_shown, 1, 1,
				"drop skills the group does not use (\"skills\" in container.json), trim "
				"CLAUDE.local.md, or raise \"token_budget\" in clawmd.json",
				"%s loads about %zu tokens of memory (%zu characters / 4), over the budget of "
				"%ld",
				lg->gshown, tokens, lg->memory_chars, budget);
}

/*
 * CM403: CLAUDE.local.md is per-group, agent-written memory; committing it
 * publishes whatever the agent wrote.  Only when `dir` is in the work tree
 * of the repository found from `repo_dir` (ROOT for a group: a repository
 * the agent made inside its group is never opened).
 *
 * libgit2 must not read anything in the group: a FIFO .gitignore would
 * hang it, a symlinked one would read a host file.  So clawmd reads the
 * .gitignore files from the work tree's top down to `dir` itself (O_NOFOLLOW,
 * O_NONBLOCK, regular files only, bounded; git does not follow a symlinked
 * .gitignore either), turns each into rules relative to the top (a pattern
 * without an inner slash matches below its directory: "d/" + "**" + "/p";
 * with one, it is anchored there: "d/p"), and hands them to libgit2 as
 * in-memory rules, with libgit2's work tree pointed at the git directory,
 * where no .gitignore is.  info/exclude and core.excludesFile still apply.
 */
#define IGNORE_FILE_MAX (1024 * 1024)

static void ignore_rules(struct clawmd_buf *out, const char *text, const char *rel)
{
	for (const char *l = text; *l;) {
		size_t n = strcspn(l, "\n");
		char *line = clawmd_xstrndup(l, n);
		l += n + (l[n] == '\n');
		const char *p = line;
		bool neg = *p == '!';
		p += neg;
		size_t pl = strlen(p);
		if (!pl || line[0] == '#' || !*rel) {
			if (pl && line[0] != '#')
				clawmd_buf_printf(out, "%s\n", line);
			free(line);
			continue;
		}
		/* an inner slash anchors the pattern to its directory */
		bool anchored = false;
		for (size_t i = 0; i + 1 < pl; i++)
			anchored = anchored || p[i] == '/';
		clawmd_buf_puts(out, neg ? "!" : "");
		for (const char *c = rel; *c; c++) {
			if (strchr("*?[]\\!#", *c))
				clawmd_buf_putc(out, '\\');
			clawmd_buf_putc(out, *c);
		}
		clawmd_buf_printf(out, "%s%s\n", anchored ? "/" : "/**/", p + (p[0] == '/'));
		free(line);
	}
}

static void ignore_file(struct clawmd_buf *rules, const char *top, const char *rel)
{
	char *path = *rel ? clawmd_xasprintf("%s/%s/.gitignore", top, rel)
			  : clawmd_xasprintf("%s/.gitignore", top);
	struct stat st;
	/* A group's .gitignore is the agent's: the one safe open (fs.h). */
	int fd = clawmd_fs_open_read(AT_FDCWD, path, CLAWMD_FS_NOFOLLOW, &st);
	free(path);
	if (fd < 0)
		return;
	if (st.st_size <= IGNORE_FILE_MAX) {
		struct clawmd_buf b = CLAWMD_BUF_INIT;
		char chunk[8192];
		ssize_t k;
		clawmd_buf_put(&b, "", 0);
		while (b.len <= IGNORE_FILE_MAX && (k = read(fd, chunk, sizeof(chunk))) > 0)
			clawmd_buf_put(&b, chunk, (size_t)k);
		if (b.len <= IGNORE_FILE_MAX && !memchr(b.ptr, '\0', b.len))
			ignore_rules(rules, b.ptr, rel);
		clawmd_buf_release(&b);
	}
	close(fd);
}

void clawmd_lint_local_ignored(struct clawmd_findings *out, const char *group,
				      const char *repo_dir, const char *dir, const char *shown)
{
	clawmd_lint_ignored(out, group, repo_dir, dir, CLAWMD_LOCAL_NAME, shown);
}

void clawmd_lint_ignored(struct clawmd_findings *out, const char *group, const char *repo_dir,
			 const char *dir, const char *name, const char *shown)
{
	struct clawmd_err gerr = CLAWMD_ERR_INIT;
	const struct clawmd_git *git = clawmd_git(&gerr);
	git_repository *repo = NULL;
	char *rdir = NULL, *rwd = NULL, *rel = NULL;
	struct clawmd_buf rules = CLAWMD_BUF_INIT;
	if (!git || git->git_repository_open_ext(&repo, repo_dir, 0, NULL) < 0)
		return;
	const char *wd = git->git_repository_workdir(repo);
	if (!wd || !(rdir = realpath(dir, NULL)) || !(rwd = realpath(wd, NULL)))
		goto out;
	if (!clawmd_lint_under(rdir, rwd))
		goto out;
	const char *rest = rdir + strlen(rwd);
	while (*rest == '/')
		rest++;
	/* the .gitignore files from the top down to dir */
	clawmd_buf_put(&rules, "", 0);
	ignore_file(&rules, rwd, "");
	for (const char *c = rest; *c; c++)
		if (c[1] == '/' || !c[1]) {
			char *sub = clawmd_xstrndup(rest, (size_t)(c - rest + 1));
			ignore_file(&rules, rwd, sub);
			free(sub);
		}
	rel = *rest ? clawmd_xasprintf("%s/%s", rest, name) : clawmd_xstrdup(name);
	int ignored = 0;
	if (git->git_repository_set_workdir(repo, git->git_repository_path(repo), 0) == 0 &&
	    (!rules.len || git->git_ignore_add_rule(repo, rules.ptr) == 0) &&
	    git->git_ignore_path_is_ignored(&ignored, repo, rel) == 0 && !ignored)
		clawmd_lint_add(out, "CM403", group, shown, 1, 1,
				strcmp(name, CLAWMD_LOCAL_NAME)
					? "ignore the groups' AGENTS.md in .gitignore (it holds the "
					  "agent's CLAUDE.local.md, inlined)"
					: "add 'CLAUDE.local.md' to .gitignore (per-group memory is "
					  "written by the agent and is not for the repository)",
				"%s is not ignored by git", rel);
out:
	clawmd_buf_release(&rules);
	free(rel);
	free(rdir);
	free(rwd);
	git->git_repository_free(repo);
}

/* CM403 is about a file that exists: an absent CLAUDE.local.md (compose
 * creates it) is not committed by anyone. */
static bool local_present(struct clawmd_lint_group *lg)
{
	struct clawmd_err e = CLAWMD_ERR_INIT;
	mode_t t = 0;
	return clawmd_fs_type(&t, &lg->gd, CLAWMD_LOCAL_NAME, &e) == 0 && t != 0;
}

#define PRESERVED_MARK ".clawmd-preserved-"
#define PRESERVED_MAX 100 /* findings per group; the count says the rest */

/* The names in `d` that compose moved aside, sorted. */
static void list_preserved(struct clawmd_lint_files *fl, const struct clawmd_dir *d, const char *prefix)
{
	DIR *dir = d->fd >= 0 ? clawmd_fs_list(d->fd) : NULL;
	struct dirent *e;
	while (dir && (e = readdir(dir)) && fl->n < 10000)
		if (strstr(e->d_name, PRESERVED_MARK)) {
			clawmd_xgrow(&fl->v, &fl->cap, fl->n + 1, sizeof(char *));
			fl->v[fl->n++] = prefix ? clawmd_xasprintf("%s/%s", prefix, e->d_name)
						: clawmd_xstrdup(e->d_name);
		}
	if (dir)
		closedir(dir);
}

/* CM404: content compose preserved (never deleted) and nobody reviewed yet,
 * in the group and in its fragments directory. */
static void lint_preserved(struct clawmd_lint_group *lg)
{
	struct clawmd_dir fd = CLAWMD_DIR_INIT;
	struct clawmd_err e = CLAWMD_ERR_INIT;
	struct clawmd_lint_files fl = {0};
	list_preserved(&fl, &lg->gd, NULL);
	if (clawmd_dir_openat(&fd, &lg->gd, CLAWMD_FRAGMENTS_DIR, true, &e) == 0)
		list_preserved(&fl, &fd, CLAWMD_FRAGMENTS_DIR);
	if (fl.n)
		qsort(fl.v, fl.n, sizeof(char *), clawmd_strcmp_ptr);
	for (size_t i = 0; i < fl.n && i < PRESERVED_MAX; i++) {
		char *file = clawmd_xasprintf("%s/%s", lg->gshown, fl.v[i]);
		clawmd_lint_add(lg->out, "CM404", lg->group, file, 1, 1,
				"review it, keep what matters (in CLAUDE.local.md), then delete it",
				"compose moved this content aside rather than delete it; it is waiting "
				"for review%s",
				i + 1 == PRESERVED_MAX && fl.n > PRESERVED_MAX ? " (and more not listed)"
									     : "");
		free(file);
	}
	lg->npreserved = fl.n;
	clawmd_strv_free(fl.v, fl.n);
	clawmd_dir_release(&fd);
}

void clawmd_lint_group_release(struct clawmd_lint_group *lg)
{
	free(lg->gpath);
	free(lg->gshown);
	free(lg->cfg_shown);
	free(lg->entry_shown);
	free(lg->cfg_prefix);
	clawmd_plan_release(&lg->plan);
}

int clawmd_lint_group_run(struct clawmd_lint_group *lg, struct clawmd_findings *out,
			  struct clawmd_group *grp, const struct clawmd_lint_opts *opts,
			  struct clawmd_err *err)
{
	static const struct clawmd_lint_opts defaults = CLAWMD_LINT_OPTS_INIT;
	const struct clawmd_layout *lay = grp->lay;
	const struct clawmd_dir *gd;
	int rc;
	memset(lg, 0, sizeof(*lg));
	clawmd_plan_init(&lg->plan);
	lg->out = out;
	lg->grp = grp;
	lg->lay = lay;
	lg->opts = opts ? opts : &defaults;
	lg->group = grp->name;
	lg->drift = CLAWMD_DRIFT_INVALID;
	lg->gpath = clawmd_xstrdup(grp->path);
	lg->gshown = clawmd_lint_shown(lay->root, lg->gpath);
	lg->cfg_shown = clawmd_xasprintf("%s/%s", lg->gshown, CLAWMD_CONFIG_NAME);
	lg->cfg_prefix = clawmd_path_join(grp->shown, CLAWMD_CONFIG_NAME);
	lg->entry_shown = clawmd_xasprintf("%s/%s", lg->gshown, CLAWMD_ENTRY_NAME);
	if ((rc = clawmd_opts_version(lg->opts->version, CLAWMD_LINT_OPTS_VERSION, "clawmd_lint_opts",
				      err)) < 0)
		return rc;
	/* The handle's directory, opened once, for every look below. */
	if ((rc = clawmd_group_dir(&gd, grp, err)) < 0)
		return rc;
	lg->gd = (struct clawmd_dir){gd->fd, lg->gpath};

	lint_config(lg, err);
	if (err->code)
		return err->code;
	lint_skills(lg);
	lint_mcp(lg);
	lint_persona(lg);
	if (lg->cfg_ok) {
		if ((rc = clawmd_plan_build(&lg->plan, grp, err)) < 0)
			return rc;
		lg->planned = true;
		if ((rc = lint_drift(lg, err)) < 0)
			return rc;
	}
	if ((rc = lint_memory(lg, err)) < 0 || (rc = lint_runtimes(lg, err)) < 0)
		return rc;
	lint_budget(lg);
	lint_dropped(lg);
	char *local = clawmd_path_join(lg->gshown, CLAWMD_LOCAL_NAME);
	if (local_present(lg))
		clawmd_lint_local_ignored(out, grp->name, lay->root, lg->gpath, local);
	free(local);
	/* An inlined entry holds the memory: as private as the memory. */
	for (size_t i = 0; lg->planned && lg->plan.inlined && i < lg->plan.n; i++) {
		const char *name = lg->plan.entries[i].name;
		struct clawmd_err scratch = CLAWMD_ERR_INIT;
		mode_t t;
		if (!clawmd_runtime_entry_name(name) || !strcmp(name, CLAWMD_ENTRY_NAME) ||
		    clawmd_fs_type(&t, &lg->gd, name, &scratch) < 0 || t != S_IFREG)
			continue;
		char *shown = clawmd_path_join(lg->gshown, name);
		clawmd_lint_ignored(out, grp->name, lay->root, lg->gpath, name, shown);
		free(shown);
	}
	lint_preserved(lg);
	if ((rc = lint_group_rules(lg)) < 0)
		return rc;
	return 0;
}

int clawmd_lint_group(struct clawmd_findings *out, struct clawmd_group *grp,
		      const struct clawmd_lint_opts *opts, struct clawmd_err *err)
{
	struct clawmd_lint_group lg;
	int rc = clawmd_lint_group_run(&lg, out, grp, opts, err);
	clawmd_lint_group_release(&lg);
	return rc;
}
