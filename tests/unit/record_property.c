/*
 * The no-op record's property (lib/compose/record.c, lib/fs/inputs.c): for
 * random edits of any input, a no-op the record vouches for never differs
 * from a full plan.
 *
 * Each round edits one input at random (container.json, a skill, a
 * skill's imported file, the shared base, a persona file, the memory, the
 * role file, clawmd.json, a fragment, the entry, or swaps a symlink in),
 * waits out the racy window, then asks the record alone (record_only, the
 * static front's question).  When it answers "nothing to do", a full plan
 * of a fresh handle (a dry run, which never trusts a record) must find
 * nothing to do either, with the same warnings.  Then the group is
 * composed and composed again, which records, and the next round begins.
 *
 * Then the same edits through one long-lived handle, as a host that links
 * the library keeps it (a root and a group handle for the whole run,
 * without a pass and with a watched one): each round asks the handle for
 * its config, runtimes and mounts (clawmd_group_*), at random before or
 * after the edit, then composes on the same handle (at once, or once the
 * edit is out of the racy window).  Its changes must be
 * those a fresh dry plan finds, and never none where the plan finds some
 * (a no-op vouched from what the handle read before the edit).
 * clawmd.json is left alone there: a root's layout is the one it loaded.
 * A host that keeps the config itself gives it (clawmd_group_set_config):
 * the given phase hands the handle container.json's bytes at each round,
 * which the handle then knows again by those bytes alone.
 *
 * CLAWMD_SEED picks another sequence (the seed is printed); CLAWMD_ROUNDS
 * another length.
 */
#include "tap.h"
#include "testutil.h"
#include "clawmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[256];

static void path_of(char *out, size_t size, const char *rel)
{
	snprintf(out, size, "%s/%s", root, rel);
}

static void put(const char *rel, const char *text)
{
	test_put(root, rel, text);
}

/* Replace `rel` by rename, as an editor that saves to a temp does. */
static void put_renamed(const char *rel, const char *text)
{
	char tmp[300], from[600], to[600];
	snprintf(tmp, sizeof(tmp), "%s.new", rel);
	put(tmp, text);
	path_of(from, sizeof(from), tmp);
	path_of(to, sizeof(to), rel);
	if (rename(from, to) != 0)
		abort();
}

static void rm(const char *rel)
{
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s/%s'", root, rel);
	if (system(cmd) != 0)
		abort();
}

static void sh(const char *script)
{
	char cmd[1200];
	snprintf(cmd, sizeof(cmd), "cd '%s' && %s", root, script);
	int st = system(cmd);
	if (st != 0) {
		printf("# failed (%d): %s\n", st, cmd);
		fflush(stdout);
		abort();
	}
}

/* Return once everything changed so far is out of the racy window
 * (fs/stamp.h: 10 ms where times have nanoseconds), by the filesystem's
 * own clock, as tests/lib.sh's age_out: a loaded machine only makes it
 * return later.  30 ms, not 10: a compose's look begins at the coarse
 * clock, which lags the fine timestamps of a multigrain filesystem by up
 * to a tick. */
static long long fs_now(void)
{
	char p[600];
	struct stat st;
	path_of(p, sizeof(p), ".clock");
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

struct outcome {
	int rc;
	size_t changes;
	char warnings[4096];
};

/* One compose on the handle g: its outcome, warnings joined. */
static void compose_on(struct outcome *o, struct clawmd_group *g,
		       const struct clawmd_compose_opts *opts)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_plan plan;
	struct clawmd_changes ch;
	o->warnings[0] = '\0';
	o->rc = clawmd_compose(&plan, &ch, g, opts, &err);
	if (o->rc < 0)
		snprintf(o->warnings, sizeof(o->warnings), "error: %s", err.msg);
	for (size_t i = 0; o->rc >= 0 && i < plan.nwarnings; i++)
		snprintf(o->warnings + strlen(o->warnings), sizeof(o->warnings) - strlen(o->warnings),
			 "%s;", plan.warnings[i]);
	o->changes = o->rc >= 0 ? ch.n : 0;
	clawmd_changes_release(&ch);
	clawmd_plan_release(&plan);
}

