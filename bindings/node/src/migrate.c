/* migrate.c - handle.migrate(options). */
#include "addon.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- migrate ------------------------------------------------------------ */

napi_value m_migrate(napi_env env, napi_callback_info info)
{
	size_t argc = 1;
	napi_value argv[1] = {NULL}, opts, o = NULL, arr, a;
	struct handle *h = handle_enter(env, info, &argc, argv, NULL, "migrate");
	struct clawmd_migrate_opts mo = CLAWMD_MIGRATE_OPTS_INIT;
	if (!h || !get_options(env, argv[0], "options", &opts) ||
	    !get_bool_opt(env, opts, "dryRun", &mo.dry_run) ||
	    !get_bool_opt(env, opts, "force", &mo.force) || !handle_recheck(env, h)) {
		handle_leave(h);
		return NULL;
	}
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_migrate_result res;
	pthread_mutex_lock(&h->mu);
	int rc = clawmd_migrate(&res, &h->root, &mo, &err);
	pthread_mutex_unlock(&h->mu);
	if (rc < 0) {
		throw_err(env, rc, err.msg, err.sys_errno, h->root.lay.groups, NULL);
		goto out;
	}
	if (napi_create_object(env, &o) != napi_ok || !set_bool(env, o, "dryRun", res.dry_run) ||
	    !set_bool(env, o, "alreadyMigrated", res.already) ||
	    !set_bool(env, o, "legacyLeft", res.legacy_left) ||
	    !set_str(env, o, "record", res.record) ||
	    !set_val(env, o, "warnings", strv_js(env, res.warnings, res.nwarnings)) ||
	    !set_val(env, o, "groups", strv_js(env, res.groups, res.ngroups)) ||
	    napi_create_array(env, &arr) != napi_ok)
		goto fail;
	for (size_t i = 0, k = 0; i < res.n; i++) {
		const struct clawmd_migrate_action *x = &res.v[i];
		if (x->step != CLAWMD_MIGRATE_ERROR)
			continue;
		if (napi_create_object(env, &a) != napi_ok ||
		    !set_str(env, a, "group", x->group ? x->group : "") ||
		    !set_str(env, a, "message", x->note ? x->note : "") ||
		    !set_elem(env, arr, k++, a))
			goto fail;
	}
	if (!set_val(env, o, "failed", arr) ||
	    napi_create_array_with_length(env, res.n, &arr) != napi_ok)
		goto fail;
	for (size_t i = 0; i < res.n; i++) {
		const struct clawmd_migrate_action *x = &res.v[i];
		if (napi_create_object(env, &a) != napi_ok ||
		    !set_str(env, a, "action", clawmd_migrate_step_name(x->step)) ||
		    !set_str(env, a, "group", x->group) || !set_str(env, a, "path", x->path) ||
		    !set_str(env, a, "dest", x->dest) || !set_str(env, a, "note", x->note) ||
		    !set_num(env, a, "bytes", (double)x->bytes) ||
		    !set_str(env, a, "git", x->git) ||
		    !set_bool(env, a, "gitFailed", x->git_failed) || !set_elem(env, arr, i, a))
			goto fail;
	}
	if (set_val(env, o, "actions", arr))
		goto out;
fail:
	/* migrated, but its report not made: the environment is going away */
	o = give_up(env, "migrate");
out:
	clawmd_migrate_result_release(&res);
	handle_leave(h);
	return o;
}
