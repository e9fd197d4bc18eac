/*
 * The group handle keeps container.json's JSON parse (config_doc,
 * lib/group/group.c) and the flat document reads it (compose/flat.c)
 * instead of parsing the text again.  That parse must always be the one
 * of the text the handle holds: else a compose through a long-lived handle
 * would write a document from a config that is gone, or read a freed one
 * (the sanitizer build shows that).
 *
 * One root and one group handle for the whole run, as a host keeps them,
 * without a pass and with a watched one; the nanoclaw preset's flat
 * document.  Configs of one length that differ only in their skill and MCP
 * server instructions (so no size or parse-shape difference hides a stale
 * parse), given as the file (rewritten in place, composed at once and once
 * out of the racy window, with the handle asked for its config in between,
 * and clawmd_group_refresh() called) and by the host
 * (clawmd_group_set_config), including one clawmd's reader refuses (an
 * unknown cli_scope) that the flat document still reads, as nanoclaw
 * reads its row.  After each compose the document must be that of the
 * config given last, and the handle's parse must be that config's.
 */
#include "tap.h"
#include "testutil.h"
#include "clawmd.h"
#include "group/group.h"

#include <cJSON.h>

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[256];

/* Three configs of one length: skill a or b, MCP instructions "use m"
 * or "use n"; the third has a cli_scope clawmd refuses. */
static const char *const A = "{\"skills\": [\"a\"], \"mcpServers\": {\"m\": {\"command\": \"m\", \"instructions\": \"use m\"}}, \"cli_scope\": \"group\"}";
static const char *const B = "{\"skills\": [\"b\"], \"mcpServers\": {\"m\": {\"command\": \"m\", \"instructions\": \"use n\"}}, \"cli_scope\": \"group\"}";
static const char *const C = "{\"skills\": [\"b\"], \"mcpServers\": {\"m\": {\"command\": \"m\", \"instructions\": \"use c\"}}, \"cli_scope\": \"bogus\"}";

/* What each config's document must hold, and what it must not. */
static void wants(const char *cfg, const char **has, const char **hasnt)
{
	if (cfg == A) {
		has[0] = "skill A text", has[1] = "use m";
		hasnt[0] = "skill B text", hasnt[1] = "use n", hasnt[2] = "use c";
	} else if (cfg == B) {
		has[0] = "skill B text", has[1] = "use n";
		hasnt[0] = "skill A text", hasnt[1] = "use m", hasnt[2] = "use c";
	} else {
		has[0] = "skill B text", has[1] = "use c";
		hasnt[0] = "skill A text", hasnt[1] = "use m", hasnt[2] = "use n";
	}
}

static const char *name_of(const char *cfg)
{
	return cfg == A ? "A" : cfg == B ? "B" : "C (refused by clawmd's reader)";
}

/* Write in place: the same inode, truncated and rewritten. */
static void put(const char *rel, const char *text)
{
	test_put(root, rel, text);
}

/* Out of the racy window (fs/stamp.h), by the filesystem's clock, as
 * record_property.c waits. */
static long long fs_now(void)
{
	char p[600];
	struct stat st;
	snprintf(p, sizeof(p), "%s/.clock", root);
	FILE *f = fopen(p, "w");
	if (!f || fclose(f) != 0 || stat(p, &st) != 0)
		abort();
	return st.st_ctim.tv_sec * 1000000000LL + st.st_ctim.tv_nsec;
}

static void age(void)
{
	long long t0 = fs_now();
	while (fs_now() - t0 <= 30000000LL)
		usleep(1000);
}

/* Compose on g; the flat document as it is after, in *doc. */
static int compose(struct clawmd_group *g, char **doc)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_plan plan;
	struct clawmd_changes ch;
	struct clawmd_compose_opts opts = CLAWMD_COMPOSE_OPTS_INIT;
	char p[600];
	size_t len;
	int rc = clawmd_compose(&plan, &ch, g, &opts, &err);
	if (rc < 0)
		printf("# compose: %s\n", err.msg);
	clawmd_changes_release(&ch);
	clawmd_plan_release(&plan);
	snprintf(p, sizeof(p), "%s/groups/g/CLAUDE.md", root);
	free(*doc);
	*doc = test_slurp(p, &len);
	return rc;
}

/* The document and the handle's parse are those of cfg. */
static void check(struct clawmd_group *g, const char *doc, const char *cfg, const char *what)
{
	const char *has[2], *hasnt[3];
	wants(cfg, has, hasnt);
	bool good = doc != NULL;
	for (int i = 0; good && i < 2; i++)
		good = strstr(doc, has[i]) != NULL;
	for (int i = 0; good && i < 3; i++)
		good = strstr(doc, hasnt[i]) == NULL;
	ok(good, "%s: the document is config %s's", what, name_of(cfg));
	if (!good)
		printf("# document:\n%s\n", doc ? doc : "(none)");
	/* The handle's text and parse agree with cfg (the parse is that of
	 * the text: its MCP instructions are cfg's). */
	ok(g->config_text.len == strlen(cfg) && !memcmp(g->config_text.ptr, cfg, strlen(cfg)),
	   "%s: the handle holds config %s's text", what, name_of(cfg));
	const struct cJSON *d = g->config_doc;
	char *s = d ? cJSON_PrintUnformatted(d) : NULL;
	ok(s && strstr(s, has[1]) && !strstr(s, hasnt[1]) && !strstr(s, hasnt[2]),
	   "%s: the handle's parse is config %s's", what, name_of(cfg));
	if (s)
		cJSON_free(s);
}

