/*
 * floor.c - what a no-op's system calls cost by themselves: replays the
 * calls of one traced no-op compose (strace output, as make bench takes
 * it from bench/compose) with nothing between them, N times, and prints
 * the median and the 90th percentile in microseconds.  The library's
 * no-op beside it (scripts/bench.sh, part 2) shows how much of that no-op
 * is clawmd's own work and how much the kernel's; on a machine where one
 * stat costs 0.35 us, a group whose no-op must look at 127 files cannot
 * answer in less than its floor.
 *
 *	floor TRACE N
 *
 * TRACE holds the calls of one compose, one per line as strace prints
 * them: openat, newfstatat, flock, pread64 and close are replayed (the fds
 * the trace names mapped to the ones this process gets); others are
 * skipped.
 */

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum op_kind { OP_OPEN, OP_STAT, OP_FLOCK, OP_PREAD, OP_CLOSE };

struct op {
	enum op_kind kind;
	int dir, fd, flags; /* fds as the trace numbers them; AT_FDCWD */
	size_t len;
	off_t at; /* pread64's offset: the no-op record lies after the flat region */
	char *path;
};

#define MAXFD 256

static int fd_arg(const char *s)
{
	if (!strncmp(s, "AT_FDCWD", 8))
		return AT_FDCWD;
	int fd = atoi(s);
	return fd >= 0 && fd < MAXFD ? fd : -1;
}

/* The flags strace spells out, as numbers. */
static int open_flags(const char *s)
{
	static const struct {
		const char *name;
		int flag;
	} known[] = {{"O_RDONLY", O_RDONLY},	   {"O_WRONLY", O_WRONLY},   {"O_RDWR", O_RDWR},
		     {"O_NOFOLLOW", O_NOFOLLOW},   {"O_CLOEXEC", O_CLOEXEC}, {"O_DIRECTORY", O_DIRECTORY},
		     {"O_NONBLOCK", O_NONBLOCK},   {"O_PATH", O_PATH},	      {"AT_SYMLINK_NOFOLLOW", AT_SYMLINK_NOFOLLOW},
		     {"AT_EMPTY_PATH", AT_EMPTY_PATH}};
	int flags = 0;
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		const char *at = strstr(s, known[i].name);
		size_t n = strlen(known[i].name);
		if (at && (at[n] == '|' || at[n] == ')' || at[n] == ',' || at[n] == '\0' || at[n] == '\n'))
			flags |= known[i].flag;
	}
	return flags;
}

/* The quoted path of a line: between its first two quotes. */
static char *quoted(const char *line)
{
	const char *a = strchr(line, '"'), *b = a ? strchr(a + 1, '"') : NULL;
	return b ? strndup(a + 1, (size_t)(b - a - 1)) : NULL;
}

static int parse(struct op *o, const char *line)
{
	const char *paren = strchr(line, '('), *eq = strrchr(line, '=');
	if (!paren || !eq)
		return -1;
	memset(o, 0, sizeof(*o));
	o->dir = fd_arg(paren + 1);
	if (!strncmp(line, "openat(", 7)) {
		o->kind = OP_OPEN;
		o->fd = atoi(eq + 1);
		o->flags = open_flags(strchr(line, '"') ? strchr(strchr(line, '"') + 1, '"') : line);
		o->path = quoted(line);
		if (o->fd >= MAXFD)
			return -1;
	} else if (!strncmp(line, "newfstatat(", 11)) {
		o->kind = OP_STAT;
		o->flags = open_flags(strrchr(line, ','));
		o->path = quoted(line);
	} else if (!strncmp(line, "flock(", 6)) {
		o->kind = OP_FLOCK;
	} else if (!strncmp(line, "pread64(", 8)) {
		const char *comma = strrchr(line, ',');
		o->kind = OP_PREAD;
		o->at = (off_t)strtoll(comma + 1, NULL, 10);
		/* the length asked: the argument before the offset */
		while (comma > line && comma[-1] != ',')
			comma--;
		o->len = strtoul(comma, NULL, 10);
	} else if (!strncmp(line, "close(", 6)) {
		o->kind = OP_CLOSE;
	} else {
		return -1;
	}
	return o->dir == -1 || ((o->kind == OP_OPEN || o->kind == OP_STAT) && !o->path) ? -1 : 0;
}

static int cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: floor TRACE N\n");
		return 2;
	}
	FILE *fp = fopen(argv[1], "r");
	if (!fp) {
		perror(argv[1]);
		return 2;
	}
	struct op *ops = NULL;
	size_t n = 0, cap = 0, bufmax = 1;
	char line[8192];
	while (fgets(line, sizeof(line), fp)) {
		struct op o;
		if (parse(&o, line) < 0)
			continue;
		if (n == cap && !(ops = realloc(ops, (cap = cap ? 2 * cap : 256) * sizeof(*ops))))
			return 2;
		ops[n++] = o;
		if (o.len > bufmax)
			bufmax = o.len;
	}
	fclose(fp);
	int runs = atoi(argv[2]), map[MAXFD];
	char *buf = malloc(bufmax);
	double *t = calloc((size_t)runs, sizeof(double));
	struct stat st;
	if (!n || runs < 1 || !buf || !t) {
		fprintf(stderr, "floor: nothing to replay in %s\n", argv[1]);
		return 2;
	}
	for (int r = 0; r < runs; r++) {
		struct timespec a, b;
		for (int k = 0; k < MAXFD; k++)
			map[k] = -1;
		clock_gettime(CLOCK_MONOTONIC, &a);
		for (size_t i = 0; i < n; i++) {
			const struct op *o = &ops[i];
			int dir = o->dir == AT_FDCWD ? AT_FDCWD : map[o->dir];
			switch (o->kind) {
			case OP_OPEN: {
				int fd = openat(dir, o->path, o->flags);
				if (o->fd >= 0)
					map[o->fd] = fd;
				else if (fd >= 0)
					close(fd);
				break;
			}
			case OP_STAT:
				(void)fstatat(dir, o->path, &st, o->flags);
				break;
			case OP_FLOCK:
				(void)flock(dir, LOCK_EX | LOCK_NB);
				break;
			case OP_PREAD:
				(void)!pread(dir, buf, o->len, o->at);
				break;
			case OP_CLOSE:
				if (dir >= 0)
					close(dir);
				map[o->dir] = -1;
				break;
			}
		}
		clock_gettime(CLOCK_MONOTONIC, &b);
		t[r] = (double)(b.tv_sec - a.tv_sec) * 1e6 + (double)(b.tv_nsec - a.tv_nsec) / 1e3;
	}
	qsort(t, (size_t)runs, sizeof(double), cmp);
	printf("%.1f %.1f %zu\n", t[runs / 2], t[runs * 9 / 10], n);
	return 0;
}
