/* check.c - handle.check, handle.status and handle.groups. */
#include "addon.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- check and status ----------------------------------------------------- */

static napi_value failure_js(napi_env env, const char *group, const struct clawmd_err *err,
			     const char *path)
{
	napi_value o;
	if (napi_create_object(env, &o) != napi_ok || !set_str(env, o, "group", group))
		return NULL;
	napi_value e = make_error(env, err->code, err->msg, err->sys_errno, path, NULL);
	return set_val(env, o, "error", e) ? o : NULL;
}

/* The groups given, or every group; false after throwing.  Under h->mu. */
static bool groups_or_all(napi_env env, struct handle *h, char ***groups, size_t *n, bool given)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	if (given)
		return true;
	if (clawmd_groups_list(groups, n, &h->root.lay, &err) < 0) {
		throw_err(env, err.code, err.msg, err.sys_errno, h->root.lay.groups, NULL);
		return false;
	}
	return true;
}

/* handle.check(groups, {approveExternal}) -> {findings, failures, errors,
 * warnings, notes}, as check --json: findings sorted, paths relative to
 * ROOT; a group that cannot be read is a failure, the others are linted. */
napi_value m_check(napi_env env, napi_callback_info info)
{
	size_t argc = 2, n = 0;
	napi_value argv[2] = {NULL, NULL}, opts, ret = NULL, arr, fails, x;
	struct handle *h = handle_enter(env, info, &argc, argv, NULL, "check");
	char **groups = NULL;
	struct clawmd_lint_opts lo = CLAWMD_LINT_OPTS_INIT;
	struct clawmd_findings f;
	clawmd_findings_init(&f);
	if (!h || !get_groups(env, argv[0], &groups, &n) ||
	    !get_options(env, argv[1], "options", &opts) ||
	    !get_bool_opt(env, opts, "approveExternal", &lo.approve_external) ||
	    !handle_recheck(env, h))
		goto out;
	bool given = groups != NULL, ok = napi_create_array(env, &fails) == napi_ok;
	size_t nfails = 0;
	pthread_mutex_lock(&h->mu);
	if (!groups_or_all(env, h, &groups, &n, given)) {
		pthread_mutex_unlock(&h->mu);
		goto out;
	}
	lo.approve_external |= h->root.lay.approve_external;
	clawmd_lint_layout(&f, &h->root.lay);
	bool made = pass_begin(h);
	for (size_t i = 0; i < n; i++) {
		struct clawmd_err err = CLAWMD_ERR_INIT;
		struct clawmd_group *g = NULL;
		if ((clawmd_group_open(&g, &h->root, groups[i], &err) < 0 ||
		     clawmd_lint_group(&f, g, &lo, &err) < 0) && ok)
			ok = set_elem(env, fails, nfails++,
				      failure_js(env, groups[i], &err,
						 g ? clawmd_group_path(g) : NULL));
		clawmd_group_free(g);
	}
	pass_end(h, made);
	pthread_mutex_unlock(&h->mu);
	clawmd_findings_sort(&f);
	if (!ok || napi_create_object(env, &ret) != napi_ok ||
	    napi_create_array_with_length(env, f.n, &arr) != napi_ok)
		goto fail;
	for (size_t i = 0; i < f.n; i++) {
		const struct clawmd_finding *y = &f.v[i];
		if (napi_create_object(env, &x) != napi_ok ||
		    !set_str(env, x, "code", y->rule->code) ||
		    !set_str(env, x, "name", y->rule->name) ||
		    !set_str(env, x, "severity", clawmd_severity_name(y->rule->severity)) ||
		    !set_str(env, x, "group", y->group) || !set_str(env, x, "file", y->file) ||
		    !set_num(env, x, "line", (double)y->line) ||
		    !set_num(env, x, "column", (double)y->col) ||
		    !set_str(env, x, "message", y->message) || !set_str(env, x, "hint", y->hint) ||
		    !set_elem(env, arr, i, x))
			goto fail;
	}
	size_t errs = clawmd_findings_count(&f, CLAWMD_SEV_ERROR);
	size_t warns = clawmd_findings_count(&f, CLAWMD_SEV_WARNING) - errs;
	if (set_val(env, ret, "findings", arr) && set_val(env, ret, "failures", fails) &&
	    set_num(env, ret, "errors", (double)errs) &&
	    set_num(env, ret, "warnings", (double)warns) &&
	    set_num(env, ret, "notes", (double)(f.n - errs - warns)))
		goto out;
fail:
	ret = give_up(env, "check");
out:
	handle_leave(h);
	clawmd_findings_release(&f);
	clawmd_strv_free(groups, n);
	return ret;
}