/* One compose of group g, as a new process would make it: a fresh root. */
static void compose(struct outcome *o, bool record_only, bool dry_run)
{
	struct clawmd_root r;
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_compose_opts opts = {.version = CLAWMD_COMPOSE_OPTS_VERSION,
					   .record_only = record_only, .dry_run = dry_run};
	struct clawmd_group *g;
	clawmd_root_init(&r);
	if (clawmd_root_load(&r, root, &err) < 0 || clawmd_group_open(&g, &r, "g", &err) < 0) {
		o->rc = -1;
		o->changes = 0;
		snprintf(o->warnings, sizeof(o->warnings), "error: %s", err.msg);
		clawmd_root_release(&r);
		return;
	}
	compose_on(o, g, &opts);
	clawmd_group_free(g);
	clawmd_root_release(&r);
}

static const char *const configs[] = {
	"{}",
	"{\"skills\": [\"a\"]}",
	"{\"skills\": [\"b\"]}", /* the one before's length: a given config is known by its bytes */
	"{\"skills\": [\"a\", \"b\", \"nope\"]}",
	"{\"skills\": [\"b\"], \"mcpServers\": {\"m\": {\"instructions\": \"use m\"}}}",
	"{\"runtimes\": [\"claude\", \"codex\"]}",
	"{\"runtimes\": [\"codex\"], \"skills\": [\"a\"]}",
	"{\"modules\": [\"web\"]}",
	"{\"mcpServers\": {\"n\": {\"instructions\": \"@./x.md and @~/y\"}}}",
};

static const char *const layouts[] = {
	"{\"modules\": \"modules\"}",
	"{\"modules\": \"modules\", \"mode\": \"copy\"}",
	"{\"modules\": \"modules\", \"mode\": \"copy\", \"persona\": true}",
	"{\"modules\": \"modules\", \"persona\": true, \"optional_imports\": [\"CLAUDE.role.md\", \"NOTES.md\"]}",
	/* the base linked from .claude-fragments/shared.md */
	"{\"modules\": \"modules\", \"mode\": \"symlink\", \"approve_external\": true}",
	/* the flat document: a watched pass keeps its sources and listings */
	"{\"modules\": \"modules\", \"document\": \"flat\"}",
};

/* One random edit of one input; its name in *what. */
static void edit(unsigned r, const char **what)
{
	char text[128], link[600];
	struct stat st;
	snprintf(text, sizeof(text), "text %u\n", r);
	/* Copy mode makes no record while a source is a symlink: a swapped
	 * skill goes back soon, so that the rounds after it test something. */
	path_of(link, sizeof(link), "skills/a");
	if (lstat(link, &st) == 0 && S_ISLNK(st.st_mode) && r % 3 == 0) {
		*what = "a symlinked skill made a directory again";
		sh("rm skills/a && mkdir -p skills/a && echo back >skills/a/instructions.md");
		return;
	}
	switch (r % 24) {
	case 0: *what = "container.json rewritten"; put("groups/g/container.json", configs[r / 24 % CLAWMD_ARRAY_SIZE(configs)]); break;
	case 1: *what = "container.json renamed over"; put_renamed("groups/g/container.json", configs[r / 24 % CLAWMD_ARRAY_SIZE(configs)]); break;
	case 2: *what = "container.json removed"; rm("groups/g/container.json"); break;
	case 3: *what = "a skill's fragment edited"; put("skills/a/instructions.md", r & 32 ? "Skill a.\n@./docs/d.md\n" : text); break;
	case 4: *what = "a skill's fragment removed"; rm("skills/b/instructions.md"); break;
	case 5: *what = "a skill's fragment made"; put("skills/b/instructions.md", text); break;
	case 6: *what = "a skill's imported file edited"; put("skills/a/docs/d.md", text); break;
	case 7: *what = "a skill's imported file removed"; rm("skills/a/docs/d.md"); break;
	case 8: *what = "a new skill"; put("skills/c/instructions.md", text); break;
	case 9:
		if (r & 32) { /* every skill a new inode, a's text changed, the rest as they were */
			*what = "the skills directory renamed away and replaced";
			sh("mv skills skills.old && cp -a skills.old skills && rm -rf skills.old && "
			   "echo replaced >skills/a/instructions.md");
		} else {
			*what = "a skill removed";
			rm("skills/c");
		}
		break;
	case 10: *what = "the base edited"; put("container/CLAUDE.md", text); break;
	case 11: *what = "the base renamed over"; put_renamed("container/CLAUDE.md", text); break;
	case 12: *what = "a persona file written"; put(r & 32 ? "groups/g/a.prepend.md" : "groups/g/instructions.prepend.md", text); break;
	case 13: *what = "a persona file removed"; rm("groups/g/a.prepend.md"); break;
	case 14: *what = "the memory written"; put("groups/g/CLAUDE.local.md", r & 32 ? "" : text); break;
	case 15: *what = "the role file written"; put(r & 32 ? "groups/g/CLAUDE.role.md" : "groups/g/NOTES.md", text); break;
	case 16: *what = "the role file removed"; rm("groups/g/CLAUDE.role.md"); break;
	case 17: *what = "clawmd.json rewritten"; put("clawmd.json", layouts[r / 24 % CLAWMD_ARRAY_SIZE(layouts)]); break;
	case 18: /* in place, or over symlink mode's link (dangling on the host) */
		*what = "a fragment edited";
		path_of(link, sizeof(link), "groups/g/.claude-fragments/skill-a.md");
		if (lstat(link, &st) == 0 && S_ISLNK(st.st_mode))
			put_renamed("groups/g/.claude-fragments/skill-a.md", text);
		else
			put("groups/g/.claude-fragments/skill-a.md", text);
		break;
	case 19: *what = "a stray fragment"; put("groups/g/.claude-fragments/skill-zz.md", text); break;
	case 20: *what = "the entry edited"; put("groups/g/CLAUDE.md", text); break;
	case 21: *what = "a module edited"; put(r & 32 ? "modules/web.instructions.md" : "modules/cli.instructions.md", text); break;
	case 22: /* and back: copy mode records nothing while a source is a symlink */
		*what = "a skill swapped for a symlink, or back";
		sh("if [ -L skills/a ]; then rm skills/a && mkdir -p skills/a && "
		   "echo back >skills/a/instructions.md; else rm -rf skills/a && mkdir -p skills/a2/docs && "
		   "echo swapped >skills/a2/instructions.md && ln -s a2 skills/a; fi");
		break;
	default: *what = "a group file swapped for a symlink";
		rm("groups/g/CLAUDE.role.md");
		sh("ln -s ../../container/CLAUDE.md groups/g/CLAUDE.role.md");
		break;
	}
}

