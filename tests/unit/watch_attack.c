/*
 * The watched pass under attack (issue 18 item 6): an inotify queue made to
 * overflow, the group renamed or swapped for a symlink (between composes
 * and while they run), sources and container.json replaced with the same
 * size and mtime.  Each must end in a full re-verification (the group is
 * not known from the events: the next compose looks at the disk) and the
 * compose must converge, never answer a stale no-op.
 *
 * Short by default (make check); CLAWMD_ATTACK_LONG=1 floods and swaps many
 * more times (see the README's "Testing" section).
 *
 * Whether a compose was decided from the events alone is told as in
 * watch.c: by holding the group's lock, which only the memo does not take.
 */
#include "tap.h"
#include "testutil.h"
#include "watchdir.h"
#include "clawmd.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char root[256];
static struct clawmd_layout lay;
static struct clawmd_pass *pass;
static bool longmode;

static char *path_of(const char *rel)
{
	static char p[4][1024];
	static int k;
	k = (k + 1) & 3;
	snprintf(p[k], sizeof(p[k]), "%s/%s", root, rel);
	return p[k];
}

static void put(const char *rel, const char *content)
{
	test_put(root, rel, content);
}

static void put_in_place(const char *rel, const char *content)
{
	int fd = open(path_of(rel), O_WRONLY | O_TRUNC);
	if (fd < 0 || write(fd, content, strlen(content)) < 0 || close(fd) < 0)
		abort();
}

/* Give `rel` the atime and mtime of `st` again (the attacker's touch -d). */
static void restore_times(const char *rel, const struct stat *st)
{
	struct timespec ts[2] = {st->st_atim, st->st_mtim};
	if (utimensat(AT_FDCWD, path_of(rel), ts, AT_SYMLINK_NOFOLLOW) < 0)
		abort();
}

static bool contains(const char *rel, const char *needle)
{
	size_t len;
	char *s = test_slurp(path_of(rel), &len);
	bool r = s && strstr(s, needle) != NULL;
	free(s);
	return r;
}

static int compose_in(const struct clawmd_layout *l, const char *group, struct clawmd_plan *plan,
		      struct clawmd_changes *ch, struct clawmd_err *err)
{
	struct clawmd_root r = {*l, pass};
	struct clawmd_compose_opts opts = CLAWMD_COMPOSE_OPTS_INIT;
	struct clawmd_group *g;
	int rc = clawmd_group_open(&g, &r, group, err);
	if (rc < 0)
		return rc;
	rc = clawmd_compose(plan, ch, g, &opts, err);
	clawmd_group_free(g);
	return rc;
}

static int compose(const char *group)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_plan plan;
	struct clawmd_changes ch;
	int rc = compose_in(&lay, group, &plan, &ch, &err);
	clawmd_changes_release(&ch);
	clawmd_plan_release(&plan);
	return rc;
}

/* Answered from the events alone (see the head of the file). */
static bool known(const char *group)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_root r = {lay, pass};
	struct clawmd_group *held;
	if (clawmd_group_open(&held, &r, group, &err) < 0 || clawmd_group_lock(held, &err) < 0)
		abort();
	double t = lay.lock_timeout;
	lay.lock_timeout = 0;
	struct clawmd_plan plan;
	struct clawmd_changes ch;
	int rc = compose_in(&lay, group, &plan, &ch, &err);
	bool quiet = rc == 0 && ch.n == 0 && plan.n == 0;
	clawmd_changes_release(&ch);
	clawmd_plan_release(&plan);
	lay.lock_timeout = t;
	clawmd_group_free(held);
	return quiet;
}

/* Compose until the group is known (the record is written only for inputs
 * older than the compose: give them a moment to age; bounded). */
static bool settle(const char *group)
{
	for (int i = 0; i < 100; i++) {
		if (compose(group) < 0)
			return false;
		usleep(15000);
		if (known(group))
			return true;
	}
	return false;
}

/* More events than the queue holds, in directory `rel` (watched): unique
 * names, so the kernel cannot merge them. */
