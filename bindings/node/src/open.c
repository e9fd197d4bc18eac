/* open.c - clawmd.open(root, options): the options read as layout keys
 * (clawmd.json's names), every one before the root is loaded, and the
 * handle made. */
#include "addon.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
napi_value f_open(napi_env env, napi_callback_info info)
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
