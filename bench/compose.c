/*
 * compose.c - a no-op compose through the library, in-process and warm:
 * what a host that links libclawmd pays per spawn.  Loads the layout once,
 * composes GROUP once (and until the record of a verified no-op exists),
 * then times N calls of clawmd_compose() and prints the median and the
 * 90th percentile in microseconds.  With "watch", every call gets the same
 * watched pass (clawmd_pass_watch()), as a long-lived host would pass it.
 *
 *	compose ROOT GROUP N [copy|symlink [watch]]
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clawmd.h"

static int cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* One compose as a host makes it: open the group's handle, compose, free. */
static int once(const struct clawmd_root *root, const char *group)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_plan plan;
	struct clawmd_changes ch;
	struct clawmd_compose_opts opts = CLAWMD_COMPOSE_OPTS_INIT;
	struct clawmd_group *g;
	if (clawmd_group_open(&g, root, group, &err) < 0) {
		fprintf(stderr, "bench: %s\n", err.msg);
		return -1;
	}
	int rc = clawmd_compose(&plan, &ch, g, &opts, &err);
	clawmd_group_free(g);
	if (rc < 0)
		fprintf(stderr, "bench: %s\n", err.msg);
	clawmd_changes_release(&ch);
	clawmd_plan_release(&plan);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: compose ROOT GROUP N [copy|symlink [watch]]\n");
		return 2;
	}
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_root root;
	int n = atoi(argv[3]);
	clawmd_root_init(&root);
	if (clawmd_root_load(&root, argv[1], &err) < 0 ||
	    clawmd_layout_set(&root.lay, "modules", "modules", &err) < 0 ||
	    (argc > 4 && clawmd_layout_set(&root.lay, "mode", argv[4], &err) < 0)) {
		fprintf(stderr, "bench: %s\n", err.msg);
		return 2;
	}
	if (argc > 5 && !strcmp(argv[5], "watch"))
		root.pass = clawmd_pass_watch();
	/* Settle: the record is written by a no-op whose inputs are older
	 * than its start, so give the first compose's writes time to age. */
	for (int i = 0; i < 20; i++) {
		if (once(&root, argv[2]) < 0)
			return 2;
		usleep(20000);
	}
	double *t = calloc((size_t)n, sizeof(double));
	for (int i = 0; i < n; i++) {
		struct timespec a, b;
		clock_gettime(CLOCK_MONOTONIC, &a);
		if (once(&root, argv[2]) < 0)
			return 2;
		clock_gettime(CLOCK_MONOTONIC, &b);
		t[i] = (double)(b.tv_sec - a.tv_sec) * 1e6 + (double)(b.tv_nsec - a.tv_nsec) / 1e3;
	}
	qsort(t, (size_t)n, sizeof(double), cmp);
	printf("%.1f %.1f\n", t[n / 2], t[n * 9 / 10]);
	free(t);
	clawmd_root_release(&root);
	return 0;
}
