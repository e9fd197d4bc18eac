/*
 * handle-compose - a test helper: what a host linked with libclawmd does
 * with one group handle, for the shell tests.
 *
 *	handle-compose ROOT GROUP CMD [ARG...]
 *
 * Opens GROUP of ROOT, asks the handle for its runtimes (which reads
 * container.json), runs CMD (the agent's edit, say), then composes GROUP on
 * the same handle and prints "changes N".  Exit 0, 1 when the compose
 * failed (its message on stderr), 125 on a setup error.
 */
#include "clawmd.h"

#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct clawmd_root root;
	struct clawmd_group *g;
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_plan plan;
	struct clawmd_changes ch;
	struct clawmd_compose_opts opts = CLAWMD_COMPOSE_OPTS_INIT;
	clawmd_runtimes set;
	enum clawmd_runtime first;
	if (argc < 4) {
		fprintf(stderr, "usage: handle-compose ROOT GROUP CMD [ARG...]\n");
		return 125;
	}
	clawmd_root_init(&root);
	if (clawmd_root_load(&root, argv[1], &err) < 0 || clawmd_group_open(&g, &root, argv[2], &err) < 0 ||
	    clawmd_group_runtimes(&set, &first, g, &err) < 0) {
		fprintf(stderr, "handle-compose: %s\n", err.msg);
		return 125;
	}
	pid_t pid = fork();
	if (pid == 0) {
		execvp(argv[3], argv + 3);
		_exit(127);
	}
	int status;
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "handle-compose: %s failed\n", argv[3]);
		return 125;
	}
	int rc = clawmd_compose(&plan, &ch, g, &opts, &err);
	if (rc < 0)
		fprintf(stderr, "handle-compose: %s\n", err.msg);
	else
		printf("changes %zu\n", ch.n);
	clawmd_changes_release(&ch);
	clawmd_plan_release(&plan);
	clawmd_group_free(g);
	clawmd_root_release(&root);
	return rc < 0;
}
