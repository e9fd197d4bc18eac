/*
 * addon.c - clawmd for Node: an N-API addon over the public API (clawmd.h).
 *
 * The module exports open(root, options), which loads a root once and hands
 * back a handle (a struct clawmd_root behind a JS object), and
 * setErrorClass(ClawmdError), which index.js calls once per environment so
 * that every failure is thrown as its ClawmdError.  The handle's methods
 * mirror the commands: compose, composeAll (async), migrate, render, check,
 * status, mounts, groups, close.  index.js adds the JS conveniences; every argument
 * is checked here too, so the binding never crashes its host whatever it is
 * called with.
 *
 * Threads: the module is context-aware (NAPI_MODULE_INIT, per-environment
 * instance data), so worker threads load it, each with its own handles.
 * One handle is one root, whose pass (a watched one with {watch: true}) is
 * one thread at a time: every method takes the handle's mutex, composeAll
 * on a thread of the libuv pool, the others on the calling thread (a
 * synchronous call made while a composeAll runs waits for it).  Handles of
 * different roots, or of the same root in different workers, are
 * independent; two composes of one group serialize on the group's lock.
 *
 * Ownership: the JS object owns the handle.  close() releases the root (at
 * once, or when the composeAll in flight completes); the finalizer frees
 * what is left.  A composeAll holds a reference to the object until it
 * completes, so the handle is never finalized under a running work.
 */
#define NAPI_VERSION 8
#include <node_api.h>

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "clawmd.h"

struct addon {
	napi_ref error_class; /* ClawmdError, from index.js; NULL: plain Error */
	napi_ref handle_class;
	/* What a no-op compose would otherwise look up at each call: */
	napi_ref result;    /* makes compose's result object (NULL: property by property) */
	napi_ref stringify; /* JSON.stringify as the environment had it when loaded */
	struct {		    /* the handle objects last unwrapped */
		napi_ref obj; /* weak */
		struct handle *h;
	} last[4];
	unsigned next; /* the slot to take next */
};

struct handle {
	struct clawmd_root root;
	pthread_mutex_t mu; /* one thread at a time on the root and its pass */
	bool open;	    /* false after close() (main thread only) */
	bool kept;	    /* clawmd_layout_keep() was called */
	size_t config_len;  /* the config text's length at the last call */
	unsigned busy;	    /* composeAll works in flight (main thread only) */
	unsigned calls;	    /* synchronous calls in progress (main thread only) */
};

/* Every handle is tagged when open() makes it: an object some other addon
 * wrapped is never read as one. */
static const napi_type_tag handle_tag = {0x636c61776d642e6eULL, 0x6f64652e68616e64ULL};

/* ---- errors ----------------------------------------------------------- */

/*
 * Making a result: when the environment is being torn down (a worker
 * terminated, the process exiting) or V8 is out of memory, N-API calls fail
 * and leave their outputs unwritten, and whatever is made of such a value
 * crashes the host.  So every call is checked and a result is whole or none:
 * the setters below and the makers of JS values return false or NULL at the
 * first call that fails, and the method gives up (give_up), throwing when
 * it still can.  tests/t100-node-faults.sh fails each call in turn.
 */

/* obj[key] = v, v NULL when making it failed. */
static bool set_val(napi_env env, napi_value obj, const char *key, napi_value v)
{
	return v && napi_set_named_property(env, obj, key, v) == napi_ok;
}

/* arr[i] = v, v NULL when making it failed. */
static bool set_elem(napi_env env, napi_value arr, size_t i, napi_value v)
{
	return v && napi_set_element(env, arr, (uint32_t)i, v) == napi_ok;
}

static bool set_str(napi_env env, napi_value obj, const char *key, const char *s)
{
	napi_value v;
	if (s ? napi_create_string_utf8(env, s, NAPI_AUTO_LENGTH, &v) != napi_ok
	      : napi_get_null(env, &v) != napi_ok)
		return false;
	return napi_set_named_property(env, obj, key, v) == napi_ok;
}

static bool set_num(napi_env env, napi_value obj, const char *key, double d)
{
	napi_value v;
	return napi_create_double(env, d, &v) == napi_ok &&
	       napi_set_named_property(env, obj, key, v) == napi_ok;
}

static bool set_bool(napi_env env, napi_value obj, const char *key, bool b)
{
	napi_value v;
	return napi_get_boolean(env, b, &v) == napi_ok &&
	       napi_set_named_property(env, obj, key, v) == napi_ok;
}

/*
 * The key an EINPUT message names: the library says
 * "<dir>/container.json[ (given by the host)]: <key>: <what>".
 */
static char *message_key(const char *msg)
{
	const char *p = strstr(msg, "container.json");
	if (!p)
		return NULL;
	p += strlen("container.json");
	if (!strncmp(p, " (given by the host)", 20))
		p += 20;
	if (strncmp(p, ": ", 2))
		return NULL;
	p += 2;
	const char *e = strstr(p, ": ");
	if (!e || e == p || memchr(p, ' ', (size_t)(e - p)))
		return NULL;
	return strndup(p, (size_t)(e - p));
}

/* A ClawmdError for (code, message): code, exitStatus, and path, key and
 * errno when known.  NULL when N-API failed making it. */
static napi_value make_error(napi_env env, int code, const char *msg, int sys_errno,
			     const char *path, const char *key)
{
	struct addon *ad = NULL;
	napi_value err = NULL, cls, m, props;
	napi_get_instance_data(env, (void **)&ad);
	char *k = !key && code == CLAWMD_EINPUT ? message_key(msg) : NULL;
	bool ok = napi_create_string_utf8(env, msg, NAPI_AUTO_LENGTH, &m) == napi_ok &&
		  napi_create_object(env, &props) == napi_ok &&
		  set_str(env, props, "code", clawmd_code_name(code ? code : CLAWMD_EFS)) &&
		  set_num(env, props, "exitStatus", clawmd_exit_status(code ? code : CLAWMD_EFS)) &&
		  (!path || set_str(env, props, "path", path)) &&
		  (!(key || k) || set_str(env, props, "key", key ? key : k)) &&
		  (!sys_errno || set_num(env, props, "errno", sys_errno));
	free(k);
	if (!ok)
		return NULL;
	if (ad && ad->error_class && napi_get_reference_value(env, ad->error_class, &cls) == napi_ok &&
	    cls) {
		napi_value argv[2] = {m, props};
		if (napi_new_instance(env, cls, 2, argv, &err) == napi_ok)
			return err;
	}
	/* No ClawmdError registered (the binding used on its own): an Error
	 * carrying the same properties. */
	napi_value c, names;
	uint32_t n = 0;
	if (napi_create_string_utf8(env, clawmd_code_name(code ? code : CLAWMD_EFS),
				    NAPI_AUTO_LENGTH, &c) != napi_ok ||
	    napi_create_error(env, c, m, &err) != napi_ok ||
	    napi_get_all_property_names(env, props, napi_key_own_only,
					napi_key_enumerable | napi_key_skip_symbols,
					napi_key_numbers_to_strings, &names) != napi_ok ||
	    napi_get_array_length(env, names, &n) != napi_ok)
		return NULL;
	for (uint32_t i = 0; i < n; i++) {
		napi_value name, v;
		if (napi_get_element(env, names, i, &name) != napi_ok ||
		    napi_get_property(env, props, name, &v) != napi_ok ||
		    napi_set_property(env, err, name, v) != napi_ok)
			return NULL;
	}
	return err;
}

