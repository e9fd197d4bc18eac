/* git.c - load libgit2 (dl.h) the first time a git feature is used. */
#include "sys/git.h"
#include "sys/dl.h"

#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

static struct clawmd_git loaded;
static int state; /* 1 loaded, -1 failed (after load()) */
static char failure[512];
/* Loaded once even when threads of a host (the Node addon's workers) lint
 * at the same time. */
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void)
{
	void *h = clawmd_dl_open(CLAWMD_GIT2_SONAME, "libgit2.so");
	const char *missing = NULL;
	if (h) {
#define CLAWMD_GIT_RESOLVE(name)                                                                   \
	if (!(loaded.name = (__typeof__(name) *)clawmd_dl_sym(h, #name)) && !missing)              \
		missing = #name;
		CLAWMD_GIT_FUNCS(CLAWMD_GIT_RESOLVE)
#undef CLAWMD_GIT_RESOLVE
	}
	if (!h || missing) {
		snprintf(failure, sizeof(failure), "could not load libgit2 (%s): %s",
			 CLAWMD_GIT2_SONAME, missing ? missing : clawmd_dl_error());
		state = -1;
	} else {
		loaded.git_libgit2_init();
		state = 1;
	}
}

const struct clawmd_git *clawmd_git(struct clawmd_err *err)
{
	pthread_once(&once, load);
	if (state < 0) {
		clawmd_err_set(err, CLAWMD_EFS, "%s", failure);
		return NULL;
	}
	return &loaded;
}

const char *clawmd_git_errmsg(const struct clawmd_git *git)
{
	const git_error *e = git->git_error_last();
	return e && e->message ? e->message : "unknown libgit2 error";
}
