/*
 * soak - many composes against hostile agents, counting what is lost
 * (issue 42; run by `make soak`, see scripts/soak.sh and doc/security.md).
 *
 *	soak CLAWMD ROOT COMPOSES SECONDS GROUP...
 *
 * ROOT is a prepared root whose groups GROUP... were composed once.  Per
 * group, two processes play the agent (as uid 1000 when run as root, the
 * owner of the group directory):
 *  - a writer appends numbered lines to CLAUDE.local.md every 40-160 ms
 *    (O_APPEND; half the time through a descriptor it keeps open for many
 *    lines, as an editor or a long-lived tool does), and about one step in
 *    40 hand-edits CLAUDE.md (appended in place when it may, else as an
 *    editor saves: a new file renamed over it).  Every line that was
 *    written whole is logged (its number, the inode written, the time);
 *  - a hostile loop renames the agent's files away (into agent-kept/, so
 *    nothing it displaces is lost by it), empties the memory so compose
 *    carries into it, plants files under clawmd's temp names (some held
 *    open for writing by the writer), and directories, symlinks and junk
 *    where the entry belongs.
 * The driver runs `CLAWMD compose -q -C ROOT -- G` round-robin, kills 1 in
 * 50 with SIGKILL 0-5 ms after it started, and edits a host source every
 * 500, until COMPOSES or SECONDS.  Then the agents stop, every group is
 * composed once more, and every logged line is looked for in every file
 * of its group (moved aside, kept by the agent or not).
 *
 * The closing line: composes, kills, lines tracked, lines lost; exit 1 when
 * a line was lost, a compose that was not killed failed or printed a
 * sanitizer report, or `compose --check` disagrees at the end.
 * Bounds on what was moved aside and the no-op throughput are checked by
 * scripts/soak.sh around it.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define AGENT_UID 1000
#define MAX_GROUPS 16
#define MAX_LINES 2000000

static const char *clawmd, *root;
static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void nap_ms(unsigned lo, unsigned hi)
{
	unsigned ms = lo + (unsigned)(random() % (hi - lo + 1));
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

static void become_agent(void)
{
	if (geteuid() != 0)
		return;
	if (setgroups(0, NULL) < 0 || setgid(AGENT_UID) < 0 || setuid(AGENT_UID) < 0) {
		perror("soak: becoming the agent");
		_exit(2);
	}
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* One line of the writer's log: "<id> <inode> <time> <file>". */
static void logged(FILE *log, long id, int fd, const char *file)
{
	struct stat st;
	fstat(fd, &st);
	fprintf(log, "%ld %lu %.6f %s\n", id, (unsigned long)st.st_ino, now(), file);
	fflush(log);
}

/* A hand edit of CLAUDE.md: appended in place when the agent may write
 * to it, else saved as an editor does (read, write a new file, rename). */
