/* compose.c - handle.compose(group, options) and handle.composeAll(options),
 * the latter on a thread of the libuv pool, its results handed to JS in
 * slices. */
#include "addon.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- compose ------------------------------------------------------------ */

/* What one compose leaves for JS: the plan and changes are released at
 * once (a plan holds every fragment's content), so composeAll over a
 * thousand groups keeps only this much per group. */
struct summary {
	char *group;
	char *path; /* the group directory as shown */
	char *abspath;
	int rc;
	int sys_errno;
	char *msg;
	char **warnings;
	size_t nwarnings;
	struct {
		const char *action;
		char *path;
		char *moved_to;
	} *ch;
	size_t nch;
};


static napi_value changes_js(napi_env env, const struct summary *s)
{
	napi_value arr, c;
	if (napi_create_array_with_length(env, s->nch, &arr) != napi_ok)
		return NULL;
	for (size_t i = 0; i < s->nch; i++)
		if (napi_create_object(env, &c) != napi_ok ||
		    !set_str(env, c, "action", s->ch[i].action) ||
		    !set_str(env, c, "path", s->ch[i].path) ||
		    (s->ch[i].moved_to && !set_str(env, c, "movedTo", s->ch[i].moved_to)) ||
		    !set_elem(env, arr, i, c))
			return NULL;
	return arr;
}

static void summary_release(struct summary *s)
{
	free(s->group);
	free(s->path);
	free(s->abspath);
	free(s->msg);
	clawmd_strv_free(s->warnings, s->nwarnings);
	for (size_t i = 0; i < s->nch; i++) {
		free(s->ch[i].path);
		free(s->ch[i].moved_to);
	}
	free(s->ch);
	memset(s, 0, sizeof(*s));
}

/* Compose one group into `out`; the caller holds h->mu. */
static void compose_group(struct summary *out, struct handle *h, const char *name,
			  const char *config, size_t config_len, bool dry_run)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_plan plan;
	struct clawmd_changes ch;
	struct clawmd_compose_opts opts = {.version = CLAWMD_COMPOSE_OPTS_VERSION, .dry_run = dry_run};
	struct clawmd_group *g = NULL;
	clawmd_plan_init(&plan);
	clawmd_changes_init(&ch);
	memset(out, 0, sizeof(*out));
	out->group = clawmd_xstrdup(name);
	int rc = clawmd_group_open(&g, &h->root, name, &err);
	if (rc == 0)
		out->abspath = clawmd_xstrdup(clawmd_group_path(g));
	if (rc == 0 && config)
		rc = clawmd_group_set_config(g, config, config_len, &err);
	if (rc == 0)
		rc = clawmd_compose(&plan, &ch, g, &opts, &err);
	out->rc = rc < 0 ? rc : 0;
	if (rc < 0) {
		out->msg = clawmd_xstrdup(err.msg);
		out->sys_errno = err.sys_errno;
		goto out;
	}
	out->path = clawmd_xstrdup(ch.path);
	/* Every warning the command prints, in its words (the library's). */
	out->nwarnings = clawmd_compose_warnings(&out->warnings, &plan, &ch);
	out->ch = calloc(ch.n ? ch.n : 1, sizeof(*out->ch));
	if (!out->ch)
		abort();
	for (size_t i = 0; i < ch.n; i++) {
		const struct clawmd_change *c = &ch.v[i];
		out->ch[i].action = clawmd_action_name(c->action);
		out->ch[i].path = clawmd_xasprintf("%s/%s", ch.path, c->name);
		out->ch[i].moved_to = c->moved_to ? clawmd_xasprintf("%s/%s", ch.path, c->moved_to) : NULL;
	}
	out->nch = ch.n;
	/* As the command does after its groups: keep clawmd.json's parse. */
	if (!dry_run && !h->kept) {
		clawmd_layout_keep(&h->root.lay);
		h->kept = true;
	}
out:
	clawmd_changes_release(&ch);
	clawmd_plan_release(&plan);
	clawmd_group_free(g);
}

/* Whether handle h kept the answer of summary s (kept_js()). */
static bool kept_same(const struct handle *h, const struct summary *s)
{
	if (!h->kept_js || h->kept_n != s->nwarnings || strcmp(h->kept_group, s->group) ||
	    strcmp(h->kept_path, s->path))
		return false;
	for (size_t i = 0; i < s->nwarnings; i++)
		if (strcmp(h->kept_warnings[i], s->warnings[i]))
			return false;
	return true;
}