static void throw_err(napi_env env, int code, const char *msg, int sys_errno, const char *path,
		      const char *key)
{
	bool pending = false;
	napi_is_exception_pending(env, &pending);
	if (pending)
		return;
	/* No ClawmdError to be had (N-API failed part way): an Error with the
	 * code and the message, when N-API can still make one. */
	napi_value e = make_error(env, code, msg, sys_errno, path, key);
	if (!e || napi_throw(env, e) != napi_ok)
		napi_throw_error(env, clawmd_code_name(code ? code : CLAWMD_EFS), msg);
}

static void throw_usage(napi_env env, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void throw_usage(napi_env env, const char *key, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	throw_err(env, CLAWMD_EUSAGE, msg, 0, NULL, key);
}

/* Making what a method returns failed (an N-API call did): it gives up,
 * with an error unless one is pending or none can be thrown. */
static napi_value give_up(napi_env env, const char *method)
{
	char msg[128];
	snprintf(msg, sizeof(msg), "%s: could not make the result (the environment is being torn "
		 "down, or out of memory)", method);
	throw_err(env, CLAWMD_EFS, msg, 0, NULL, NULL);
	return NULL;
}

/* ---- arguments -------------------------------------------------------- */

static const char *type_name(napi_valuetype t)
{
	static const char *const names[] = {"undefined", "null",   "a boolean",  "a number",
					    "a string",  "a symbol", "an object", "a function",
					    "an external", "a bigint"};
	return (unsigned)t < sizeof(names) / sizeof(*names) ? names[t] : "a value";
}

static bool is_nullish(napi_env env, napi_value v)
{
	napi_valuetype t;
	return !v || (napi_typeof(env, v, &t) == napi_ok && (t == napi_undefined || t == napi_null));
}

/* A JS string as a C string (caller frees); NULL after throwing.  `what`
 * names the argument; a NUL byte inside is refused (the C side would see
 * a shorter name than the caller gave). */
static char *get_string_sized(napi_env env, napi_value v, const char *what, int nul_code,
			      size_t *lenp, size_t guess)
{
	napi_valuetype t = napi_undefined;
	size_t len = 0;
	char *s = NULL;
	if (!v || napi_typeof(env, v, &t) != napi_ok || t != napi_string) {
		throw_usage(env, what, "%s: expected a string, not %s", what, type_name(t));
		return NULL;
	}
	/* One pass when the guess holds it: V8 stops short of a character
	 * that does not fit, so a string that filled all but three bytes
	 * may have been cut, and is measured and read again. */
	if (guess < 64)
		guess = 64;
	if (!(s = malloc(guess)))
		abort();
	if (napi_get_value_string_utf8(env, v, s, guess, &len) != napi_ok) {
		free(s);
		throw_usage(env, what, "%s: could not read the string", what);
		return NULL;
	}
	if (len + 4 >= guess) {
		free(s);
		if (napi_get_value_string_utf8(env, v, NULL, 0, &len) != napi_ok) {
			throw_usage(env, what, "%s: could not read the string", what);
			return NULL;
		}
		if (!(s = malloc(len + 1)))
			abort();
		if (napi_get_value_string_utf8(env, v, s, len + 1, &len) != napi_ok) {
			free(s);
			throw_usage(env, what, "%s: could not read the string", what);
			return NULL;
		}
	}
	if (memchr(s, '\0', len)) {
		char msg[256];
		snprintf(msg, sizeof(msg), "%s: must not hold a NUL byte", what);
		throw_err(env, nul_code, msg, 0, NULL, what);
		free(s);
		return NULL;
	}
	if (lenp)
		*lenp = len;
	return s;
}

static char *get_string(napi_env env, napi_value v, const char *what, int nul_code, size_t *lenp)
{
	return get_string_sized(env, v, what, nul_code, lenp, 256);
}

/* An options argument: undefined, null or an object.  *out is NULL when
 * none was given.  False after throwing. */
static bool get_options(napi_env env, napi_value v, const char *what, napi_value *out)
{
	napi_valuetype t = napi_undefined;
	*out = NULL;
	if (is_nullish(env, v))
		return true;
	if (napi_typeof(env, v, &t) != napi_ok || t != napi_object) {
		throw_usage(env, what, "%s: expected an object, not %s", what, type_name(t));
		return false;
	}
	*out = v;
	return true;
}

static bool pending(napi_env env)
{
	bool p = false;
	napi_is_exception_pending(env, &p);
	return p;
}

/* A N-API call on a caller's object failed: a getter or a proxy trap threw
 * (that error stays and is the one the caller sees), or N-API refused. */
static bool failed(napi_env env, const char *what)
{
	if (!pending(env))
		throw_usage(env, what, "%s: could not be read", what);
	return false;
}

/*
 * obj[key] if obj has it as an own property, else *out is NULL (so is an
 * undefined or null value): an option never comes from a prototype, where
 * a polluted Object.prototype would put it.  False after throwing; a
 * getter runs once, and whatever it does, the call checks the handle again
 * before it uses it (handle_recheck).
 */
static bool get_own(napi_env env, napi_value obj, const char *key, napi_value *out)
{
	napi_value k, v;
	bool has = false;
	*out = NULL;
	if (napi_create_string_utf8(env, key, NAPI_AUTO_LENGTH, &k) != napi_ok ||
	    napi_has_own_property(env, obj, k, &has) != napi_ok)
		return failed(env, key);
	if (!has)
		return true;
	if (napi_get_property(env, obj, k, &v) != napi_ok)
		return failed(env, key);
	if (!is_nullish(env, v))
		*out = v;
	return true;
}

/* opts[key] (get_own), opts NULL for none given. */
static bool get_opt(napi_env env, napi_value opts, const char *key, napi_value *out)
{
	*out = NULL;
	return !opts || get_own(env, opts, key, out);
}

/* Element i of an array, own only: a hole is undefined (*out NULL, as
 * get_own has it), never what Array.prototype or Object.prototype holds at
 * that index. */
static bool get_own_element(napi_env env, napi_value arr, uint32_t i, napi_value *out)
{
	char key[16];
	snprintf(key, sizeof(key), "%u", i);
	return get_own(env, arr, key, out);
}

/* The length of an array, refused past `max` (an array of four billion
 * holes must not cost four billion pointers). */
static bool get_length(napi_env env, napi_value arr, const char *what, uint32_t max, uint32_t *len)
{
	if (napi_get_array_length(env, arr, len) != napi_ok)
		return failed(env, what);
	if (*len > max) {
		throw_usage(env, what, "%s: %u elements, more than the %u allowed", what, *len, max);
		return false;
	}
	return true;
}

/* A boolean option; false after throwing. */
static bool get_bool_opt(napi_env env, napi_value opts, const char *key, bool *out)
{
	napi_value v;
	napi_valuetype t = napi_undefined;
	*out = false;
	if (!get_opt(env, opts, key, &v))
		return false;
	if (!v)
		return true;
	if (napi_typeof(env, v, &t) != napi_ok || t != napi_boolean) {
		throw_usage(env, key, "%s: expected a boolean, not %s", key, type_name(t));
		return false;
	}
	return napi_get_value_bool(env, v, out) == napi_ok || failed(env, key);
}

/* An optional string option into *out (caller frees; NULL when absent).
 * False after throwing. */
static bool get_string_opt(napi_env env, napi_value opts, const char *key, char **out)
{
	napi_value v;
	*out = NULL;
	if (!get_opt(env, opts, key, &v))
		return false;
	return !v || (*out = get_string(env, v, key, CLAWMD_EUSAGE, NULL));
}

/* At most this many groups in one call (a root holds far fewer). */
#define MAX_GROUPS 1000000

/* An array of group names, or undefined/null for every group.  False after
 * throwing. */
static bool get_groups(napi_env env, napi_value v, char ***out, size_t *n)
{
	bool is_array = false;
	uint32_t len = 0;
	*out = NULL;
	*n = 0;
	if (is_nullish(env, v))
		return true;
	if (napi_is_array(env, v, &is_array) != napi_ok || !is_array) {
		napi_valuetype t = napi_undefined;
		napi_typeof(env, v, &t);
		throw_usage(env, "groups", "groups: expected an array of group names, not %s",
			    type_name(t));
		return false;
	}
	if (!get_length(env, v, "groups", MAX_GROUPS, &len))
		return false;
	char **g = calloc(len ? len : 1, sizeof(char *));
	if (!g)
		abort();
	for (uint32_t i = 0; i < len; i++) {
		napi_value e;
		char what[32]; /* the element named, as a container.json key is */
		snprintf(what, sizeof(what), "groups[%" PRIu32 "]", i);
		if (!get_own_element(env, v, i, &e) ||
		    !(g[i] = get_string(env, e, what, CLAWMD_EINPUT, NULL))) {
			clawmd_strv_free(g, i);
			return false;
		}
	}
	*out = g;
	*n = len;
	return true;
}

/* The handle wrapped in `obj`, open or closed; NULL after throwing: an
 * object of this class that open() did not make, or one another addon
 * wrapped (its pointer is not ours to read: a TypeError). */
static struct handle *unwrap_handle(napi_env env, napi_value obj)
{
	void *p = NULL;
	bool ours = false;
	struct addon *ad = NULL;
	napi_value v;
	/* A handle unwrapped lately, known by identity (the reference is
	 * weak: a handle collected since is never taken for it); a no-op
	 * compose otherwise spends more on the type tag than on its pass. */
	napi_get_instance_data(env, (void **)&ad);
	for (size_t i = 0; i < sizeof(ad->last) / sizeof(*ad->last); i++)
		if (ad->last[i].h && napi_get_reference_value(env, ad->last[i].obj, &v) == napi_ok &&
		    v && napi_strict_equals(env, obj, v, &ours) == napi_ok && ours)
			return ad->last[i].h;
	ours = false;
	if (napi_check_object_type_tag(env, obj, &handle_tag, &ours) == napi_ok && ours &&
	    napi_unwrap(env, obj, &p) == napi_ok && p) {
		unsigned k = ad->next++ % (sizeof(ad->last) / sizeof(*ad->last));
		if (ad->last[k].obj)
			napi_delete_reference(env, ad->last[k].obj);
		ad->last[k].obj = NULL;
		ad->last[k].h = NULL;
		if (napi_create_reference(env, obj, 0, &ad->last[k].obj) == napi_ok)
			ad->last[k].h = p;
		else
			ad->last[k].obj = NULL; /* unwritten: never deleted */
		return p;
	}
	if (napi_unwrap(env, obj, &p) == napi_ok && p)
		napi_throw_type_error(env, "EUSAGE",
				      "not a clawmd handle (an object another addon wrapped)");
	else
		throw_usage(env, NULL, "not a clawmd handle (use clawmd.open())");
	return NULL;
}

static void handle_close(struct handle *h);

/*
 * Every method is one call, from handle_enter to handle_leave, during which
 * the handle is pinned: JS the call runs (a getter, a toJSON, a proxy
 * trap, an error's constructor) may close it, and the root is then
 * released when the last call or composeAll lets go of it, never under
 * one.  What a call reads from the caller it reads, checks and copies
 * before it works, and checks the handle again then (handle_recheck): a
 * handle closed meanwhile throws, nothing done.  A synchronous method
 * called from such JS on the same handle would wait for a lock its own
 * caller holds: it throws instead.
 */
static struct handle *handle_enter(napi_env env, napi_callback_info info, size_t *argc,
				   napi_value *argv, napi_value *self, const char *method)
{
	napi_value this_arg;
	if (napi_get_cb_info(env, info, argc, argv, &this_arg, NULL) != napi_ok)
		return NULL;
	if (self)
		*self = this_arg;
	struct handle *h = unwrap_handle(env, this_arg);
	if (!h)
		return NULL;
	if (!h->open) {
		throw_usage(env, NULL, "the clawmd handle is closed");
		return NULL;
	}
	if (h->calls) {
		throw_usage(env, NULL, "%s: called from inside another call on this handle (a getter, "
			    "toJSON or proxy the arguments ran)", method);
		return NULL;
	}
	h->calls++;
	return h;
}

static void handle_leave(struct handle *h)
{
	if (h && --h->calls == 0 && !h->busy && !h->open)
		handle_close(h); /* close() came during the call */
}

/* The arguments are read: false after throwing when the handle was closed
 * meanwhile. */
static bool handle_recheck(napi_env env, struct handle *h)
{
	if (h->open)
		return true;
	throw_usage(env, NULL, "the clawmd handle was closed during the call (by the arguments' "
		    "getters)");
	return false;
}

/* JSON.stringify(v), for a config given as an object (caller frees). */
static char *stringify(napi_env env, napi_value v, size_t *len, size_t guess)
{
	struct addon *ad = NULL;
	napi_value global, json, fn = NULL, s;
	napi_valuetype t;
	napi_get_instance_data(env, (void **)&ad);
	if (ad->stringify && napi_get_reference_value(env, ad->stringify, &fn) != napi_ok)
		fn = NULL;
	/* None at load (the host had replaced it): the one there now.  What
	 * is not a function, or a call that failed with nothing thrown,
	 * throws here: a compose must never return undefined, nothing done. */
	if (!fn && (napi_get_global(env, &global) != napi_ok ||
		    napi_get_named_property(env, global, "JSON", &json) != napi_ok ||
		    napi_get_named_property(env, json, "stringify", &fn) != napi_ok))
		fn = NULL;
	if (!fn || napi_typeof(env, fn, &t) != napi_ok || t != napi_function) {
		if (!pending(env))
			throw_usage(env, "config", "config: cannot be written as JSON (no JSON.stringify "
				    "function in this environment; give the config as JSON text)");
		return NULL;
	}
	if (napi_call_function(env, fn, fn, 1, &v, &s) != napi_ok) {
		/* it threw (a cycle, a BigInt): that error stays */
		if (!pending(env))
			throw_usage(env, "config", "config: cannot be written as JSON");
		return NULL;
	}
	if (napi_typeof(env, s, &t) != napi_ok || t != napi_string) {
		throw_usage(env, "config", "config: cannot be written as JSON");
		return NULL;
	}
	return get_string_sized(env, s, "config", CLAWMD_EINPUT, len, guess);
}

/* ---- JS values from the library's -------------------------------------- */

/* The makers of JS values return NULL when an N-API call failed. */
static napi_value strv_js(napi_env env, char *const *v, size_t n)
{
	napi_value arr, s;
	if (napi_create_array_with_length(env, n, &arr) != napi_ok)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (napi_create_string_utf8(env, v[i], NAPI_AUTO_LENGTH, &s) != napi_ok ||
		    !set_elem(env, arr, i, s))
			return NULL;
	return arr;
}

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

static napi_value summary_js(napi_env env, const struct summary *s)
{
	struct addon *ad = NULL;
	napi_value o = NULL, make = NULL;
	napi_get_instance_data(env, (void **)&ad);
	if (s->rc >= 0 && ad->result && napi_get_reference_value(env, ad->result, &make) == napi_ok &&
	    make) {
		/* The object made in JS, as a literal: one shape for every
		 * result, and no property set through Object.prototype. */
		napi_value argv[5];
		/* none: undefined, the literal's [] (a no-op's usual case) */
		if (napi_create_string_utf8(env, s->group, NAPI_AUTO_LENGTH, &argv[0]) != napi_ok ||
		    napi_create_string_utf8(env, s->path, NAPI_AUTO_LENGTH, &argv[1]) != napi_ok ||
		    napi_get_boolean(env, s->nch > 0, &argv[2]) != napi_ok ||
		    (s->nch ? !(argv[3] = changes_js(env, s))
			    : napi_get_undefined(env, &argv[3]) != napi_ok) ||
		    (s->nwarnings ? !(argv[4] = strv_js(env, s->warnings, s->nwarnings))
				  : napi_get_undefined(env, &argv[4]) != napi_ok))
			return NULL;
		if (napi_call_function(env, make, make, 5, argv, &o) == napi_ok)
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

/* handle.compose(group, {dryRun, config}) */
static napi_value m_compose(napi_env env, napi_callback_info info)
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
	if (!handle_recheck(env, h))
		goto out;
	struct summary s;
	pthread_mutex_lock(&h->mu);
	compose_group(&s, h, group, config, config_len, dry);
	pthread_mutex_unlock(&h->mu);
	if (s.rc < 0)
		throw_err(env, s.rc, s.msg, s.sys_errno, s.abspath, NULL);
	else if (!(ret = summary_js(env, &s)))
		give_up(env, "compose");
	summary_release(&s);
out:
	handle_leave(h);
	free(group);
	free(config);
	return ret;
}

/* A pass for a call over many groups, unless the root has its own (the
 * watched one): the host's sources are read once.  Under h->mu. */
static bool pass_begin(struct handle *h)
{
	if (h->root.pass)
		return false;
	h->root.pass = clawmd_pass_new();
	return true;
}

static void pass_end(struct handle *h, bool made)
{
	if (made) {
		clawmd_pass_free(h->root.pass);
		h->root.pass = NULL;
	}
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

static void handle_close(struct handle *h)
{
	pthread_mutex_lock(&h->mu);
	clawmd_root_release(&h->root);
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
		if (!set_elem(env, arr, w->done, summary_js(env, &w->v[w->done]))) {
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
static napi_value m_compose_all(napi_env env, napi_callback_info info)
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

/* ---- migrate ------------------------------------------------------------ */

static napi_value m_migrate(napi_env env, napi_callback_info info)
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

/* ---- render ------------------------------------------------------------- */

/* The group's directory must be a real one (as the command's
 * cmd_groups_check): render reads through the mount table, which would
 * otherwise show a missing group as an empty one. */
static int group_exists(const struct clawmd_group *g, struct clawmd_err *err)
{
	struct stat st;
	const char *path = clawmd_group_path(g);
	if (lstat(path, &st) < 0)
		return clawmd_err_sys(err, CLAWMD_EFS, "no group '%s': '%s'", clawmd_group_name(g),
				      path);
	if (S_ISLNK(st.st_mode))
		return clawmd_err_set(err, CLAWMD_EFS,
				      "group '%s': '%s' is a symlink (refused: it could lead anywhere)",
				      clawmd_group_name(g), path);
	if (!S_ISDIR(st.st_mode))
		return clawmd_err_set(err, CLAWMD_EFS, "group '%s': '%s' is not a directory",
				      clawmd_group_name(g), path);
	return 0;
}

static napi_value memory_files_js(napi_env env, const struct clawmd_memory *m, bool json)
{
	napi_value arr, x;
	if (napi_create_array_with_length(env, m->nfiles, &arr) != napi_ok)
		return NULL;
	for (size_t i = 0; i < m->nfiles; i++) {
		const struct clawmd_mem_file *f = &m->files[i];
		if (napi_create_object(env, &x) != napi_ok ||
		    !set_str(env, x, "type", clawmd_mem_type_name(f->type)) ||
		    !set_str(env, x, "path", f->path) || !set_str(env, x, "parent", f->parent) ||
		    (json && (!set_num(env, x, "size", (double)f->size) ||
			      !set_num(env, x, "tokens",
				       (double)((clawmd_utf16_len(f->content, f->len) + 3) / 4)))) ||
		    !set_elem(env, arr, i, x))
			return NULL;
	}
	return arr;
}

/* The AGENTS.md fallback (Claude Code 2.1.281 on), as render --json has
 * it: the mode in effect (null before 2.1.281), what the walk found, and
 * the file that turned the fallback off.  False when N-API failed. */
static bool agents_js(napi_env env, napi_value ret, const struct clawmd_memory *m)
{
	napi_value arr, x;
	if (!m->instruction_files)
		return set_str(env, ret, "instructionFiles", NULL);
	const char *mode = clawmd_instruction_files_name(m->instruction_files);
	if (!set_str(env, ret, "instructionFiles", mode) ||
	    napi_create_array_with_length(env, m->nagents, &arr) != napi_ok)
		return false;
	for (size_t i = 0; i < m->nagents; i++)
		if (napi_create_object(env, &x) != napi_ok ||
		    !set_str(env, x, "path", m->agents[i].path) ||
		    !set_bool(env, x, "loaded", m->agents[i].loaded) || !set_elem(env, arr, i, x))
			return false;
	return set_val(env, ret, "agentsMd", arr) &&
	       set_str(env, ret, "agentsMdOffBy", m->agents_off_by);
}

/* A nanoclaw host (render --json's claude_version ... session_start): the
 * release and where it came from, the setting sources and where from, and
 * what the SessionStart hook injects (the text may hold NUL bytes: it is
 * given whole). */
static bool nanoclaw_js(napi_env env, napi_value ret, const struct clawmd_render_setup *s)
{
	const struct clawmd_memory_opts *o = &s->memory;
	napi_value arr, x, h, v;
	if (s->release_from) {
		char *rel = clawmd_render_release(o);
		bool ok = set_str(env, ret, "claudeVersion", rel);
		free(rel);
		if (!ok || !set_str(env, ret, "claudeVersionFrom", s->release_from))
			return false;
	}
	if (s->sources_from) {
		const char *src[3];
		size_t n = 0;
		if (!o->no_project)
			src[n++] = "project";
		if (!o->no_user)
			src[n++] = "user";
		if (!o->no_local)
			src[n++] = "local";
		if (!set_val(env, ret, "settingSources", strv_js(env, (char *const *)src, n)) ||
		    !set_str(env, ret, "settingSourcesFrom", s->sources_from))
			return false;
	}
	if (!s->hook.present)
		return set_str(env, ret, "sessionStart", NULL);
	size_t nf = sizeof(s->hook.files) / sizeof(s->hook.files[0]);
	if (napi_create_object(env, &h) != napi_ok ||
	    !set_str(env, h, "hook", CLAWMD_HOOK_SCRIPT) ||
	    !set_num(env, h, "maxChars", CLAWMD_HOOK_MEMORY_CHARS) ||
	    napi_create_array_with_length(env, nf, &arr) != napi_ok)
		return false;
	for (size_t i = 0; i < nf; i++) {
		const struct clawmd_hook_file *f = &s->hook.files[i];
		if (napi_create_object(env, &x) != napi_ok || !set_str(env, x, "path", f->path) ||
		    !set_bool(env, x, "available", f->available) ||
		    (f->available &&
		     (!set_num(env, x, "chars", (double)f->chars) ||
		      !set_bool(env, x, "truncated", f->truncated) ||
		      napi_create_string_utf8(env, f->text ? f->text : "", f->len, &v) != napi_ok ||
		      !set_val(env, x, "text", v))) ||
		    !set_elem(env, arr, i, x))
			return false;
	}
	return set_val(env, h, "files", arr) && set_val(env, ret, "sessionStart", h);
}

/* What render --group prints, as JS: the string (text), the files with
 * the hook's after them (files), or render --json's object (json). */
static napi_value memory_js(napi_env env, const struct clawmd_memory *m,
			    const struct clawmd_render_setup *s, const char *format)
{
	napi_value ret, arr, x;
	if (!strcmp(format, "text")) {
		struct clawmd_buf t = CLAWMD_BUF_INIT;
		clawmd_memory_text(&t, m, &s->memory);
		napi_status st = napi_create_string_utf8(env, t.ptr ? t.ptr : "", t.len, &ret);
		clawmd_buf_release(&t);
		return st == napi_ok ? ret : NULL;
	}
	if (!(arr = memory_files_js(env, m, !strcmp(format, "json"))))
		return NULL;
	if (!strcmp(format, "files")) {
		/* what nanoclaw's SessionStart hook adds, after the startup
		 * memory, its parent the hook's script (the Hook rows) */
		size_t k = m->nfiles;
		for (size_t i = 0; i < sizeof(s->hook.files) / sizeof(s->hook.files[0]); i++)
			if (s->hook.files[i].available &&
			    (napi_create_object(env, &x) != napi_ok ||
			     !set_str(env, x, "type", "Hook") ||
			     !set_str(env, x, "path", s->hook.files[i].path) ||
			     !set_str(env, x, "parent", CLAWMD_HOOK_SCRIPT) ||
			     !set_elem(env, arr, k++, x)))
				return NULL;
		return arr;
	}
	if (napi_create_object(env, &ret) != napi_ok || !set_str(env, ret, "cwd", m->cwd) ||
	    !set_val(env, ret, "files", arr) ||
	    napi_create_array_with_length(env, m->nimports, &arr) != napi_ok)
		return NULL;
	for (size_t i = 0; i < m->nimports; i++) {
		const struct clawmd_mem_import *im = &m->imports[i];
		if (napi_create_object(env, &x) != napi_ok || !set_str(env, x, "from", im->from) ||
		    !set_str(env, x, "import", im->raw) || !set_str(env, x, "path", im->path) ||
		    !set_str(env, x, "status", clawmd_import_status_name(im->status)) ||
		    !set_elem(env, arr, i, x))
			return NULL;
	}
	if (!set_val(env, ret, "imports", arr) ||
	    !set_val(env, ret, "externalIncludes", strv_js(env, m->external, m->nexternal)) ||
	    !agents_js(env, ret, m) || (m->failed && !set_str(env, ret, "failed", m->failed)) ||
	    (s->nanoclaw && !nanoclaw_js(env, ret, s)))
		return NULL;
	return ret;
}

/* An unknown runtime named: every built-in one listed, from the contract
 * table (so a runtime added there is never missing here), and the nearest
 * suggested. */
static void throw_runtime(napi_env env, const char *name)
{
	struct clawmd_buf b = CLAWMD_BUF_INIT;
	const char *near = clawmd_runtime_suggest(name);
	clawmd_buf_printf(&b, "runtime: unknown runtime '%s'", name);
	if (near)
		clawmd_buf_printf(&b, "; did you mean '%s'?", near);
	for (int i = 0; i < CLAWMD_RUNTIME_N; i++)
		clawmd_buf_printf(&b, "%s%s", !i ? " (" : i + 1 < CLAWMD_RUNTIME_N ? ", " : " or ",
				  clawmd_runtime_name((enum clawmd_runtime)i));
	clawmd_buf_puts(&b, ")");
	throw_err(env, CLAWMD_EUSAGE, b.ptr, 0, NULL, "runtime");
	clawmd_buf_release(&b);
}

/* handle.render(group, {format, approveExternal, home, runtime}): what the
 * agent of GROUP loads, in its container's view, set up as render --group
 * sets it up (clawmd_render_setup: the runtime by the group's provider's
 * contract, clawmd.json's settings, a nanoclaw host's pin, sources and
 * hook), by the rules of `runtime` when given. */
static napi_value m_render(napi_env env, napi_callback_info info)
{
	size_t argc = 2;
	napi_value argv[2] = {NULL, NULL}, opts, ret = NULL;
	struct handle *h = handle_enter(env, info, &argc, argv, NULL, "render");
	char *group = NULL, *format = NULL, *home = NULL, *runtime = NULL;
	struct clawmd_render_opts ro = CLAWMD_RENDER_OPTS_INIT;
	struct clawmd_render_setup s;
	struct clawmd_group *g = NULL;
	struct clawmd_memory m;
	memset(&s, 0, sizeof(s));
	clawmd_memory_init(&m);
	if (!h || !(group = get_string(env, argv[0], "group", CLAWMD_EINPUT, NULL)) ||
	    !get_options(env, argv[1], "options", &opts) ||
	    !get_bool_opt(env, opts, "approveExternal", &ro.memory.approve_external) ||
	    !get_string_opt(env, opts, "format", &format) || !get_string_opt(env, opts, "home", &home) ||
	    !get_string_opt(env, opts, "runtime", &runtime))
		goto out;
	if (runtime && clawmd_runtime_parse(&ro.memory.runtime, runtime) < 0) {
		throw_runtime(env, runtime);
		goto out;
	}
	if (format && strcmp(format, "text") && strcmp(format, "files") && strcmp(format, "json")) {
		throw_usage(env, "format", "format: unknown format '%s' (text, files or json)", format);
		goto out;
	}
	/* The container's user tier is what a mount shows at its home. */
	if (home && home[0] != '/') {
		throw_usage(env, "home", "home: a container path, absolute, not '%s'", home);
		goto out;
	}
	if (!handle_recheck(env, h))
		goto out;
	ro.runtime_set = runtime != NULL;
	ro.memory.home = home;
	ro.memory.list_external = format && !strcmp(format, "json");
	struct clawmd_err err = CLAWMD_ERR_INIT;
	pthread_mutex_lock(&h->mu);
	int rc = clawmd_group_open(&g, &h->root, group, &err);
	if (rc == 0)
		rc = group_exists(g, &err);
	if (rc == 0)
		rc = clawmd_render_setup(&s, g, &ro, &err);
	if (rc == 0)
		rc = clawmd_memory_load(&m, &s.memory, &err);
	pthread_mutex_unlock(&h->mu);
	if (rc < 0)
		throw_err(env, rc, err.msg, err.sys_errno, g ? clawmd_group_path(g) : NULL, NULL);
	else if (!(ret = memory_js(env, &m, &s, format ? format : "text")))
		give_up(env, "render");
out:
	clawmd_memory_release(&m);
	clawmd_render_setup_release(&s);
	clawmd_group_free(g);
	handle_leave(h);
	free(group);
	free(format);
	free(home);
	free(runtime);
	return ret;
}

/* handle.mounts(group) -> what a container runner mounts for it
 * (clawmd_group_binds): [{what, host, container, readonly, type, sub,
 * present, shortForm}], in the order a runner applies them. */
static napi_value m_mounts(napi_env env, napi_callback_info info)
{
	size_t argc = 1, n = 0;
	napi_value argv[1] = {NULL}, ret = NULL, x;
	struct handle *h = handle_enter(env, info, &argc, argv, NULL, "mounts");
	char *group = NULL;
	struct clawmd_group *g = NULL;
	struct clawmd_bind *v = NULL;
	if (!h || !(group = get_string(env, argv[0], "group", CLAWMD_EINPUT, NULL)) ||
	    !handle_recheck(env, h))
		goto out;
	struct clawmd_err err = CLAWMD_ERR_INIT;
	pthread_mutex_lock(&h->mu);
	int rc = clawmd_group_open(&g, &h->root, group, &err);
	if (rc == 0)
		rc = group_exists(g, &err);
	if (rc == 0)
		rc = clawmd_group_binds(&v, &n, g, &err);
	pthread_mutex_unlock(&h->mu);
	if (rc < 0) {
		throw_err(env, rc, err.msg, err.sys_errno, g ? clawmd_group_path(g) : NULL, NULL);
		goto out;
	}
	if (napi_create_array_with_length(env, n, &ret) != napi_ok)
		goto fail;
	for (size_t i = 0; i < n; i++)
		if (napi_create_object(env, &x) != napi_ok ||
		    !set_str(env, x, "what", clawmd_bind_what_name(v[i].what)) ||
		    !set_str(env, x, "host", v[i].host) ||
		    !set_str(env, x, "container", v[i].container) ||
		    !set_bool(env, x, "readonly", v[i].readonly) ||
		    !set_str(env, x, "type", v[i].dir ? "directory" : "file") ||
		    !set_str(env, x, "sub", v[i].sub) ||
		    !set_bool(env, x, "present", v[i].present) ||
		    !set_bool(env, x, "shortForm", v[i].short_form) ||
		    !set_elem(env, ret, i, x))
			goto fail;
	goto out;
fail:
	ret = give_up(env, "mounts");
out:
	clawmd_binds_free(v, n);
	clawmd_group_free(g);
	handle_leave(h);
	free(group);
	return ret;
}

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
static napi_value m_check(napi_env env, napi_callback_info info)
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
static napi_value m_status(napi_env env, napi_callback_info info)
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
static napi_value m_groups(napi_env env, napi_callback_info info)
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

/* ---- the handle ----------------------------------------------------------- */

static napi_value m_close(napi_env env, napi_callback_info info)
{
	napi_value this_arg;
	if (napi_get_cb_info(env, info, NULL, NULL, &this_arg, NULL) != napi_ok)
		return NULL;
	struct handle *h = unwrap_handle(env, this_arg);
	if (!h)
		return NULL;
	if (h->open) {
		h->open = false;
		if (!h->busy && !h->calls)
			handle_close(h); /* else the last of them does */
	}
	return NULL; /* undefined; closing twice is fine */
}

/* h.root and h.groupsDir: no JS runs between the check and the read. */
static napi_value m_path(napi_env env, napi_callback_info info, bool groups)
{
	napi_value this_arg, v = NULL;
	if (napi_get_cb_info(env, info, NULL, NULL, &this_arg, NULL) != napi_ok)
		return NULL;
	struct handle *h = unwrap_handle(env, this_arg);
	if (h && !h->open)
		throw_usage(env, NULL, "the clawmd handle is closed");
	else if (h && napi_create_string_utf8(env, groups ? h->root.lay.groups : h->root.lay.root,
					      NAPI_AUTO_LENGTH, &v) != napi_ok)
		v = give_up(env, groups ? "groupsDir" : "root");
	return v;
}

static napi_value m_root(napi_env env, napi_callback_info info)
{
	return m_path(env, info, false);
}

static napi_value m_groups_dir(napi_env env, napi_callback_info info)
{
	return m_path(env, info, true);
}

/* handle.warnings: clawmd.json's (an unknown key, with the nearest
 * spelling), as every command prints them first, in the library's words. */
static napi_value m_warnings(napi_env env, napi_callback_info info)
{
	napi_value this_arg, v = NULL, s;
	if (napi_get_cb_info(env, info, NULL, NULL, &this_arg, NULL) != napi_ok)
		return NULL;
	struct handle *h = unwrap_handle(env, this_arg);
	if (h && !h->open) {
		throw_usage(env, NULL, "the clawmd handle is closed");
		return NULL;
	}
	if (!h)
		return NULL;
	if (napi_create_array(env, &v) != napi_ok)
		return give_up(env, "warnings");
	for (size_t i = 0; i < h->root.lay.nunknown_keys; i++) {
		char *m = clawmd_layout_unknown_message(&h->root.lay, i);
		bool ok = napi_create_string_utf8(env, m, NAPI_AUTO_LENGTH, &s) == napi_ok &&
			  set_elem(env, v, i, s);
		free(m);
		if (!ok)
			return give_up(env, "warnings");
	}
	return v;
}

/* clawmd.validName(name): the library's one name check, for a host that
 * must check a name before it uses it in a path of its own. */
static napi_value f_valid_name(napi_env env, napi_callback_info info)
{
	size_t argc = 1, len = 0;
	napi_value argv[1] = {NULL}, ret;
	napi_valuetype t = napi_undefined;
	bool ok = false;
	char buf[72];
	napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
	/* a string N-API could not read is no answer, not a false one */
	if (argv[0] && napi_typeof(env, argv[0], &t) != napi_ok)
		return give_up(env, "validName");
	if (t == napi_string) {
		if (napi_get_value_string_utf8(env, argv[0], NULL, 0, &len) != napi_ok ||
		    (len <= 64 &&
		     napi_get_value_string_utf8(env, argv[0], buf, sizeof(buf), &len) != napi_ok))
			return give_up(env, "validName");
		ok = len <= 64 && clawmd_name_valid(buf, len) && !memchr(buf, '\0', len);
	}
	return napi_get_boolean(env, ok, &ret) == napi_ok ? ret : give_up(env, "validName");
}

static void handle_finalize(napi_env env, void *data, void *hint)
{
	struct handle *h = data;
	struct addon *ad = NULL;
	if (napi_get_instance_data(env, (void **)&ad) == napi_ok && ad)
		for (size_t i = 0; i < sizeof(ad->last) / sizeof(*ad->last); i++)
			if (ad->last[i].h == h)
				ad->last[i].h = NULL;
	if (h->open)
		clawmd_root_release(&h->root); /* nothing runs: no work holds it */
	pthread_mutex_destroy(&h->mu);
	free(h);
}

/* The class behind handles: only open() makes a usable one. */
static napi_value handle_ctor(napi_env env, napi_callback_info info)
{
	napi_value this_arg;
	napi_get_cb_info(env, info, NULL, NULL, &this_arg, NULL);
	return this_arg;
}

/* An option value as clawmd.json writes it: a string, boolean, number, or
 * (setting_sources) an array of strings.  NULL after throwing. */
static char *option_value(napi_env env, napi_value v, const char *key)
{
	napi_valuetype t = napi_undefined;
	bool is_array = false;
	napi_typeof(env, v, &t);
	if (t == napi_string)
		return get_string(env, v, key, CLAWMD_EUSAGE, NULL);
	if (t == napi_boolean) {
		bool b = false;
		if (napi_get_value_bool(env, v, &b) != napi_ok) {
			failed(env, key);
			return NULL;
		}
		return clawmd_xstrdup(b ? "true" : "false");
	}
	if (t == napi_number) {
		double d = 0;
		if (napi_get_value_double(env, v, &d) != napi_ok) {
			failed(env, key);
			return NULL;
		}
		return clawmd_xasprintf("%.17g", d);
	}
	if (napi_is_array(env, v, &is_array) == napi_ok && is_array) {
		uint32_t len = 0;
		struct clawmd_buf b = CLAWMD_BUF_INIT;
		if (!get_length(env, v, key, 64, &len))
			return NULL;
		clawmd_buf_puts(&b, "");
		for (uint32_t i = 0; i < len; i++) {
			napi_value e;
			char *s = get_own_element(env, v, i, &e) ? get_string(env, e, key, CLAWMD_EUSAGE, NULL)
								  : NULL;
			if (!s) {
				clawmd_buf_release(&b);
				return NULL;
			}
			if (i)
				clawmd_buf_putc(&b, ',');
			clawmd_buf_puts(&b, s);
			free(s);
		}
		return clawmd_buf_detach(&b);
	}
	throw_usage(env, key, "%s: expected a string, boolean or number, not %s", key, type_name(t));
	return NULL;
}

/* The own enumerable string keys of an object; false after throwing. */
static bool own_keys(napi_env env, napi_value obj, napi_value *keys, uint32_t *n, const char *what)
{
	if (napi_get_all_property_names(env, obj, napi_key_own_only,
					napi_key_enumerable | napi_key_skip_symbols,
					napi_key_numbers_to_strings, keys) != napi_ok ||
	    napi_get_array_length(env, *keys, n) != napi_ok)
		return failed(env, what);
	return true;
}

/* open()'s options, read whole before the root is: (key, value) pairs as
 * clawmd.json names them, the preset first. */
struct layout_opts {
	char **keys, **values;
	size_t n, cap;
	bool watch;
};

static void layout_opts_release(struct layout_opts *lo)
{
	clawmd_strv_free(lo->keys, lo->n);
	clawmd_strv_free(lo->values, lo->n);
}

/* Take (key, value-of-v); a nullish v is no setting.  False after throwing. */
static bool layout_opt(napi_env env, struct layout_opts *lo, char *key, napi_value v)
{
	char *val = NULL;
	if (!is_nullish(env, v) && !(val = option_value(env, v, key))) {
		free(key);
		return false;
	}
	if (!val) {
		free(key);
		return true;
	}
	if (lo->n == lo->cap) {
		lo->cap = lo->cap ? 2 * lo->cap : 8;
		lo->keys = realloc(lo->keys, lo->cap * sizeof(char *));
		lo->values = realloc(lo->values, lo->cap * sizeof(char *));
		if (!lo->keys || !lo->values)
			abort();
	}
	lo->keys[lo->n] = key;
	lo->values[lo->n++] = val;
	return true;
}

/* The own keys of `obj`, each with `prefix` ("container.") into lo. */
static bool layout_object(napi_env env, struct layout_opts *lo, napi_value obj, const char *prefix)
{
	napi_value keys;
	uint32_t n = 0;
	if (!own_keys(env, obj, &keys, &n, prefix ? "container" : "options"))
		return false;
	for (uint32_t i = 0; i < n; i++) {
		napi_value kv, v;
		if (napi_get_element(env, keys, i, &kv) != napi_ok)
			return failed(env, "options");
		char *key = get_string(env, kv, "options", CLAWMD_EUSAGE, NULL);
		if (!key)
			return false;
		if (!get_own(env, obj, key, &v)) {
			free(key);
			return false;
		}
		if (prefix) {
			char *full = clawmd_xasprintf("%s%s", prefix, key);
			free(key);
			if (!layout_opt(env, lo, full, v))
				return false;
		} else if (!strcmp(key, "watch")) {
			free(key);
			if (!get_bool_opt(env, obj, "watch", &lo->watch))
				return false;
		} else if (!strcmp(key, "container") && v) {
			napi_valuetype t = napi_undefined;
			napi_typeof(env, v, &t);
			free(key);
			if (t != napi_object) {
				throw_usage(env, "container", "container: expected an object, not %s",
					    type_name(t));
				return false;
			}
			if (!layout_object(env, lo, v, "container."))
				return false;
		} else if (!strcmp(key, "mounts")) {
			free(key);
			throw_usage(env, "mounts", "mounts: give extra mounts in ROOT/clawmd.json");
			return false;
		} else if (!layout_opt(env, lo, key, v)) {
			return false;
		}
	}
	return true;
}

/* options: the layout keys as clawmd.json names them (the preset first, so
 * that the others refine it, as on the command line), `container` as an
 * object or "container.base" keys, and `watch`; own properties only. */
static bool read_options(napi_env env, napi_value opts, struct layout_opts *lo)
{
	return !opts || layout_object(env, lo, opts, NULL);
}

static int apply_options(napi_env env, struct clawmd_root *root, const struct layout_opts *lo)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < lo->n; i++) {
			if ((pass == 0) != !strcmp(lo->keys[i], "preset"))
				continue;
			int rc = clawmd_layout_set(&root->lay, lo->keys[i], lo->values[i], &err);
			if (rc < 0) {
				throw_err(env, rc, err.msg, err.sys_errno, NULL, lo->keys[i]);
				return rc;
			}
		}
	return 0;
}

/* clawmd.open(root, options): every argument read before the root is. */
static napi_value f_open(napi_env env, napi_callback_info info)
{
	size_t argc = 2;
	napi_value argv[2] = {NULL, NULL}, opts, cls, obj = NULL;
	struct addon *ad = NULL;
	struct layout_opts lo = {0};
	char *dir = NULL;
	if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok)
		return NULL;
	if (!is_nullish(env, argv[0]) && !(dir = get_string(env, argv[0], "root", CLAWMD_EUSAGE, NULL)))
		return NULL;
	if (!get_options(env, argv[1], "options", &opts) || !read_options(env, opts, &lo)) {
		layout_opts_release(&lo);
		free(dir);
		return NULL;
	}
	struct handle *h = calloc(1, sizeof(*h));
	if (!h)
		abort();
	pthread_mutex_init(&h->mu, NULL);
	clawmd_root_init(&h->root);
	struct clawmd_err err = CLAWMD_ERR_INIT;
	if (clawmd_root_load(&h->root, dir, &err) < 0) {
		throw_err(env, err.code, err.msg, err.sys_errno, dir, NULL);
		goto fail;
	}
	if (apply_options(env, &h->root, &lo) < 0)
		goto fail;
	if (lo.watch)
		h->root.pass = clawmd_pass_watch();
	h->open = true;
	napi_get_instance_data(env, (void **)&ad);
	if (napi_get_reference_value(env, ad->handle_class, &cls) != napi_ok ||
	    napi_new_instance(env, cls, 0, NULL, &obj) != napi_ok ||
	    napi_wrap(env, obj, h, handle_finalize, NULL, NULL) != napi_ok) {
		throw_err(env, CLAWMD_EFS, "open: could not make the handle", 0, NULL, NULL);
		goto fail;
	}
	/* Wrapped: from here the finalizer owns h. */
	if (napi_type_tag_object(env, obj, &handle_tag) != napi_ok) {
		h->open = false;
		clawmd_root_release(&h->root);
		throw_err(env, CLAWMD_EFS, "open: could not tag the handle", 0, NULL, NULL);
		obj = NULL;
	}
	layout_opts_release(&lo);
	free(dir);
	return obj;
fail:
	clawmd_root_release(&h->root);
	pthread_mutex_destroy(&h->mu);
	free(h);
	layout_opts_release(&lo);
	free(dir);
	return NULL;
}

/* clawmd.setErrorClass(ClawmdError): index.js, once per environment. */
static napi_value f_set_error_class(napi_env env, napi_callback_info info)
{
	size_t argc = 1;
	napi_value argv[1] = {NULL};
	napi_valuetype t = napi_undefined;
	struct addon *ad = NULL;
	napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
	napi_get_instance_data(env, (void **)&ad);
	if (!argv[0] || napi_typeof(env, argv[0], &t) != napi_ok || t != napi_function) {
		throw_usage(env, NULL, "setErrorClass: expected a class, not %s", type_name(t));
		return NULL;
	}
	if (ad->error_class)
		napi_delete_reference(env, ad->error_class);
	if (napi_create_reference(env, argv[0], 1, &ad->error_class) != napi_ok) {
		ad->error_class = NULL; /* unwritten: plain Errors then */
		return give_up(env, "setErrorClass");
	}
	return NULL;
}

static void addon_finalize(napi_env env, void *data, void *hint)
{
	struct addon *ad = data;
	if (ad->error_class)
		napi_delete_reference(env, ad->error_class);
	if (ad->handle_class)
		napi_delete_reference(env, ad->handle_class);
	if (ad->result)
		napi_delete_reference(env, ad->result);
	if (ad->stringify)
		napi_delete_reference(env, ad->stringify);
	for (size_t i = 0; i < sizeof(ad->last) / sizeof(*ad->last); i++)
		if (ad->last[i].obj)
			napi_delete_reference(env, ad->last[i].obj);
	free(ad);
}

/* What NAPI_MODULE_INIT() defines (node_api.h gives them no prototype). */
int32_t node_api_module_get_api_version_v1(void);
napi_value napi_register_module_v1(napi_env env, napi_value exports);

/* Loading failed part way (a worker terminated while it required the
 * addon, or V8 out of memory): an error, never a half-made exports. */
static napi_value init_failed(napi_env env)
{
	bool pending = false;
	if (napi_is_exception_pending(env, &pending) == napi_ok && !pending)
		napi_throw_error(env, "EFS", "clawmd: the addon could not be initialized");
	return NULL;
}

NAPI_MODULE_INIT()
{
	/* the library would end the process at first use: refuse to load */
	const char *missing = clawmd_libraries_missing();
	if (missing) {
		char msg[256];
		snprintf(msg, sizeof(msg),
			 "clawmd: cannot load %s (install cJSON and md4c: libcjson1, libmd4c0)", missing);
		napi_throw_error(env, "EFS", msg);
		return NULL;
	}
	struct addon *ad = calloc(1, sizeof(*ad));
	if (!ad)
		abort();
	if (napi_set_instance_data(env, ad, addon_finalize, NULL) != napi_ok) {
		free(ad);
		return init_failed(env);
	}
	/* From here the environment owns ad: whatever is made below is let go
	 * by addon_finalize, also when a step fails. */
	napi_property_descriptor methods[] = {
		{"compose", NULL, m_compose, NULL, NULL, NULL, napi_default_method, NULL},
		{"composeAll", NULL, m_compose_all, NULL, NULL, NULL, napi_default_method, NULL},
		{"migrate", NULL, m_migrate, NULL, NULL, NULL, napi_default_method, NULL},
		{"render", NULL, m_render, NULL, NULL, NULL, napi_default_method, NULL},
		{"check", NULL, m_check, NULL, NULL, NULL, napi_default_method, NULL},
		{"status", NULL, m_status, NULL, NULL, NULL, napi_default_method, NULL},
		{"groups", NULL, m_groups, NULL, NULL, NULL, napi_default_method, NULL},
		{"mounts", NULL, m_mounts, NULL, NULL, NULL, napi_default_method, NULL},
		{"close", NULL, m_close, NULL, NULL, NULL, napi_default_method, NULL},
		{"root", NULL, NULL, m_root, NULL, NULL, napi_enumerable, NULL},
		{"groupsDir", NULL, NULL, m_groups_dir, NULL, NULL, napi_enumerable, NULL},
		{"warnings", NULL, NULL, m_warnings, NULL, NULL, napi_enumerable, NULL},
	};
	static const struct {
		const char *name;
		napi_callback fn;
	} functions[] = {
		{"open", f_open},
		{"validName", f_valid_name},
		{"setErrorClass", f_set_error_class},
	};
	napi_value cls, fn, ver;
	/* A reference not made is left NULL (its output unwritten): the
	 * finalizer deletes only what was made. */
	if (napi_define_class(env, "Handle", NAPI_AUTO_LENGTH, handle_ctor, NULL,
			      sizeof(methods) / sizeof(*methods), methods, &cls) != napi_ok)
		return init_failed(env);
	if (napi_create_reference(env, cls, 1, &ad->handle_class) != napi_ok) {
		ad->handle_class = NULL;
		return init_failed(env);
	}
	if (napi_set_named_property(env, exports, "Handle", cls) != napi_ok)
		return init_failed(env);
	for (size_t i = 0; i < sizeof(functions) / sizeof(*functions); i++)
		if (napi_create_function(env, functions[i].name, NAPI_AUTO_LENGTH, functions[i].fn,
					 NULL, &fn) != napi_ok ||
		    napi_set_named_property(env, exports, functions[i].name, fn) != napi_ok)
			return init_failed(env);
	if (napi_create_string_utf8(env, CLAWMD_VERSION, NAPI_AUTO_LENGTH, &ver) != napi_ok ||
	    napi_set_named_property(env, exports, "version", ver) != napi_ok)
		return init_failed(env);
	/* compose's result made by a literal; where the environment compiles
	 * no code (it threw), made property by property instead */
	static const char result_src[] = "(function (group, path, changed, changes, warnings) {"
					 " return { group, path, changed, changes: changes || [],"
					 " warnings: warnings || [] }; })";
	napi_value src, global, json;
	napi_valuetype t;
	if (napi_create_string_utf8(env, result_src, NAPI_AUTO_LENGTH, &src) != napi_ok ||
	    napi_run_script(env, src, &fn) != napi_ok ||
	    napi_create_reference(env, fn, 1, &ad->result) != napi_ok) {
		napi_value ignored;
		napi_get_and_clear_last_exception(env, &ignored);
		ad->result = NULL;
	}
	if (napi_get_global(env, &global) == napi_ok &&
	    napi_get_named_property(env, global, "JSON", &json) == napi_ok &&
	    napi_get_named_property(env, json, "stringify", &fn) == napi_ok &&
	    napi_typeof(env, fn, &t) == napi_ok && t == napi_function &&
	    napi_create_reference(env, fn, 1, &ad->stringify) != napi_ok)
		ad->stringify = NULL;
	return exports;
}