/* What a host does with its handle between composes: every clawmd_group_*
 * question that reads the group. */
static void ask(struct clawmd_group *g)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	const struct clawmd_group_config *cfg;
	clawmd_runtimes set;
	enum clawmd_runtime first;
	struct clawmd_bind *b = NULL;
	size_t n = 0;
	(void)clawmd_group_config(&cfg, g, &err);
	err = (struct clawmd_err)CLAWMD_ERR_INIT;
	(void)clawmd_group_runtimes(&set, &first, g, &err);
	err = (struct clawmd_err)CLAWMD_ERR_INIT;
	if (clawmd_group_binds(&b, &n, g, &err) == 0)
		clawmd_binds_free(b, n);
}

/* The host gives container.json's bytes as they are now. */
static void give(struct clawmd_group *g)
{
	char p[600], text[4096];
	struct clawmd_err err = CLAWMD_ERR_INIT;
	path_of(p, sizeof(p), "groups/g/container.json");
	FILE *f = fopen(p, "r");
	if (!f)
		abort();
	size_t n = fread(text, 1, sizeof(text), f);
	fclose(f);
	if (clawmd_group_set_config(g, text, n, &err) < 0) {
		printf("# given config refused: %s\n", err.msg);
		abort();
	}
}

/* The handle phase (see the top): `rounds` edits through one handle. */
static void handle_rounds(int rounds, bool watched, bool given, const char *layout)
{
	struct clawmd_root r;
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_group *g;
	struct outcome full, o;
	int stale = 0, noops = 0;
	const struct clawmd_compose_opts defaults = CLAWMD_COMPOSE_OPTS_INIT;
	const char *kind = given ? (watched ? "watched, given" : "unwatched, given")
				 : watched ? "watched" : "unwatched";
	put("clawmd.json", layout);
	if (given) /* an earlier phase may have removed it */
		put("groups/g/container.json", configs[3]);
	compose(&o, false, false);
	clawmd_root_init(&r);
	if (clawmd_root_load(&r, root, &err) < 0)
		abort();
	if (watched)
		r.pass = clawmd_pass_watch();
	if (clawmd_group_open(&g, &r, "g", &err) < 0)
		abort();
	for (int i = 0; i < rounds; i++) {
		const char *what;
		unsigned x = (unsigned)rand();
		if (x % 24 == 17) /* clawmd.json: see the top */
			x++;
		if (given && x % 24 == 2) /* a given config is never "no file" */
			x++;
		bool before = x & 64;
		if (before)
			ask(g);
		edit(x, &what);
		if (!before)
			ask(g);
		if (given && (x & 256)) /* two configs of one length in turn */
			put("groups/g/container.json", configs[1 + (i & 1)]);
		if (given)
			give(g);
		if (x & 128) /* else inside the racy window of the edit */
			age();
		compose(&full, false, true);
		compose_on(&o, g, &defaults);
		if (o.rc != full.rc || o.changes != full.changes || strcmp(o.warnings, full.warnings)) {
			stale++;
			ok(0, "%s handle, round %d (%s, asked %s it): %zu changes (rc %d), a fresh plan %zu (rc %d)",
			   kind, i, what, before ? "before" : "after", o.changes, o.rc, full.changes, full.rc);
			printf("#   handle: %s\n#   fresh:  %s\n", o.warnings, full.warnings);
		}
		/* Settle, so that the next round starts from a record (and, watched,
		 * from the watches a second no-op in a row sets). */
		age();
		compose_on(&o, g, &defaults);
		compose_on(&o, g, &defaults);
		noops += o.rc == 0 && o.changes == 0;
	}
	ok(stale == 0, "%s handle (%s): %d rounds, every compose as a fresh plan (%d stale)", kind, layout,
	   rounds, stale);
	ok(noops > rounds / 2, "%s handle: the handle settled to a no-op after %d of %d rounds", kind, noops,
	   rounds);
	clawmd_group_free(g);
	clawmd_root_release(&r);
}