/*
 * What a compose that changed nothing answers, as JS values the result
 * maker reads ({group, path, warnings}; NULL: none, the values are then
 * made for the one result).  A group's no-op answers what it answered
 * last time (a defused @ directive is said at every spawn), so handle h
 * keeps its last answer, up to 64 KiB of warnings, and gives the same
 * strings again: none made, and the host's work on them (a Map of them,
 * a hash) done once, not at every spawn.  The maker copies the list: one
 * result changed changes no other.
 */
static napi_value kept_js(napi_env env, struct handle *h, const struct summary *s)
{
	napi_value v = NULL;
	if (kept_same(h, s))
		return napi_get_reference_value(env, h->kept_js, &v) == napi_ok ? v : NULL;
	size_t bytes = 0;
	for (size_t i = 0; i < s->nwarnings; i++)
		bytes += strlen(s->warnings[i]);
	if (bytes > 64 * 1024)
		return NULL;
	kept_drop(env, h);
	if (napi_create_object(env, &v) != napi_ok || !set_str(env, v, "group", s->group) ||
	    !set_str(env, v, "path", s->path) ||
	    !set_val(env, v, "warnings", strv_js(env, s->warnings, s->nwarnings)) ||
	    napi_create_reference(env, v, 1, &h->kept_js) != napi_ok) {
		h->kept_js = NULL;
		return NULL;
	}
	h->kept_group = clawmd_xstrdup(s->group);
	h->kept_path = clawmd_xstrdup(s->path);
	h->kept_warnings = calloc(s->nwarnings ? s->nwarnings : 1, sizeof(char *));
	if (!h->kept_warnings)
		abort();
	for (size_t i = 0; i < s->nwarnings; i++)
		h->kept_warnings[i] = clawmd_xstrdup(s->warnings[i]);
	h->kept_n = s->nwarnings;
	return v;
}

static napi_value summary_js(napi_env env, struct handle *h, const struct summary *s)
{
	struct addon *ad = NULL;
	napi_value o = NULL, make = NULL;
	napi_get_instance_data(env, (void **)&ad);
	if (s->rc >= 0 && ad->result && napi_get_reference_value(env, ad->result, &make) == napi_ok &&
	    make) {
		/* The object made in JS, as a literal: one shape for every
		 * result, and no property set through Object.prototype. */
		napi_value argv[6], kept = h && !s->nch ? kept_js(env, h, s) : NULL;
		/* none: undefined, the literal's [] (a no-op's usual case) */
		if (napi_get_undefined(env, &argv[3]) != napi_ok ||
		    napi_get_boolean(env, s->nch > 0, &argv[2]) != napi_ok)
			return NULL;
		argv[0] = argv[1] = argv[4] = argv[5] = argv[3];
		if (kept)
			argv[5] = kept;
		else if (napi_create_string_utf8(env, s->group, NAPI_AUTO_LENGTH, &argv[0]) != napi_ok ||
			 napi_create_string_utf8(env, s->path, NAPI_AUTO_LENGTH, &argv[1]) != napi_ok ||
			 (s->nch && !(argv[3] = changes_js(env, s))) ||
			 (s->nwarnings && !(argv[4] = strv_js(env, s->warnings, s->nwarnings))))
			return NULL;
		if (napi_call_function(env, make, make, 6, argv, &o) == napi_ok)
			return o;
		/* The maker throws nothing of its own, but JS may not run (the
		 * stack at its limit): the group was composed, so its result
		 * is made property by property instead. */
		napi_value ignored;
		napi_get_and_clear_last_exception(env, &ignored);
	}
	/* No object at all (the environment is being torn down: a worker
	 * terminated mid-call): nothing to fill, and no garbage to fill. */
	if (napi_create_object(env, &o) != napi_ok || !o || !set_str(env, o, "group", s->group))
		return NULL;
	if (s->rc < 0) {
		napi_value e = make_error(env, s->rc, s->msg, s->sys_errno, s->abspath, NULL);
		return set_val(env, o, "error", e) ? o : NULL;
	}
	if (!set_str(env, o, "path", s->path) || !set_bool(env, o, "changed", s->nch > 0) ||
	    !set_val(env, o, "changes", changes_js(env, s)) ||
	    !set_val(env, o, "warnings", strv_js(env, s->warnings, s->nwarnings)))
		return NULL;
	return o;
}

/* A compose whose arguments are read: the group composed, its result
 * made (NULL after throwing). */
static napi_value compose_call(napi_env env, struct handle *h, const char *group,
			       const char *config, size_t config_len, bool dry)
{
	napi_value ret = NULL;
	if (!handle_recheck(env, h))
		return NULL;
	struct summary s;
	pthread_mutex_lock(&h->mu);
	compose_group(&s, h, group, config, config_len, dry);
	pthread_mutex_unlock(&h->mu);
	if (s.rc < 0)
		throw_err(env, s.rc, s.msg, s.sys_errno, s.abspath, NULL);
	else if (!(ret = summary_js(env, h, &s)))
		give_up(env, "compose");
	summary_release(&s);
	return ret;
}

