/* js.c - the addon's JS side: every result whole or none (the setters and
 * makers below fail at the first N-API call that does), a ClawmdError for
 * each failure, and every argument checked as it is read. */
#include "addon.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
bool set_val(napi_env env, napi_value obj, const char *key, napi_value v)
{
	return v && napi_set_named_property(env, obj, key, v) == napi_ok;
}

/* arr[i] = v, v NULL when making it failed. */
bool set_elem(napi_env env, napi_value arr, size_t i, napi_value v)
{
	return v && napi_set_element(env, arr, (uint32_t)i, v) == napi_ok;
}

bool set_str(napi_env env, napi_value obj, const char *key, const char *s)
{
	napi_value v;
	if (s ? napi_create_string_utf8(env, s, NAPI_AUTO_LENGTH, &v) != napi_ok
	      : napi_get_null(env, &v) != napi_ok)
		return false;
	return napi_set_named_property(env, obj, key, v) == napi_ok;
}

bool set_num(napi_env env, napi_value obj, const char *key, double d)
{
	napi_value v;
	return napi_create_double(env, d, &v) == napi_ok &&
	       napi_set_named_property(env, obj, key, v) == napi_ok;
}

bool set_bool(napi_env env, napi_value obj, const char *key, bool b)
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
napi_value make_error(napi_env env, int code, const char *msg, int sys_errno,
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

void throw_err(napi_env env, int code, const char *msg, int sys_errno, const char *path,
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

void throw_usage(napi_env env, const char *key, const char *fmt, ...)
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
napi_value give_up(napi_env env, const char *method)
{
	char msg[128];
	snprintf(msg, sizeof(msg), "%s: could not make the result (the environment is being torn "
		 "down, or out of memory)", method);
	throw_err(env, CLAWMD_EFS, msg, 0, NULL, NULL);
	return NULL;
}

/* ---- arguments -------------------------------------------------------- */

const char *type_name(napi_valuetype t)
{
	static const char *const names[] = {"undefined", "null",   "a boolean",  "a number",
					    "a string",  "a symbol", "an object", "a function",
					    "an external", "a bigint"};
	return (unsigned)t < sizeof(names) / sizeof(*names) ? names[t] : "a value";
}

bool is_nullish(napi_env env, napi_value v)
{
	napi_valuetype t;
	return !v || (napi_typeof(env, v, &t) == napi_ok && (t == napi_undefined || t == napi_null));
}

/* A JS string as a C string (caller frees); NULL after throwing.  `what`
 * names the argument; a NUL byte inside is refused (the C side would see
 * a shorter name than the caller gave). */
char *get_string_sized(napi_env env, napi_value v, const char *what, int nul_code,
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

char *get_string(napi_env env, napi_value v, const char *what, int nul_code, size_t *lenp)
{
	return get_string_sized(env, v, what, nul_code, lenp, 256);
}

/* An options argument: undefined, null or an object.  *out is NULL when
 * none was given.  False after throwing. */
bool get_options(napi_env env, napi_value v, const char *what, napi_value *out)
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

bool pending(napi_env env)
{
	bool p = false;
	napi_is_exception_pending(env, &p);
	return p;
}

/* A N-API call on a caller's object failed: a getter or a proxy trap threw
 * (that error stays and is the one the caller sees), or N-API refused. */
bool failed(napi_env env, const char *what)
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
bool get_own(napi_env env, napi_value obj, const char *key, napi_value *out)
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
bool get_opt(napi_env env, napi_value opts, const char *key, napi_value *out)
{
	*out = NULL;
	return !opts || get_own(env, opts, key, out);
}

/* Element i of an array, own only: a hole is undefined (*out NULL, as
 * get_own has it), never what Array.prototype or Object.prototype holds at
 * that index. */
bool get_own_element(napi_env env, napi_value arr, uint32_t i, napi_value *out)
{
	char key[16];
	snprintf(key, sizeof(key), "%u", i);
	return get_own(env, arr, key, out);
}

/* The length of an array, refused past `max` (an array of four billion
 * holes must not cost four billion pointers). */
bool get_length(napi_env env, napi_value arr, const char *what, uint32_t max, uint32_t *len)
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
bool get_bool_opt(napi_env env, napi_value opts, const char *key, bool *out)
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
bool get_string_opt(napi_env env, napi_value opts, const char *key, char **out)
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
bool get_groups(napi_env env, napi_value v, char ***out, size_t *n)
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
	char **names = calloc(len ? len : 1, sizeof(char *));
	if (!names)
		abort();
	for (uint32_t i = 0; i < len; i++) {
		napi_value e;
		char what[32]; /* the element named, as a container.json key is */
		snprintf(what, sizeof(what), "groups[%" PRIu32 "]", i);
		if (!get_own_element(env, v, i, &e) ||
		    !(names[i] = get_string(env, e, what, CLAWMD_EINPUT, NULL))) {
			clawmd_strv_free(names, i);
			return false;
		}
	}
	*out = names;
	*n = len;
	return true;
}

/* JSON.stringify(v), for a config given as an object (caller frees). */
char *stringify(napi_env env, napi_value v, size_t *len, size_t guess)
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
napi_value strv_js(napi_env env, char *const *v, size_t n)
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