static long queue_max(void)
{
	long n = 16384;
	FILE *f = fopen("/proc/sys/fs/inotify/max_queued_events", "r");
	if (f) {
		if (fscanf(f, "%ld", &n) != 1)
			n = 16384;
		fclose(f);
	}
	return n;
}

static void flood(const char *rel)
{
	long n = queue_max() / 2 + 1024;
	char p[1200];
	for (long i = 0; i < n; i++) {
		snprintf(p, sizeof(p), "%s/.flood-%ld", path_of(rel), i);
		int fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0600); /* IN_CREATE */
		if (fd < 0 || close(fd) < 0 || unlink(p) < 0)	   /* IN_DELETE */
			abort();
	}
}

static void test_overflow(void)
{
	int rounds = longmode ? 20 : 1;
	const char *where[] = {"groups/g", "skills/a", "groups/g/.claude-fragments", "container"};
	ok(settle("g"), "overflow: known to begin with");
	flood("groups/g");
	ok(!known("g"), "a flood alone: the group is verified again, not answered from the events");
	ok(settle("g"), "a flood alone: known again after");
	for (int r = 0; r < rounds; r++) {
		char json[200], src[64];
		const char *dir = where[r % 4];
		/* the flood first, then the edit: its event is lost with the queue full */
		flood(dir);
		snprintf(json, sizeof(json),
			 "{\"skills\": [\"a\"], \"mcpServers\": {\"s\": {\"command\": \"x\", "
			 "\"instructions\": \"S%03d\"}}}\n", r);
		put_in_place("groups/g/container.json", json);
		snprintf(src, sizeof(src), "A%03d\n", r);
		put_in_place("skills/a/instructions.md", src);
		ok(!known("g"), "round %d: a flood in %s, then edits: not a stale no-op", r, dir);
		char want[16];
		snprintf(want, sizeof(want), "S%03d", r);
		ok(settle("g") && contains("groups/g/.claude-fragments/mcp-s.md", want) &&
			   contains("groups/g/.claude-fragments/skill-a.md", src),
		   "round %d: the copies caught up", r);
	}
}

static void test_same_size_mtime(void)
{
	struct stat st;
	ok(settle("g"), "same size and mtime: known to begin with");
	/* a source rewritten in place, then its times put back */
	if (stat(path_of("skills/a/instructions.md"), &st) < 0)
		abort();
	char cur[64];
	size_t len;
	char *s = test_slurp(path_of("skills/a/instructions.md"), &len);
	snprintf(cur, sizeof(cur), "%s", s);
	free(s);
	cur[0] = cur[0] == 'Z' ? 'Y' : 'Z';
	put_in_place("skills/a/instructions.md", cur);
	restore_times("skills/a/instructions.md", &st);
	ok(!known("g"), "a source edited in place, same size and mtime: seen");
	ok(settle("g") && contains("groups/g/.claude-fragments/skill-a.md", cur),
	   "a source edited in place, same size and mtime: the copy caught up");
	/* a source replaced by rename with the same size and mtime */
	if (stat(path_of("skills/a/instructions.md"), &st) < 0)
		abort();
	cur[0] = cur[0] == 'Z' ? 'Y' : 'Z';
	put("skills/a/.new", cur);
	restore_times("skills/a/.new", &st);
	if (rename(path_of("skills/a/.new"), path_of("skills/a/instructions.md")) < 0)
		abort();
	ok(!known("g"), "a source renamed over, same size and mtime: seen");
	ok(settle("g") && contains("groups/g/.claude-fragments/skill-a.md", cur),
	   "a source renamed over, same size and mtime: the copy caught up");
	/* the group's container.json, same size and mtime */
	if (stat(path_of("groups/g/container.json"), &st) < 0)
		abort();
	/* {"skills": ["a"]} and {"skills": ["b"]}: the same size */
	put_in_place("groups/g/container.json", "{\"skills\": [\"b\"]}\n");
	restore_times("groups/g/container.json", &st);
	ok(!known("g"), "container.json edited, same size and mtime: seen");
	ok(settle("g") && contains("groups/g/.claude-fragments/skill-b.md", "B") &&
		   access(path_of("groups/g/.claude-fragments/skill-a.md"), F_OK) < 0,
	   "container.json edited, same size and mtime: converged");
	put("groups/g/container.json", "{\"skills\": [\"a\"]}\n");
	ok(settle("g"), "back to skill a");
}