/* handle.compose(group, {dryRun, config}) */
napi_value m_compose(napi_env env, napi_callback_info info)
{
	size_t argc = 2;
	napi_value argv[2] = {NULL, NULL}, opts, ret = NULL, cfgv;
	struct handle *h = handle_enter(env, info, &argc, argv, NULL, "compose");
	char *group = NULL, *config = NULL;
	size_t config_len = 0;
	bool dry = false;
	if (!h || !(group = get_string(env, argv[0], "group", CLAWMD_EINPUT, NULL)) ||
	    !get_options(env, argv[1], "options", &opts) || !get_bool_opt(env, opts, "dryRun", &dry) ||
	    !get_opt(env, opts, "config", &cfgv))
		goto out;
	if (cfgv) {
		napi_valuetype t = napi_undefined;
		napi_typeof(env, cfgv, &t); /* failed: refused below, as "a value" */
		/* sized as the last one was: a host gives the same again */
		if (t == napi_string)
			config = get_string_sized(env, cfgv, "config", CLAWMD_EINPUT, &config_len,
						  h->config_len + 8);
		else if (t == napi_object)
			config = stringify(env, cfgv, &config_len, h->config_len + 8);
		else
			throw_usage(env, "config", "config: expected an object or a JSON string, not %s",
				    type_name(t));
		if (!config)
			goto out;
		h->config_len = config_len;
	}
	ret = compose_call(env, h, group, config, config_len, dry);
out:
	handle_leave(h);
	free(group);
	free(config);
	return ret;
}

/*
 * handle[composeText](group, configText): compose(group, {config:
 * configText}) for clawmd/nanoclaw, which hands the row's JSON text at
 * every spawn.  Its arguments are positional: an options object read
 * through N-API (a key made, then asked for, per option) was a sixth of
 * the adapter's watched no-op.  Keyed by a symbol that only index.js
 * hands on, to the adapter: not a second API of the package.
 */
napi_value m_compose_text(napi_env env, napi_callback_info info)
{
	size_t argc = 2;
	napi_value argv[2] = {NULL, NULL}, ret = NULL;
	struct handle *h = handle_enter(env, info, &argc, argv, NULL, "compose");
	char *group = NULL, *config = NULL;
	size_t config_len = 0;
	if (h && (group = get_string(env, argv[0], "group", CLAWMD_EINPUT, NULL)) &&
	    (config = get_string_sized(env, argv[1], "config", CLAWMD_EINPUT, &config_len,
				       h->config_len + 8))) {
		h->config_len = config_len;
		ret = compose_call(env, h, group, config, config_len, false);
	}
	handle_leave(h);
	free(group);
	free(config);
	return ret;
}

struct all_work {
	struct handle *h;
	napi_ref self;
	napi_deferred deferred;
	napi_async_work work;
	bool dry_run;
	int rc; /* listing the groups failed */
	struct clawmd_err err;
	struct summary *v;
	size_t n;
	size_t done;   /* results already turned into JS */
	napi_ref arr;  /* the array they go into, between slices */
};

static void all_execute(napi_env env, void *data)
{
	struct all_work *w = data;
	struct handle *h = w->h;
	char **groups = NULL;
	size_t n = 0;
	pthread_mutex_lock(&h->mu);
	w->rc = clawmd_groups_list(&groups, &n, &h->root.lay, &w->err);
	if (w->rc == 0) {
		bool made = pass_begin(h);
		w->v = calloc(n ? n : 1, sizeof(*w->v));
		if (!w->v)
			abort();
		for (size_t i = 0; i < n; i++)
			compose_group(&w->v[i], h, groups[i], NULL, 0, w->dry_run);
		w->n = n;
		pass_end(h, made);
		clawmd_strv_free(groups, n);
	}
	pthread_mutex_unlock(&h->mu);
}

/*
 * The results reach JS in slices of about ALL_SLICE changes, each in a
 * turn of the event loop of its own: a first pass over a thousand groups
 * has tens of thousands of changes, and turning them all into objects at
 * once held the loop for tens of milliseconds (scripts/bench-node.sh).
 * Between two slices an empty work goes through libuv's pool, so timers
 * and I/O callbacks run; the array waits behind a reference.
 */
#define ALL_SLICE 512

static void all_nothing(napi_env env, void *data)
{
	(void)env;
	(void)data;
}

/* Settle the promise: resolved with result, or rejected with it (NULL: an
 * error could not be made, a plain one then when N-API can).  A deferred
 * is settled at most once: N-API frees it even when settling fails. */