/* The file's rounds: rewritten in place, same length, C (refused by
 * clawmd's reader, composed by the flat document) among them. */
static void file_rounds(struct clawmd_group *g, bool watched)
{
	const char *w = watched ? "watched" : "plain";
	const char *seq[] = {A, B, A, C, A, B, C, C, B};
	char *doc = NULL, what[160];
	const struct clawmd_group_config *cfg;
	struct clawmd_err err;
	put("groups/g/container.json", A);
	compose(g, &doc);
	age();
	compose(g, &doc); /* a no-op that records (and, watched, watches) */
	compose(g, &doc);
	snprintf(what, sizeof(what), "%s, file: first", w);
	check(g, doc, A, what);
	for (size_t i = 1; i < CLAWMD_ARRAY_SIZE(seq); i++) {
		/* The handle asked for its config before the edit: it holds the
		 * old text's parse. */
		err = (struct clawmd_err)CLAWMD_ERR_INIT;
		clawmd_group_config(&cfg, g, &err);
		put("groups/g/container.json", seq[i]);
		if (i & 1)
			age();
		if (i >= 4) /* as a host that refreshes the handle itself */
			clawmd_group_refresh(g);
		ok(compose(g, &doc) >= 0, "%s, file: round %zu composes", w, i);
		snprintf(what, sizeof(what), "%s, file: round %zu (%s, %s)", w, i,
			 i & 1 ? "out of the racy window" : "at once", i >= 4 ? "refreshed" : "not refreshed");
		check(g, doc, seq[i], what);
		/* Settled: a no-op, and still this config's document. */
		age();
		compose(g, &doc);
		compose(g, &doc);
		snprintf(what, sizeof(what), "%s, file: round %zu settled", w, i);
		check(g, doc, seq[i], what);
	}
	free(doc);
}

/* The host's rounds: each config's bytes given, A and B of one length in
 * turn, C refused by clawmd's reader but read by the flat document. */
static void given_rounds(struct clawmd_group *g, bool watched)
{
	const char *w = watched ? "watched" : "plain";
	const char *seq[] = {A, B, A, C, A, C, B, C, C, A, A};
	char *doc = NULL, what[160];
	for (size_t i = 0; i < CLAWMD_ARRAY_SIZE(seq); i++) {
		struct clawmd_err err = CLAWMD_ERR_INIT;
		ok(clawmd_group_set_config(g, seq[i], strlen(seq[i]), &err) == 0,
		   "%s, given: round %zu: config %s taken (%s)", w, i, name_of(seq[i]), err.msg);
		if (i & 1)
			age();
		compose(g, &doc);
		snprintf(what, sizeof(what), "%s, given: round %zu", w, i);
		check(g, doc, seq[i], what);
		if (i % 3 == 2) { /* settled: a no-op, the same document */
			age();
			compose(g, &doc);
			compose(g, &doc);
			snprintf(what, sizeof(what), "%s, given: round %zu settled", w, i);
			check(g, doc, seq[i], what);
		}
	}
	free(doc);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	snprintf(root, sizeof(root), "%s/clawmd-config-doc.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(root))
		abort();
	put("clawmd.json", "{\"preset\": \"nanoclaw\", \"document\": \"flat\"}\n");
	put("container/CLAUDE.md", "You are an agent.\n");
	put("container/skills/a/instructions.md", "skill A text\n");
	put("container/skills/b/instructions.md", "skill B text\n");
	put("container/agent-runner/src/mcp-tools/core.instructions.md", "module core\n");
	ok(strlen(A) == strlen(B) && strlen(B) == strlen(C), "the configs are of one length");
	{ /* C: refused by clawmd's reader, as the test means it */
		struct clawmd_group_config cfg;
		struct clawmd_err err = CLAWMD_ERR_INIT;
		ok(clawmd_config_parse(&cfg, C, strlen(C), "c.json", &err) < 0 && strstr(err.msg, "cli_scope"),
		   "config C is refused by clawmd's reader (%s)", err.msg);
	}
	for (int watched = 0; watched < 2; watched++) {
		struct clawmd_root r;
		struct clawmd_err err = CLAWMD_ERR_INIT;
		struct clawmd_group *g;
		char cmd[1000];
		snprintf(cmd, sizeof(cmd), "rm -rf '%s/groups' '%s/state' '%s/.clawmd'", root, root, root);
		if (system(cmd) != 0)
			abort();
		put("groups/g/container.json", A);
		clawmd_root_init(&r);
		if (clawmd_root_load(&r, root, &err) < 0) {
			printf("Bail out! %s\n", err.msg);
			return 1;
		}
		if (watched)
			r.pass = clawmd_pass_watch();
		if (clawmd_group_open(&g, &r, "g", &err) < 0)
			abort();
		file_rounds(g, watched);
		given_rounds(g, watched);
		clawmd_group_free(g);
		clawmd_root_release(&r);
	}
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		abort();
	return done_testing();
}