static volatile sig_atomic_t stop_swapping;
static void on_stop(int sig)
{
	(void)sig;
	stop_swapping = 1;
}

/* The group directory renamed, swapped for a symlink, or for another
 * directory with a container.json of the same size and mtime. */
static void test_group_swaps(void)
{
	struct stat st;
	ok(settle("g"), "swaps: known to begin with");
	/* swapped for a symlink to a directory outside the groups */
	put("outside/container.json", "{\"skills\": [\"b\"]}\n");
	if (rename(path_of("groups/g"), path_of("groups/g.real")) < 0 ||
	    symlink(path_of("outside"), path_of("groups/g")) < 0)
		abort();
	ok(!known("g"), "the group swapped for a symlink: not answered from the events");
	ok(compose("g") < 0, "the group swapped for a symlink: compose refuses it");
	ok(access(path_of("outside/CLAUDE.md"), F_OK) < 0 &&
		   access(path_of("outside/.claude-fragments"), F_OK) < 0,
	   "the group swapped for a symlink: nothing written through it");
	if (unlink(path_of("groups/g")) < 0 || rename(path_of("groups/g.real"), path_of("groups/g")) < 0)
		abort();
	ok(settle("g"), "the group back: known again");
	/* renamed away, and another directory put in its place whose
	 * container.json has the same size and mtime as the old one */
	if (stat(path_of("groups/g/container.json"), &st) < 0)
		abort();
	if (rename(path_of("groups/g"), path_of("groups/g.old")) < 0)
		abort();
	put("groups/g/container.json", "{\"skills\": [\"b\"]}\n");
	restore_times("groups/g/container.json", &st);
	ok(!known("g"), "the group renamed and replaced (same size, same mtime): seen");
	ok(settle("g") && contains("groups/g/.claude-fragments/skill-b.md", "B") &&
		   access(path_of("groups/g/.claude-fragments/skill-a.md"), F_OK) < 0,
	   "the group renamed and replaced: converged on the new one");
	char cmd[800];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path_of("groups/g.old"));
	if (system(cmd) != 0)
		abort();
	put("groups/g/container.json", "{\"skills\": [\"a\"]}\n");
	ok(settle("g"), "swaps: known again");

	/* swaps while composes run: a child swaps the group for a symlink to
	 * the outside and back as fast as it can, then leaves a different
	 * group in place; every compose meanwhile succeeds or refuses, and the
	 * last state is composed, not answered from a stale memo */
	int composes = longmode ? 3000 : 100;
	int ready[2];
	if (pipe(ready) < 0)
		abort();
	pid_t child = fork();
	if (child < 0)
		abort();
	if (child == 0) {
		struct sigaction sa = {.sa_handler = on_stop};
		sigaction(SIGUSR1, &sa, NULL);
		close(ready[0]);
		long i;
		for (i = 0; !stop_swapping; i++) {
			if (rename(path_of("groups/g"), path_of("groups/g.x")) < 0 ||
			    symlink(path_of("outside"), path_of("groups/g")) < 0 ||
			    rename(path_of("groups/g"), path_of("groups/g.l")) < 0 ||
			    rename(path_of("groups/g.x"), path_of("groups/g")) < 0 ||
			    unlink(path_of("groups/g.l")) < 0)
				_exit(1);
			if (i == 0 && (write(ready[1], "x", 1) != 1 || close(ready[1]) < 0))
				_exit(1);
		}
		_exit(0);
	}
	close(ready[1]);
	char c;
	if (read(ready[0], &c, 1) != 1) /* the swapping has begun */
		abort();
	close(ready[0]);
	int bad = 0, refused = 0;
	for (int i = 0; i < composes; i++) {
		struct clawmd_err err = CLAWMD_ERR_INIT;
		struct clawmd_plan plan;
		struct clawmd_changes ch;
		int rc = compose_in(&lay, "g", &plan, &ch, &err);
		if (rc < 0 && rc != CLAWMD_EFS && rc != CLAWMD_EINPUT) {
			bad++;
			printf("# compose %d: %d %s\n", i, rc, err.msg);
		}
		refused += rc < 0;
		clawmd_changes_release(&ch);
		clawmd_plan_release(&plan);
	}
	int wst;
	kill(child, SIGUSR1);
	ok(waitpid(child, &wst, 0) == child && WIFEXITED(wst) && WEXITSTATUS(wst) == 0,
	   "the swapper swapped until the composes were done");
	ok(bad == 0, "%d composes during the swaps: each succeeded or refused cleanly (%d refused)",
	   composes, refused);
	ok(access(path_of("outside/CLAUDE.md"), F_OK) < 0 &&
		   access(path_of("outside/.claude-fragments"), F_OK) < 0 &&
		   access(path_of("outside/.claude-shared.md"), F_OK) < 0,
	   "nothing was written outside through the swapped-in symlink");
	put_in_place("groups/g/container.json", "{\"skills\": [\"b\"]}\n");
	ok(!known("g"), "after the swaps, an edit: not a stale no-op");
	ok(settle("g") && contains("groups/g/.claude-fragments/skill-b.md", "B") &&
		   access(path_of("groups/g/.claude-fragments/skill-a.md"), F_OK) < 0,
	   "after the swaps: converged");
}

