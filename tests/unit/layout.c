/*
 * Unit tests for the one table of layout keys (lib/layout/layout.c): every
 * key is set through it, its unknown-key suggestion reads it, and the
 * layout's digest (what the no-op record is trusted under) changes with
 * every key the plan depends on and with no other.
 */
#include "tap.h"
#include "testutil.h"
#include "clawmd.h"

#include <stdlib.h>
#include <unistd.h>

static char root[256];

static void load(struct clawmd_layout *lay)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	clawmd_layout_init(lay);
	if (clawmd_layout_load(lay, root, &err) < 0) {
		printf("# load: %s\n", err.msg);
		abort();
	}
}

/* The digest after setting `key` to `value` on the default layout; 0 when
 * the setter refused it. */
static uint64_t digest_with(const char *key, const char *value)
{
	struct clawmd_layout lay;
	struct clawmd_err err = CLAWMD_ERR_INIT;
	load(&lay);
	uint64_t d = clawmd_layout_set(&lay, key, value, &err) < 0 ? 0 : clawmd_layout_digest(&lay);
	clawmd_layout_release(&lay);
	return d;
}

static void test_digest(void)
{
	struct clawmd_layout a, b;
	load(&a);
	load(&b);
	uint64_t plain = clawmd_layout_digest(&a);
	is(plain, clawmd_layout_digest(&b), "two loads of one layout: one digest");
	clawmd_layout_release(&a);
	clawmd_layout_release(&b);

	/* Every key the plan depends on, each to a value other than its
	 * default. */
	static const char *const plan_keys[][2] = {
		{"base", "other/CLAUDE.md"},	  {"skills", "other-skills"},
		{"groups", "other-groups"},	  {"modules", "modules"},
		{"import_local", "true"},
		{"claude_version", "2.0.0"},	  {"approve_external", "true"},
		{"setting_sources", "project"},	  {"optional_imports", "NOTES.md"},
		{"persona", "true"},		  {"runtimes", "claude,codex"},
		{"container.base", "/x/CLAUDE.md"}, {"container.skills", "/x/skills"},
		{"container.modules", "/x/modules"}, {"container.group", "/x/group"},
	};
	for (size_t i = 0; i < CLAWMD_ARRAY_SIZE(plan_keys); i++) {
		uint64_t d = digest_with(plan_keys[i][0], plan_keys[i][1]);
		ok(d && d != plain, "%s changes the digest", plan_keys[i][0]);
	}
	ok(digest_with("mode", "copy") != digest_with("mode", "symlink"), "mode changes it");
	/* And those it does not. */
	static const char *const other_keys[][2] = {
		{"state", "other-state"}, {"lock_timeout", "3"}, {"token_budget", "1000"}};
	for (size_t i = 0; i < CLAWMD_ARRAY_SIZE(other_keys); i++)
		is(digest_with(other_keys[i][0], other_keys[i][1]), plain, "%s leaves it",
		   other_keys[i][0]);
	/* The preset sets keys of the table: its digest is theirs. */
	ok(digest_with("preset", "nanoclaw") != plain, "the nanoclaw preset changes it");
	/* "" turns modules off again: the default's digest. */
	is(digest_with("modules", ""), plain, "modules \"\": the default again");

	/* The digest is remembered (a watched no-op asks at every call):
	 * a key set, a provider's field set, a load, each after it was
	 * asked, is a digest anew. */
	struct clawmd_err err = CLAWMD_ERR_INIT;
	load(&a);
	is(clawmd_layout_digest(&a), plain, "asked: the default's");
	is(clawmd_layout_digest(&a), plain, "asked again: the same");
	ok(clawmd_layout_set(&a, "persona", "true", &err) == 0 && clawmd_layout_digest(&a) != plain &&
		   clawmd_layout_digest(&a) == digest_with("persona", "true"),
	   "a key set after it was asked: the new layout's digest");
	uint64_t before = clawmd_layout_digest(&a);
	ok(clawmd_layout_set(&a, "providers.extra.cap", "1234", &err) == 0 &&
		   clawmd_layout_digest(&a) != before,
	   "a provider's field set after it was asked: another digest");
	clawmd_layout_release(&a);
	load(&a);
	is(clawmd_layout_digest(&a), plain, "released and loaded again: the default's");
	clawmd_layout_release(&a);
}

