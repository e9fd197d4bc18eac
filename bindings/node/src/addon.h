/*
 * addon.h - what the files of the Node addon share (bindings/node/src):
 * the per-environment instance data, the handle behind a JS object, and
 * the helpers each file's methods use.  Private to the addon: only the
 * module's two N-API entry points are exported (exports.map).
 *
 *	addon.c    the module: its exports, the Handle class, setErrorClass
 *	open.c     open(root, options): options as layout keys, the handle made
 *	handle.c   a handle's calls (its mutex, open or closed), close and its getters
 *	js.c       JS values made and read: results, errors, arguments
 *	compose.c  compose and composeAll
 *	migrate.c  migrate
 *	render.c   render and mounts
 *	check.c    check, status and groups
 */
#ifndef CLAWMD_NODE_ADDON_H
#define CLAWMD_NODE_ADDON_H

#define NAPI_VERSION 8
#include <node_api.h>

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
	/* The answer of the last compose that changed nothing (main thread
	 * only): the same again is made of the same JS strings (compose.c,
	 * kept_js()). */
	napi_ref kept_js;
	char *kept_group, *kept_path, **kept_warnings;
	size_t kept_n;
};

/* Every handle is tagged when open() makes it (handle.c): an object some
 * other addon wrapped is never read as one. */
extern const napi_type_tag handle_tag;

/* js.c: errors, arguments, JS values */
bool set_val(napi_env env, napi_value obj, const char *key, napi_value v);
bool set_elem(napi_env env, napi_value arr, size_t i, napi_value v);
bool set_str(napi_env env, napi_value obj, const char *key, const char *s);
bool set_num(napi_env env, napi_value obj, const char *key, double d);
bool set_bool(napi_env env, napi_value obj, const char *key, bool b);
napi_value make_error(napi_env env, int code, const char *msg, int sys_errno,
		           const char *path, const char *key);
void throw_err(napi_env env, int code, const char *msg, int sys_errno, const char *path,
	             const char *key);
void throw_usage(napi_env env, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
napi_value give_up(napi_env env, const char *method);
const char *type_name(napi_valuetype t);
bool is_nullish(napi_env env, napi_value v);
char *get_string_sized(napi_env env, napi_value v, const char *what, int nul_code,
		             size_t *lenp, size_t guess);
char *get_string(napi_env env, napi_value v, const char *what, int nul_code, size_t *lenp);
bool get_options(napi_env env, napi_value v, const char *what, napi_value *out);
bool pending(napi_env env);
bool failed(napi_env env, const char *what);
bool get_own(napi_env env, napi_value obj, const char *key, napi_value *out);
bool get_opt(napi_env env, napi_value opts, const char *key, napi_value *out);
bool get_own_element(napi_env env, napi_value arr, uint32_t i, napi_value *out);
bool get_length(napi_env env, napi_value arr, const char *what, uint32_t max, uint32_t *len);
bool get_bool_opt(napi_env env, napi_value opts, const char *key, bool *out);
bool get_string_opt(napi_env env, napi_value opts, const char *key, char **out);
bool get_groups(napi_env env, napi_value v, char ***out, size_t *n);
char *stringify(napi_env env, napi_value v, size_t *len, size_t guess);
napi_value strv_js(napi_env env, char *const *v, size_t n);

/* handle.c: a handle's calls */
struct handle *handle_enter(napi_env env, napi_callback_info info, size_t *argc,
			       napi_value *argv, napi_value *self, const char *method);
void handle_leave(struct handle *h);
bool handle_recheck(napi_env env, struct handle *h);
bool pass_begin(struct handle *h);
void pass_end(struct handle *h, bool made);
void handle_close(struct handle *h);
napi_value m_close(napi_env env, napi_callback_info info);
napi_value m_root(napi_env env, napi_callback_info info);
napi_value m_groups_dir(napi_env env, napi_callback_info info);
napi_value m_warnings(napi_env env, napi_callback_info info);
void handle_finalize(napi_env env, void *data, void *hint);
void kept_drop(napi_env env, struct handle *h);

/* open.c */
napi_value f_open(napi_env env, napi_callback_info info);

/* compose.c */
napi_value m_compose(napi_env env, napi_callback_info info);
napi_value m_compose_text(napi_env env, napi_callback_info info);
napi_value m_compose_all(napi_env env, napi_callback_info info);

/* migrate.c */
napi_value m_migrate(napi_env env, napi_callback_info info);

/* render.c */
napi_value m_render(napi_env env, napi_callback_info info);
napi_value m_mounts(napi_env env, napi_callback_info info);

/* check.c */
napi_value m_check(napi_env env, napi_callback_info info);
napi_value m_status(napi_env env, napi_callback_info info);
napi_value m_groups(napi_env env, napi_callback_info info);

#endif