/*
 * Mid-pass: a child watches directory `dir` with inotify and, when the
 * compose opens `name` in it (IN_OPEN), runs `action` at once, while the
 * compose is still running; then it tells the parent.  No timing: the
 * event is the moment.  arm() returns when the watch is in place.
 */
struct armed {
	pid_t pid;
	int done;
};

static struct armed arm(const char *dir, const char *name, void (*action)(void))
{
	int p[2];
	if (pipe(p) < 0)
		abort();
	pid_t pid = fork();
	if (pid < 0)
		abort();
	if (pid == 0) {
		close(p[0]);
		int fd = inotify_init1(IN_CLOEXEC);
		if (fd < 0 || inotify_add_watch(fd, path_of(dir), IN_OPEN) < 0 ||
		    write(p[1], "r", 1) != 1)
			_exit(1);
		char buf[8192] __attribute__((aligned(__alignof__(struct inotify_event))));
		for (;;) {
			ssize_t n = read(fd, buf, sizeof(buf));
			if (n <= 0)
				_exit(1);
			for (char *q = buf; q < buf + n;) {
				struct inotify_event *ev = (struct inotify_event *)q;
				if (ev->len && !strcmp(ev->name, name)) {
					action();
					_exit(write(p[1], "d", 1) == 1 ? 0 : 1);
				}
				q += sizeof(*ev) + ev->len;
			}
		}
	}
	close(p[1]);
	char c;
	if (read(p[0], &c, 1) != 1 || c != 'r')
		abort();
	return (struct armed){pid, p[0]};
}

