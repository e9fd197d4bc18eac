/* handle.c - a handle's calls: unwrapped from its object only when open()
 * made it, one thread at a time on its root (its mutex), a pass for a call
 * over many groups; close() and the handle's getters. */
#include "addon.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Every handle is tagged when open() makes it: an object some other addon
 * wrapped is never read as one. */
const napi_type_tag handle_tag = {0x636c61776d642e6eULL, 0x6f64652e68616e64ULL};

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
struct handle *handle_enter(napi_env env, napi_callback_info info, size_t *argc,
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

void handle_leave(struct handle *h)
{
	if (h && --h->calls == 0 && !h->busy && !h->open)
		handle_close(h); /* close() came during the call */
}

/* The arguments are read: false after throwing when the handle was closed
 * meanwhile. */
bool handle_recheck(napi_env env, struct handle *h)
{
	if (h->open)
		return true;
	throw_usage(env, NULL, "the clawmd handle was closed during the call (by the arguments' "
		    "getters)");
	return false;
}

/* A pass for a call over many groups, unless the root has its own (the
 * watched one): the host's sources are read once.  Under h->mu. */
bool pass_begin(struct handle *h)
{
	if (h->root.pass)
		return false;
	h->root.pass = clawmd_pass_new();
	return true;
}

void pass_end(struct handle *h, bool made)
{
	if (made) {
		clawmd_pass_free(h->root.pass);
		h->root.pass = NULL;
	}
}

void handle_close(struct handle *h)
{
	pthread_mutex_lock(&h->mu);
	clawmd_root_release(&h->root);
	pthread_mutex_unlock(&h->mu);
}

/* ---- the handle ----------------------------------------------------------- */

napi_value m_close(napi_env env, napi_callback_info info)
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

napi_value m_root(napi_env env, napi_callback_info info)
{
	return m_path(env, info, false);
}

napi_value m_groups_dir(napi_env env, napi_callback_info info)
{
	return m_path(env, info, true);
}

/* handle.warnings: clawmd.json's (an unknown key, with the nearest
 * spelling), as every command prints them first, in the library's words. */
napi_value m_warnings(napi_env env, napi_callback_info info)
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

/* Let go of what handle h kept (compose.c, kept_js()). */
void kept_drop(napi_env env, struct handle *h)
{
	if (h->kept_js)
		napi_delete_reference(env, h->kept_js);
	h->kept_js = NULL;
	free(h->kept_group);
	free(h->kept_path);
	clawmd_strv_free(h->kept_warnings, h->kept_n);
	h->kept_group = h->kept_path = NULL;
	h->kept_warnings = NULL;
	h->kept_n = 0;
}

void handle_finalize(napi_env env, void *data, void *hint)
{
	struct handle *h = data;
	struct addon *ad = NULL;
	if (napi_get_instance_data(env, (void **)&ad) == napi_ok && ad)
		for (size_t i = 0; i < sizeof(ad->last) / sizeof(*ad->last); i++)
			if (ad->last[i].h == h)
				ad->last[i].h = NULL;
	if (h->open)
		clawmd_root_release(&h->root); /* nothing runs: no work holds it */
	kept_drop(env, h);
	pthread_mutex_destroy(&h->mu);
	free(h);
}
