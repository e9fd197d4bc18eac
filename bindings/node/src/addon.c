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
#include "addon.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The class behind handles: only open() makes a usable one. */
static napi_value handle_ctor(napi_env env, napi_callback_info info)
{
	napi_value this_arg;
	napi_get_cb_info(env, info, NULL, NULL, &this_arg, NULL);
	return this_arg;
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

/* The Handle class, whose methods mirror the commands, kept for open(). */
static bool init_handle_class(napi_env env, struct addon *ad, napi_value exports)
{
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
		{NULL, NULL, m_compose_text, NULL, NULL, NULL, napi_default_method, NULL}, /* last */
	};
	napi_value cls, text;
	/* compose for the adapter (compose.c, m_compose_text), keyed by a
	 * symbol: exports.composeText, not enumerable, is how index.js
	 * reaches it */
	if (napi_create_symbol(env, NULL, &text) != napi_ok)
		return false;
	methods[sizeof(methods) / sizeof(*methods) - 1].name = text;
	/* A reference not made is left NULL (its output unwritten): the
	 * finalizer deletes only what was made. */
	if (napi_define_class(env, "Handle", NAPI_AUTO_LENGTH, handle_ctor, NULL,
			      sizeof(methods) / sizeof(*methods), methods, &cls) != napi_ok)
		return false;
	napi_property_descriptor hidden = {"composeText", NULL, NULL, NULL, NULL, text, napi_default, NULL};
	if (napi_define_properties(env, exports, 1, &hidden) != napi_ok)
		return false;
	if (napi_create_reference(env, cls, 1, &ad->handle_class) != napi_ok) {
		ad->handle_class = NULL;
		return false;
	}
	return napi_set_named_property(env, exports, "Handle", cls) == napi_ok;
}

/* open, validName, setErrorClass and version. */
static bool init_functions(napi_env env, napi_value exports)
{
	static const struct {
		const char *name;
		napi_callback fn;
	} functions[] = {
		{"open", f_open},
		{"validName", f_valid_name},
		{"setErrorClass", f_set_error_class},
	};
	napi_value fn, ver;
	for (size_t i = 0; i < sizeof(functions) / sizeof(*functions); i++)
		if (napi_create_function(env, functions[i].name, NAPI_AUTO_LENGTH, functions[i].fn,
					 NULL, &fn) != napi_ok ||
		    napi_set_named_property(env, exports, functions[i].name, fn) != napi_ok)
			return false;
	return napi_create_string_utf8(env, CLAWMD_VERSION, NAPI_AUTO_LENGTH, &ver) == napi_ok &&
	       napi_set_named_property(env, exports, "version", ver) == napi_ok;
}

/* What a no-op compose would otherwise look up at each call; either may
 * be missing, and the call then does without. */
static void init_shortcuts(napi_env env, struct addon *ad)
{
	/* compose's result made by a literal, of its values or of what the
	 * handle kept of the same answer (compose.c, kept_js()), its warnings
	 * a copy of the list handed in; where the environment compiles no
	 * code (it threw), made property by property instead */
	static const char result_src[] = "(function (group, path, changed, changes, warnings, kept) {"
					 " if (kept) { group = kept.group; path = kept.path;"
					 " warnings = kept.warnings; } const w = [];"
					 " for (let i = 0; warnings && i < warnings.length; i++)"
					 " w[i] = warnings[i]; return { group, path, changed,"
					 " changes: changes || [], warnings: w }; })";
	napi_value src, global, json, fn;
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
	if (!init_handle_class(env, ad, exports) || !init_functions(env, exports))
		return init_failed(env);
	init_shortcuts(env, ad);
	return exports;
}