int main(void)
{
	unsigned seed = getenv("CLAWMD_SEED") ? (unsigned)strtoul(getenv("CLAWMD_SEED"), NULL, 10) : 27;
	int rounds = getenv("CLAWMD_ROUNDS") ? atoi(getenv("CLAWMD_ROUNDS")) : 120;
	struct outcome front, full, o;
	int vouched = 0, recorded = 0;
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("# seed %u, %d rounds\n", seed, rounds);
	srand(seed);
	snprintf(root, sizeof(root), "%s/clawmd-property.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(root))
		abort();
	put("container/CLAUDE.md", "# base\n");
	put("skills/a/instructions.md", "Skill a.\n@./docs/d.md\n");
	put("skills/a/docs/d.md", "doc d\n");
	put("skills/b/instructions.md", "skill b\n");
	put("modules/web.instructions.md", "web\n");
	put("clawmd.json", layouts[0]);
	put("groups/g/container.json", configs[2]);
	compose(&o, false, false);
	age();
	compose(&o, false, false);

	for (int i = 0; i < rounds; i++) {
		const char *what;
		unsigned r = (unsigned)rand();
		edit(r, &what);
		age();
		compose(&front, true, false);
		compose(&full, false, true);
		if (front.rc == 0) {
			vouched++;
			if (full.rc != 0 || full.changes || strcmp(front.warnings, full.warnings)) {
				ok(0, "round %d (%s): a vouched no-op, but a full plan finds %zu changes (rc %d)",
				   i, what, full.changes, full.rc);
				printf("#   vouched: %s\n#   full:    %s\n", front.warnings, full.warnings);
				continue;
			}
		}
		ok(1, "round %d (%s): %s", i, what,
		   front.rc == 0 ? "vouched, and a full plan agrees" : "not vouched");
		compose(&o, false, false); /* converge */
		age();
		compose(&o, false, false); /* a no-op, which records */
		compose(&front, true, false);
		recorded += front.rc == 0;
		if (getenv("CLAWMD_DEBUG"))
			printf("# after %s: record %s (%s)\n", what, front.rc == 0 ? "stands" : "missing", o.warnings);
	}
	/* A recording is lost (no record) only where no stat can vouch: a
	 * symlinked skill in copy mode, say.  Most rounds must start from a
	 * record, or the property was not tested. */
	ok(recorded > rounds / 2, "a record stood before %d of %d edits; %d were vouched for",
	   recorded, rounds, vouched);
	for (int w = 0; w < 2; w++) {
		handle_rounds(rounds / 4, w, false, layouts[0]);
		handle_rounds(rounds / 4, w, false, layouts[2]);
		handle_rounds(rounds / 4, w, false, layouts[4]);
		handle_rounds(rounds / 4, w, false, layouts[5]);
		handle_rounds(rounds / 4, w, true, layouts[0]);
		handle_rounds(rounds / 4, w, true, layouts[5]);
	}
	rm("");
	return done_testing();
}
