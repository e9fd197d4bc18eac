/*
 * spawn.c - time whole processes, interleaved: run command A, then B, then
 * A again, ... N times each, and print the median wall time of each and the
 * ratio B/A.  Interleaving keeps a machine whose load drifts from biasing
 * one side; the median ignores the runs a busy neighbour stretched.
 *
 *	spawn N -- A... -- B...
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double run(char **argv, posix_spawn_file_actions_t *fa)
{
	struct timespec a, b;
	pid_t pid;
	int st;
	clock_gettime(CLOCK_MONOTONIC, &a);
	if (posix_spawn(&pid, argv[0], fa, NULL, argv, environ) != 0) {
		perror(argv[0]);
		exit(2);
	}
	waitpid(pid, &st, 0);
	clock_gettime(CLOCK_MONOTONIC, &b);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		fprintf(stderr, "spawn: %s failed\n", argv[0]);
		exit(2);
	}
	return (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
}

static int cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

int main(int argc, char **argv)
{
	if (argc < 5 || strcmp(argv[2], "--")) {
		fprintf(stderr, "usage: spawn N -- A... -- B...\n");
		return 2;
	}
	int n = atoi(argv[1]), split = 3;
	while (split < argc && strcmp(argv[split], "--"))
		split++;
	if (n < 1 || split >= argc - 1)
		return 2;
	argv[split] = NULL;
	char **a = argv + 3, **b = argv + split + 1;
	double *ta = calloc((size_t)n, sizeof(double)), *tb = calloc((size_t)n, sizeof(double));
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	for (int i = 0; i < 20; i++) /* warm the page cache */
		run(a, &fa), run(b, &fa);
	for (int i = 0; i < n; i++) {
		ta[i] = run(a, &fa);
		tb[i] = run(b, &fa);
	}
	qsort(ta, (size_t)n, sizeof(double), cmp);
	qsort(tb, (size_t)n, sizeof(double), cmp);
	printf("%.6f %.6f %.3f\n", ta[n / 2], tb[n / 2], tb[n / 2] / ta[n / 2]);
	return 0;
}