/* handle.status(groups) -> one object per group, as status --json. */
napi_value m_status(napi_env env, napi_callback_info info)
{
	size_t argc = 1, n = 0;
	napi_value argv[1] = {NULL}, ret = NULL, x;
	struct handle *h = handle_enter(env, info, &argc, argv, NULL, "status");
	char **groups = NULL;
	struct clawmd_lint_opts lo = CLAWMD_LINT_OPTS_INIT;
	if (!h || !get_groups(env, argv[0], &groups, &n) || !handle_recheck(env, h))
		goto out;
	bool given = groups != NULL;
	pthread_mutex_lock(&h->mu);
	if (!groups_or_all(env, h, &groups, &n, given)) {
		pthread_mutex_unlock(&h->mu);
		goto out;
	}
	bool ok = napi_create_array_with_length(env, n, &ret) == napi_ok;
	bool made = pass_begin(h);
	for (size_t i = 0; i < n && ok; i++) {
		struct clawmd_err err = CLAWMD_ERR_INIT;
		struct clawmd_group *g = NULL;
		struct clawmd_group_status st;
		clawmd_group_status_init(&st);
		if (clawmd_group_open(&g, &h->root, groups[i], &err) < 0 ||
		    clawmd_group_status_get(&st, g, &lo, &err) < 0)
			ok = (x = failure_js(env, groups[i], &err,
					     g ? clawmd_group_path(g) : NULL)) &&
			     set_str(env, x, "drift", "unreadable");
		else
			ok = napi_create_object(env, &x) == napi_ok &&
			     set_str(env, x, "group", groups[i]) &&
			     set_str(env, x, "drift", clawmd_drift_name(st.drift)) &&
			     set_bool(env, x, "allSkills", st.all_skills) &&
			     set_val(env, x, "skills", strv_js(env, st.skills, st.nskills)) &&
			     set_val(env, x, "fragments",
				     strv_js(env, st.fragments, st.nfragments)) &&
			     set_num(env, x, "memoryChars", (double)st.memory_chars) &&
			     set_num(env, x, "tokens", (double)st.tokens) &&
			     set_num(env, x, "findings", (double)st.nfindings) &&
			     set_num(env, x, "errors", (double)st.nerrors) &&
			     set_num(env, x, "preserved", (double)st.npreserved);
		ok = ok && set_elem(env, ret, i, x);
		clawmd_group_status_release(&st);
		clawmd_group_free(g);
	}
	pass_end(h, made);
	pthread_mutex_unlock(&h->mu);
	if (!ok)
		ret = give_up(env, "status");
out:
	handle_leave(h);
	clawmd_strv_free(groups, n);
	return ret;
}

/* handle.groups() -> the group names, sorted. */
napi_value m_groups(napi_env env, napi_callback_info info)
{
	size_t argc = 0, n = 0;
	struct handle *h = handle_enter(env, info, &argc, NULL, NULL, "groups");
	char **groups = NULL;
	napi_value ret = NULL;
	if (!h)
		return NULL;
	pthread_mutex_lock(&h->mu);
	bool ok = groups_or_all(env, h, &groups, &n, false);
	pthread_mutex_unlock(&h->mu);
	if (ok && !(ret = strv_js(env, groups, n)))
		give_up(env, "groups");
	clawmd_strv_free(groups, n);
	handle_leave(h);
	return ret;
}
