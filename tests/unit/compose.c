/*
 * Unit tests for clawmd_compose()'s record_only (the static front's
 * question): it answers a no-op exactly as a compose does, and in every
 * other case returns 1 having written nothing, created nothing and waited
 * for no lock.
 */
#include "tap.h"
#include "testutil.h"
#include "clawmd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[256];

/* compose GROUP (record_only or not); the warnings, joined, in *warned. */
static int compose(const struct clawmd_root *r, bool record_only, bool dry_run,
		   size_t *changes, char *warned, size_t wlen)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_plan plan;
	struct clawmd_changes ch;
	struct clawmd_compose_opts opts = {.version = CLAWMD_COMPOSE_OPTS_VERSION,
					   .record_only = record_only, .dry_run = dry_run};
	struct clawmd_group *g;
	if (clawmd_group_open(&g, r, "g", &err) < 0)
		abort();
	int rc = clawmd_compose(&plan, &ch, g, &opts, &err);
	clawmd_group_free(g);
	if (rc < 0)
		printf("# compose: %s\n", err.msg);
	*changes = ch.n;
	if (warned) {
		warned[0] = '\0';
		for (size_t i = 0; i < plan.nwarnings; i++)
			snprintf(warned + strlen(warned), wlen - strlen(warned), "%s;", plan.warnings[i]);
	}
	clawmd_changes_release(&ch);
	clawmd_plan_release(&plan);
	return rc;
}

/* Every name under the group and the state directory with its inode, size
 * and mtime: equal listings mean nothing was written. */
static char *listing(void)
{
	char cmd[600];
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && find groups .clawmd -printf '%%p %%i %%s %%T@\\n' 2>/dev/null | sort",
		 root);
	FILE *f = popen(cmd, "r");
	static char buf[1 << 16];
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	buf[n] = '\0';
	if (f)
		pclose(f);
	return strdup(buf);
}

/* A compose records only inputs older than itself by more than the racy
 * window (lib/compose/record.c: 10 ms on filesystems with fine timestamps). */
static void age(void)
{
	usleep(100000);
}

int main(void)
{
	snprintf(root, sizeof(root), "%s/clawmd-compose.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(root))
		abort();
	test_put(root, "container/CLAUDE.md", "# base\n");
	test_put(root, "skills/a/instructions.md", "skill a\n");
	test_put(root, "groups/g/container.json", "{\"skills\": [\"a\", \"nope\"]}\n");
	struct clawmd_root r;
	struct clawmd_err err = CLAWMD_ERR_INIT;
	clawmd_root_init(&r);
	if (clawmd_root_load(&r, root, &err) < 0)
		abort();
	size_t n;
	char full[2048], front[2048];

	char *before = listing();
	is(compose(&r, true, false, &n, NULL, 0), 1, "never composed: 1");
	char *after = listing();
	is_str(after, before, "... nothing written, no lock file made");
	free(after);
	free(before);

	is(compose(&r, false, false, &n, NULL, 0), 0, "the first compose");
	ok(n > 0, "... writes the group");
	age();
	is(compose(&r, false, false, &n, NULL, 0), 0, "a no-op compose, which records");
	is(compose(&r, false, false, &n, full, sizeof(full)), 0, "a no-op from the record");
	is(compose(&r, true, false, &n, front, sizeof(front)), 0, "record_only: the no-op answered");
	is(n, 0, "... with no changes");
	is_str(front, full, "... and the warnings of a compose");
	ok(strstr(front, "nope") != NULL, "... the unknown skill's included");
	is(compose(&r, true, true, &n, NULL, 0), 1, "record_only with dry_run: 1 (no record is read)");

	/* Another compose holds the lock: 1 at once, never a wait. */
	char lockpath[400];
	snprintf(lockpath, sizeof(lockpath), "%s/.clawmd/locks/g", root);
	int fd = open(lockpath, O_RDONLY);
	ok(fd >= 0 && flock(fd, LOCK_EX) == 0, "another compose takes the lock");
	r.lay.lock_timeout = 600;
	is(compose(&r, true, false, &n, NULL, 0), 1, "record_only under a busy lock: 1, not a wait");
	close(fd);

	/* The group changed: 1, and nothing written. */
	test_put(root, "groups/g/container.json", "{\"skills\": []}\n");
	age();
	before = listing();
	is(compose(&r, true, false, &n, NULL, 0), 1, "container.json changed: 1");
	after = listing();
	is_str(after, before, "... nothing written");
	free(after);
	free(before);
	is(compose(&r, false, false, &n, NULL, 0), 0, "the compose that follows");
	ok(n > 0, "... makes the change");

	/* clawmd/group.h: a lock the caller took with clawmd_group_lock() is
	 * held until clawmd_group_free(); a compose on the same handle uses
	 * it and leaves it held (issue 28 item 8), whatever way it ends: a
	 * change, a no-op from the record, a dry run, a failure. */
	const char *cases[] = {"{\"skills\": [\"a\"]}\n", NULL, NULL, "{"};
	for (int k = 0; k < 4; k++) {
		struct clawmd_group *g;
		struct clawmd_plan plan;
		struct clawmd_changes ch;
		struct clawmd_compose_opts opts = {.version = CLAWMD_COMPOSE_OPTS_VERSION,
						   .dry_run = k == 2};
		if (cases[k])
			test_put(root, "groups/g/container.json", cases[k]);
		age();
		if (clawmd_group_open(&g, &r, "g", &err) < 0 || clawmd_group_lock(g, &err) < 0)
			abort();
		int rc = clawmd_compose(&plan, &ch, g, &opts, &err);
		ok(k == 3 ? rc < 0 : rc == 0, "compose under the caller's lock (case %d)", k);
		clawmd_changes_release(&ch);
		clawmd_plan_release(&plan);
		fd = open(lockpath, O_RDONLY);
		ok(fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK,
		   "... the caller's lock is still held after it");
		close(fd);
		clawmd_group_free(g);
		fd = open(lockpath, O_RDONLY);
		ok(fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0, "... and let go by clawmd_group_free()");
		close(fd);
	}

	clawmd_root_release(&r);
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		abort();
	return done_testing();
}
