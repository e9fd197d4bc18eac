/*
 * on-inotify - a test helper: run a command at the moment something happens
 * in a directory, so a shell test can act "while clawmd works" without
 * sleeping (no timing).
 *
 *	on-inotify READY DIR EVENT NAME CMD [ARG...]
 *
 * Watches DIR for EVENT (open, create, modify, moved_to, close_write) on the
 * entry NAME ("*": any entry, "*.tmp": any entry ending in ".tmp"), creates
 * the file READY once the watch is in place, then waits for the first such
 * event and runs CMD (its exit status is on-inotify's).  Exit 125 on a
 * setup error.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/wait.h>
#include <unistd.h>

static int matches(const char *pat, const char *name)
{
	size_t pl = strlen(pat), nl = strlen(name);
	if (!strcmp(pat, "*"))
		return 1;
	if (pat[0] == '*')
		return nl >= pl - 1 && !strcmp(name + nl - (pl - 1), pat + 1);
	return !strcmp(pat, name);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		unsigned mask;
	} events[] = {{"open", IN_OPEN},	 {"create", IN_CREATE},
		      {"modify", IN_MODIFY},	 {"moved_to", IN_MOVED_TO},
		      {"close_write", IN_CLOSE_WRITE}};
	unsigned mask = 0;
	if (argc < 6) {
		fprintf(stderr, "usage: on-inotify READY DIR EVENT NAME CMD [ARG...]\n");
		return 125;
	}
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		if (!strcmp(argv[3], events[i].name))
			mask = events[i].mask;
	int fd = inotify_init1(IN_CLOEXEC);
	if (!mask || fd < 0 || inotify_add_watch(fd, argv[2], mask) < 0) {
		perror("on-inotify");
		return 125;
	}
	int r = open(argv[1], O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (r < 0 || close(r) < 0) {
		perror(argv[1]);
		return 125;
	}
	char buf[8192] __attribute__((aligned(__alignof__(struct inotify_event))));
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n <= 0) {
			perror("on-inotify: read");
			return 125;
		}
		for (char *p = buf; p < buf + n;) {
			struct inotify_event *ev = (struct inotify_event *)p;
			p += sizeof(*ev) + ev->len;
			if (!ev->len || !matches(argv[4], ev->name))
				continue;
			close(fd);
			pid_t pid = fork();
			if (pid == 0) {
				execvp(argv[5], argv + 5);
				_exit(127);
			}
			int st;
			if (pid < 0 || waitpid(pid, &st, 0) < 0)
				return 125;
			return WIFEXITED(st) ? WEXITSTATUS(st) : 126;
		}
	}
}