/* The action ran (within a minute: a bound, not a timing). */
static bool fired(struct armed a)
{
	struct pollfd pf = {a.done, POLLIN, 0};
	char c = 0;
	bool r = poll(&pf, 1, 60000) == 1 && read(a.done, &c, 1) == 1 && c == 'd';
	if (!r)
		kill(a.pid, SIGKILL);
	int st;
	waitpid(a.pid, &st, 0);
	close(a.done);
	return r && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static void swap_group_for_link(void)
{
	if (rename(path_of("groups/g"), path_of("groups/g.mid")) < 0 ||
	    symlink(path_of("outside"), path_of("groups/g")) < 0)
		_exit(1);
}

static char midsrc[64];
static void rewrite_source_same(void)
{
	struct stat st;
	if (stat(path_of("skills/a/instructions.md"), &st) < 0)
		_exit(1);
	put_in_place("skills/a/instructions.md", midsrc);
	restore_times("skills/a/instructions.md", &st);
}

static void test_mid_pass(void)
{
	ok(settle("g"), "mid-pass: known to begin with");
	/* the group swapped for a symlink while compose reads container.json */
	put_in_place("groups/g/container.json", "{\"skills\": [\"b\"]}\n");
	struct armed a = arm("groups/g", "container.json", swap_group_for_link);
	int rc = compose("g");
	ok(fired(a), "the group was swapped for a symlink mid-compose (compose: %d)", rc);
	ok(!known("g"), "after the mid-pass swap: not answered from the events");
	ok(compose("g") < 0, "after the mid-pass swap: the symlinked group is refused");
	ok(access(path_of("outside/CLAUDE.md"), F_OK) < 0 &&
		   access(path_of("outside/.claude-fragments"), F_OK) < 0,
	   "after the mid-pass swap: nothing written through the symlink");
	if (unlink(path_of("groups/g")) < 0 || rename(path_of("groups/g.mid"), path_of("groups/g")) < 0)
		abort();
	ok(settle("g") && contains("groups/g/.claude-fragments/skill-b.md", "B"),
	   "the group back after the mid-pass swap: converged");
	put_in_place("groups/g/container.json", "{\"skills\": [\"a\"]}\n");
	ok(settle("g"), "mid-pass: known again");

	/* a source rewritten with the same size and mtime while compose copies it */
	size_t len;
	char *s = test_slurp(path_of("skills/a/instructions.md"), &len);
	snprintf(midsrc, sizeof(midsrc), "%s", s);
	free(s);
	/* The same text again, a new inode: the bytes the watched pass kept
	 * of the source no longer vouched for, so compose opens it. */
	put_in_place("skills/a/instructions.md", midsrc);
	midsrc[0] = midsrc[0] == 'M' ? 'N' : 'M';
	put_in_place("groups/g/container.json", "{\"skills\": [\"a\"], \"mcpServers\": {}}\n");
	a = arm("skills/a", "instructions.md", rewrite_source_same);
	rc = compose("g");
	ok(fired(a), "a source was rewritten (same size, same mtime) mid-compose (compose: %d)", rc);
	ok(settle("g") && contains("groups/g/.claude-fragments/skill-a.md", midsrc),
	   "after the mid-pass rewrite: the copy caught up, not a stale no-op");
	put_in_place("groups/g/container.json", "{\"skills\": [\"a\"]}\n");
	ok(settle("g"), "mid-pass: known at the end");
}

int main(void)
{
	const char *l = getenv("CLAWMD_ATTACK_LONG");
	longmode = l && *l && strcmp(l, "0");
	/* A trusted filesystem, whatever TMPDIR and /tmp are (tests/watchdir.h). */
	watchdir_trusted(root, sizeof(root), "clawmd-watch-attack");
	put("clawmd.json", "{\"mode\": \"copy\"}\n");
	put("container/CLAUDE.md", "base\n");
	put("skills/a/instructions.md", "A\n");
	put("skills/b/instructions.md", "B\n");
	put("groups/g/container.json", "{\"skills\": [\"a\"]}\n");
	struct clawmd_err err = CLAWMD_ERR_INIT;
	clawmd_layout_init(&lay);
	if (clawmd_layout_load(&lay, root, &err) < 0) {
		printf("# %s\n", err.msg);
		abort();
	}
	pass = clawmd_pass_watch();
	printf("# %s mode\n", longmode ? "long" : "short");
	test_overflow();
	test_same_size_mtime();
	test_group_swaps();
	test_mid_pass();
	clawmd_pass_free(pass);
	clawmd_layout_release(&lay);
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		abort();
	return done_testing();
}