static void test_set(void)
{
	struct clawmd_layout lay;
	struct clawmd_err err = CLAWMD_ERR_INIT;
	load(&lay);
	is(clawmd_layout_set(&lay, "colour", "blue", &err), CLAWMD_EUSAGE, "an unknown key: EUSAGE");
	is_str(err.msg, "unknown layout key 'colour'", "... named");
	err = (struct clawmd_err)CLAWMD_ERR_INIT;
	is(clawmd_layout_set(&lay, "mounts", "x", &err), CLAWMD_EUSAGE,
	   "a key of clawmd.json read apart (mounts) is no flag");
	err = (struct clawmd_err)CLAWMD_ERR_INIT;
	is(clawmd_layout_set(&lay, "container.base", "relative", &err), CLAWMD_EUSAGE,
	   "a container path must be absolute");
	is_str(err.msg, "container.base: expected an absolute path, not 'relative'", "... and says so");
	err = (struct clawmd_err)CLAWMD_ERR_INIT;
	is(clawmd_layout_set(&lay, "mode", "hard", &err), CLAWMD_EUSAGE, "a bad mode");
	is_str(err.msg, "mode: expected 'symlink' or 'copy', not 'hard'", "... named");
	err = (struct clawmd_err)CLAWMD_ERR_INIT;
	is(clawmd_layout_set(&lay, "persona", "maybe", &err), CLAWMD_EUSAGE, "a bad bool");
	is_str(err.msg, "persona: expected true or false, not 'maybe'", "... named");
	err = (struct clawmd_err)CLAWMD_ERR_INIT;
	is(clawmd_layout_set(&lay, "runtimes", "clade", &err), CLAWMD_EUSAGE, "an unknown runtime");
	ok(strstr(err.msg, "did you mean 'claude'") != NULL, "... with the nearest: %s", err.msg);
	err = (struct clawmd_err)CLAWMD_ERR_INIT;
	is(clawmd_layout_set(&lay, "lock_timeout", "2.5", &err), 0, "a number");
	ok(lay.lock_timeout == 2.5, "... set");
	is(clawmd_layout_set(&lay, "skills", "sk", &err), 0, "a host path");
	ok(!strcmp(lay.skills + strlen(lay.skills) - 3, "/sk") && lay.skills[0] == '/',
	   "... made absolute from ROOT: %s", lay.skills);
	clawmd_layout_release(&lay);
}

static void test_unknown(void)
{
	struct clawmd_layout lay;
	test_put(root, "clawmd.json", "{\"persnoa\": true, \"mode\": \"copy\"}\n");
	load(&lay);
	is(lay.nunknown_keys, 1, "an unknown key of clawmd.json is listed");
	char *msg = lay.nunknown_keys ? clawmd_layout_unknown_message(&lay, 0) : NULL;
	ok(msg && strstr(msg, "unknown key 'persnoa' (did you mean 'persona'?)"),
	   "... with the nearest key of the table: %s", msg ? msg : "(none)");
	free(msg);
	is(lay.mode, CLAWMD_MODE_COPY, "the known keys beside it still apply");
	clawmd_layout_release(&lay);
	unlink(root);
}

int main(void)
{
	snprintf(root, sizeof(root), "%s/clawmd-layout.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(root))
		abort();
	test_put(root, "container/CLAUDE.md", "# base\n");
	test_put(root, "clawmd.json", "{}\n");
	test_digest();
	test_set();
	test_unknown();
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		abort();
	return done_testing();
}