static void all_finish(napi_env env, struct all_work *w, napi_value result, bool ok)
{
	struct handle *h = w->h;
	napi_value m;
	if (!result) {
		ok = false;
		if (napi_create_string_utf8(env, "composeAll: could not make the error",
					    NAPI_AUTO_LENGTH, &m) != napi_ok ||
		    napi_create_error(env, NULL, m, &result) != napi_ok)
			result = NULL; /* none: the promise stays pending */
	}
	if (result && ok)
		napi_resolve_deferred(env, w->deferred, result);
	else if (result)
		napi_reject_deferred(env, w->deferred, result);
	for (size_t i = 0; i < w->n; i++)
		summary_release(&w->v[i]);
	free(w->v);
	if (--h->busy == 0 && !h->calls && !h->open)
		handle_close(h); /* close() came while it ran */
	if (w->arr)
		napi_delete_reference(env, w->arr);
	napi_delete_reference(env, w->self);
	free(w);
}

static void all_fail(napi_env env, struct all_work *w, const char *msg)
{
	all_finish(env, w, make_error(env, CLAWMD_EFS, msg, 0, NULL, NULL), false);
}

static void all_slice(napi_env env, napi_status status, void *data)
{
	struct all_work *w = data;
	napi_value arr, name;
	napi_delete_async_work(env, w->work);
	w->work = NULL;
	if (status != napi_ok) {
		all_fail(env, w, "composeAll was cancelled");
		return;
	}
	if (!w->arr || napi_get_reference_value(env, w->arr, &arr) != napi_ok || !arr) {
		all_fail(env, w, "composeAll: could not make the result");
		return;
	}
	size_t budget = 0;
	while (w->done < w->n && budget < ALL_SLICE) {
		budget += 1 + w->v[w->done].nch;
		if (!set_elem(env, arr, w->done, summary_js(env, NULL, &w->v[w->done]))) {
			all_fail(env, w, "composeAll: could not make the result");
			return;
		}
		summary_release(&w->v[w->done]);
		w->done++;
	}
	if (w->done == w->n) {
		all_finish(env, w, arr, true);
		return;
	}
	if (napi_create_string_utf8(env, "clawmd.composeAll", NAPI_AUTO_LENGTH, &name) != napi_ok ||
	    napi_create_async_work(env, NULL, name, all_nothing, all_slice, w, &w->work) != napi_ok ||
	    napi_queue_async_work(env, w->work) != napi_ok) {
		w->work = NULL; /* maybe unwritten: a work made and not queued leaks */
		all_fail(env, w, "composeAll: could not go on");
	}
}

static void all_complete(napi_env env, napi_status status, void *data)
{
	struct all_work *w = data;
	napi_value arr;
	if (w->rc < 0) {
		napi_delete_async_work(env, w->work);
		all_finish(env, w, make_error(env, w->rc, w->err.msg, w->err.sys_errno, NULL, NULL), false);
		return;
	}
	/* none made: all_slice rejects */
	if (status == napi_ok && (napi_create_array_with_length(env, w->n, &arr) != napi_ok ||
				  napi_create_reference(env, arr, 1, &w->arr) != napi_ok))
		w->arr = NULL;
	all_slice(env, status, w);
}

/* handle.composeAll({dryRun}) -> Promise */
napi_value m_compose_all(napi_env env, napi_callback_info info)
{
	size_t argc = 1;
	napi_value argv[1] = {NULL}, self, opts, promise = NULL, name;
	struct handle *h = handle_enter(env, info, &argc, argv, &self, "composeAll");
	bool dry = false;
	if (!h || !get_options(env, argv[0], "options", &opts) ||
	    !get_bool_opt(env, opts, "dryRun", &dry) || !handle_recheck(env, h)) {
		handle_leave(h);
		return NULL;
	}
	struct all_work *w = calloc(1, sizeof(*w));
	if (!w)
		abort();
	w->h = h;
	w->dry_run = dry;
	if (napi_create_string_utf8(env, "clawmd.composeAll", NAPI_AUTO_LENGTH, &name) != napi_ok ||
	    napi_create_reference(env, self, 1, &w->self) != napi_ok ||
	    napi_create_promise(env, &w->deferred, &promise) != napi_ok ||
	    napi_create_async_work(env, NULL, name, all_execute, all_complete, w, &w->work) != napi_ok ||
	    napi_queue_async_work(env, w->work) != napi_ok) {
		throw_err(env, CLAWMD_EFS, "composeAll: could not start the work", 0, NULL, NULL);
		handle_leave(h);
		return NULL; /* w leaks a few bytes: only when N-API itself fails */
	}
	h->busy++;
	handle_leave(h);
	return promise;
}