static bool hand_edit(int gfd, const char *line, FILE *log, long id)
{
	int fd = openat(gfd, "CLAUDE.md", O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		bool ok = write_all(fd, line, strlen(line)) == 0;
		if (ok)
			logged(log, id, fd, "CLAUDE.md");
		close(fd);
		return ok;
	}
	char buf[65536];
	ssize_t n = 0;
	int in = openat(gfd, "CLAUDE.md", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (in >= 0) {
		n = read(in, buf, sizeof(buf));
		close(in);
	}
	char tmp[64];
	snprintf(tmp, sizeof(tmp), "CLAUDE.md.edit-%ld", id);
	fd = openat(gfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return false;
	bool ok = (n <= 0 || write_all(fd, buf, (size_t)n) == 0) &&
		  write_all(fd, line, strlen(line)) == 0;
	if (ok)
		logged(log, id, fd, "CLAUDE.md");
	close(fd);
	/* the line is in the file under tmp either way: tracked */
	if (ok)
		renameat(gfd, tmp, gfd, "CLAUDE.md");
	return ok;
}

static void writer(int g, const char *gdir, const char *logpath)
{
	FILE *log = fopen(logpath, "w"); /* in ROOT, before giving up root */
	become_agent();
	srandom((unsigned)(getpid() ^ (unsigned)time(NULL)));
	int gfd = open(gdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (gfd < 0 || !log) {
		perror("soak: writer");
		_exit(2);
	}
	int held = -1, held_for = 0;
	for (long n = 1; !stop; n++) {
		nap_ms(40, 160);
		long id = (long)g * 10000000L + n;
		char line[128];
		snprintf(line, sizeof(line), "soak line %ld of the agent\n", id);
		if (random() % 40 == 0) {
			hand_edit(gfd, line, log, id);
			continue;
		}
		if (held < 0 && random() % 2 == 0) { /* kept open for many lines */
			held = openat(gfd, "CLAUDE.local.md",
				      O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
			held_for = 5 + (int)(random() % 40);
		}
		int fd = held >= 0 ? held
				   : openat(gfd, "CLAUDE.local.md",
					    O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0)
			continue;
		if (write_all(fd, line, strlen(line)) == 0)
			logged(log, id, fd, "CLAUDE.local.md");
		if (fd != held)
			close(fd);
		else if (--held_for <= 0) {
			close(held);
			held = -1;
		}
	}
	fclose(log);
	_exit(0);
}

/* Move `name` into agent-kept/ (never deleting anything). */
static void keep(int gfd, const char *name, long n)
{
	char to[96];
	snprintf(to, sizeof(to), "agent-kept/%s.%ld", name, n);
	renameat(gfd, name, gfd, to);
}

static void hostile(int g, const char *gdir)
{
	become_agent();
	srandom((unsigned)(getpid() * 7919u ^ (unsigned)time(NULL) ^ (unsigned)g));
	int gfd = open(gdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (gfd < 0) {
		perror("soak: hostile");
		_exit(2);
	}
	mkdirat(gfd, "agent-kept", 0755);
	for (long n = 1; !stop; n++) {
		nap_ms(50, 400);
		char name[96];
		int fd;
		switch (random() % 9) {
		case 0: /* the memory renamed away, an empty one in its place */
		case 1:
			keep(gfd, "CLAUDE.local.md", n);
			fd = openat(gfd, "CLAUDE.local.md", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
			if (fd >= 0)
				close(fd);
			break;
		case 2: /* the memory renamed away: compose makes a new one */
			keep(gfd, "CLAUDE.local.md", n);
			break;
		case 3: /* the memory renamed onto a name of clawmd's temps */
			snprintf(name, sizeof(name), ".CLAUDE.local.md.%08lx%08lx.tmp",
				 (unsigned long)random(), (unsigned long)random());
			renameat(gfd, "CLAUDE.local.md", gfd, name);
			break;
		case 4: /* an empty file under a temp name of CLAUDE.md */
			snprintf(name, sizeof(name), ".CLAUDE.md.%08lx%08lx.tmp",
				 (unsigned long)random(), (unsigned long)random());
			fd = openat(gfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
			if (fd >= 0)
				close(fd);
			break;
		case 5: /* the entry taken away, a directory in its place */
			keep(gfd, "CLAUDE.md", n);
			mkdirat(gfd, "CLAUDE.md", 0755);
			break;
		case 6: /* a symlink in its place */
			keep(gfd, "CLAUDE.md", n);
			symlinkat("/etc/passwd", gfd, "CLAUDE.md");
			break;
		case 7: /* junk in its place */
			keep(gfd, "CLAUDE.md", n);
			fd = openat(gfd, "CLAUDE.md", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
			if (fd >= 0) {
				write_all(fd, "junk\n", 5);
				close(fd);
			}
			break;
		default: /* the entry emptied: compose's own, cut short? */
			keep(gfd, "CLAUDE.md", n);
			fd = openat(gfd, "CLAUDE.md", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
			if (fd >= 0)
				close(fd);
			break;
		}
	}
	_exit(0);
}

/* Run one compose (its stderr appended to errlog); kill it after 0-5 ms
 * when `kill_it`.  Returns its wait status. */
static int compose(const char *group, bool kill_it, int errfd, const char *check)
{
	pid_t pid = fork();
	if (pid == 0) {
		dup2(errfd, 2);
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 1);
		if (check)
			execl(clawmd, clawmd, "compose", "-q", "--check", "-C", root, "--", group, (char *)NULL);
		else
			execl(clawmd, clawmd, "compose", "-q", "-C", root, "--", group, (char *)NULL);
		_exit(127);
	}
	if (kill_it) {
		struct timespec ts = {0, (long)(random() % 5000) * 1000L};
		nanosleep(&ts, NULL);
		kill(pid, SIGKILL);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return st;
}

/* Every "soak line N of" in the files under `dir` (any depth), marked. */
static void scan(int dfd, unsigned char *seen, long base)
{
	DIR *d = fdopendir(dfd);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		struct stat st;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			int sub = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
			if (sub >= 0)
				scan(sub, seen, base);
			continue;
		}
		if (!S_ISREG(st.st_mode))
			continue;
		int fd = openat(dirfd(d), e->d_name, O_RDONLY | O_NOFOLLOW);
		if (fd < 0)
			continue;
		char *buf = malloc((size_t)st.st_size + 1);
		ssize_t len = buf ? read(fd, buf, (size_t)st.st_size) : -1;
		close(fd);
		if (len > 0) {
			buf[len] = '\0';
			for (char *p = buf; (p = memmem(p, (size_t)(buf + len - p), "soak line ", 10));) {
				p += 10;
				long id = strtol(p, &p, 10);
				if (id > base && id - base < MAX_LINES)
					seen[id - base] = 1;
			}
		}
		free(buf);
	}
	if (d)
		closedir(d);
}

int main(int argc, char **argv)
{
	if (argc < 6) {
		fprintf(stderr, "usage: soak CLAWMD ROOT COMPOSES SECONDS GROUP...\n");
		return 2;
	}
	clawmd = argv[1];
	root = argv[2];
	long composes = atol(argv[3]);
	double seconds = atof(argv[4]);
	int ngroups = argc - 5;
	char **groups = argv + 5;
	if (ngroups > MAX_GROUPS)
		ngroups = MAX_GROUPS;
	srandom((unsigned)getpid());
	signal(SIGTERM, on_term);
	signal(SIGINT, on_term);

	char errlog[4096], gdir[MAX_GROUPS][4096], logs[MAX_GROUPS][4096];
	snprintf(errlog, sizeof(errlog), "%s/soak-stderr.log", root);
	int errfd = open(errlog, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
	pid_t agents[2 * MAX_GROUPS];
	for (int g = 0; g < ngroups; g++) {
		snprintf(gdir[g], sizeof(gdir[g]), "%s/groups/%s", root, groups[g]);
		snprintf(logs[g], sizeof(logs[g]), "%s/soak-writes-%s.log", root, groups[g]);
		if ((agents[2 * g] = fork()) == 0)
			writer(g + 1, gdir[g], logs[g]);
		if ((agents[2 * g + 1] = fork()) == 0)
			hostile(g + 1, gdir[g]);
	}

	double start = now();
	long done = 0, kills = 0, failed = 0;
	for (; done < composes && now() - start < seconds && !stop; done++) {
		if (done && done % 500 == 0) { /* a host source edited */
			char p[4200];
			snprintf(p, sizeof(p), "%s/skills/alpha/instructions.md", root);
			FILE *f = fopen(p, "w");
			if (f) {
				fprintf(f, "Use alpha well (%ld).\n", done);
				fclose(f);
			}
		}
		bool k = random() % 50 == 0;
		int st = compose(groups[done % ngroups], k, errfd, NULL);
		if (k && WIFSIGNALED(st))
			kills++;
		else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			failed++;
		if (done % 5000 == 4999)
			fprintf(stderr, "soak: %ld composes, %ld killed, %.0f s\n", done + 1, kills,
				now() - start);
	}
	double took = now() - start;
	for (int i = 0; i < 2 * ngroups; i++)
		kill(agents[i], SIGTERM);
	for (int i = 0; i < 2 * ngroups; i++)
		waitpid(agents[i], NULL, 0);

	/* Settle: compose each group once more, then --check agrees.  A
	 * no-op compose never lists the group directory (a full one must not
	 * slow it), so it does not see a temp name the agent planted after
	 * the last compose that wrote; --check does.  The settling compose is
	 * made a full one: container.json touched. */
	int disagree = 0;
	for (int g = 0; g < ngroups; g++) {
		char cj[4200];
		snprintf(cj, sizeof(cj), "%.4000s/container.json", gdir[g]);
		utimensat(AT_FDCWD, cj, NULL, 0);
		int st = compose(groups[g], false, errfd, NULL);
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			failed++;
		st = compose(groups[g], false, errfd, "check");
		disagree += !WIFEXITED(st) || WEXITSTATUS(st) != 0;
	}

	long tracked = 0, lost = 0;
	unsigned char *seen = calloc(MAX_LINES, 1);
	for (int g = 0; g < ngroups; g++) {
		long base = (long)(g + 1) * 10000000L;
		memset(seen, 0, MAX_LINES);
		int dfd = open(gdir[g], O_RDONLY | O_DIRECTORY);
		if (dfd >= 0)
			scan(dfd, seen, base);
		FILE *f = fopen(logs[g], "r");
		char line[8192];
		while (f && fgets(line, sizeof(line), f)) {
			long id = atol(line);
			if (id <= base || id - base >= MAX_LINES)
				continue;
			tracked++;
			if (!seen[id - base]) {
				lost++;
				fprintf(stderr, "soak: lost in %s: %s", groups[g], line);
			}
		}
		if (f)
			fclose(f);
	}
	free(seen);
	close(errfd);

	/* Sanitizer reports in any compose's stderr. */
	int reports = 0;
	FILE *f = fopen(errlog, "r");
	char line[8192];
	while (f && fgets(line, sizeof(line), f))
		reports += strstr(line, "Sanitizer") != NULL || strstr(line, "runtime error:") != NULL;
	if (f)
		fclose(f);

	printf("soak: %ld composes in %.0f s, %ld killed, %ld failed, %d sanitizer report lines, "
	       "--check disagreeing in %d group(s); %ld lines tracked, %ld lines lost\n",
	       done, took, kills, failed, reports, disagree, tracked, lost);
	if (!tracked)
		fprintf(stderr, "soak: the agents wrote nothing: not a soak\n");
	return lost || failed || reports || disagree || !tracked ? 1 : 0;
}
