/*
 * dlload.c - cJSON and md4c, loaded (dl.h) the first time one of their
 * functions is called.
 *
 * Why: a no-op compose (the per-spawn path) needs neither library, and
 * every shared library linked into the program costs its dynamic loading
 * (open, mmap, relocations, symbol lookup) at every process start, whether
 * the run uses it or not.  Debian ships no static libcjson or libmd4c, so
 * they cannot be linked in; libyaml, which Debian does ship as libyaml.a,
 * is linked statically instead (see the Makefile).
 *
 * How: this file defines every function of <cJSON.h> and md4c's md_parse()
 * under its own name, with the prototype the header declares (so each one
 * is type-checked), as a forwarder that resolves the real function once.
 * Callers are unchanged: they include the library's header and call it.
 * The libraries are looked up through their handle (dl.h), so a forwarder
 * never finds itself.
 *
 * A library that cannot be loaded: there is no error path through
 * cJSON_CreateObject(), and the library never prints or exits.  So each
 * entry point that needs one asks first, clawmd_dl_need_cjson() or
 * clawmd_dl_need_md4c() (dl.h), which turn the failure into the caller's
 * EFS error; a forwarder called anyway returns zero (NULL, 0, false) and
 * calls nothing.  To use a function that is not listed here, add one line
 * to its list.
 */
#include <cJSON.h>
#include <md4c.h>

#include "sys/dl.h"
#include "clawmd/base.h"

#include <pthread.h>
#include <stdio.h>

/* X(return type, name, (parameters), (arguments)); V() for void ones. */
#define CLAWMD_CJSON_FUNCS(X, V) \
	X(const char*, cJSON_Version, (void), ()) \
	V(cJSON_InitHooks, (cJSON_Hooks* hooks), (hooks)) \
	X(cJSON *, cJSON_Parse, (const char *value), (value)) \
	X(cJSON *, cJSON_ParseWithLength, (const char *value, size_t buffer_length), (value, buffer_length)) \
	X(cJSON *, cJSON_ParseWithOpts, (const char *value, const char **return_parse_end, cJSON_bool require_null_terminated), (value, return_parse_end, require_null_terminated)) \
	X(cJSON *, cJSON_ParseWithLengthOpts, (const char *value, size_t buffer_length, const char **return_parse_end, cJSON_bool require_null_terminated), (value, buffer_length, return_parse_end, require_null_terminated)) \
	X(char *, cJSON_Print, (const cJSON *item), (item)) \
	X(char *, cJSON_PrintUnformatted, (const cJSON *item), (item)) \
	X(char *, cJSON_PrintBuffered, (const cJSON *item, int prebuffer, cJSON_bool fmt), (item, prebuffer, fmt)) \
	X(cJSON_bool, cJSON_PrintPreallocated, (cJSON *item, char *buffer, const int length, const cJSON_bool format), (item, buffer, length, format)) \
	X(int, cJSON_GetArraySize, (const cJSON *array), (array)) \
	X(cJSON *, cJSON_GetArrayItem, (const cJSON *array, int index), (array, index)) \
	X(cJSON *, cJSON_GetObjectItem, (const cJSON * const object, const char * const string), (object, string)) \
	X(cJSON *, cJSON_GetObjectItemCaseSensitive, (const cJSON * const object, const char * const string), (object, string)) \
	X(cJSON_bool, cJSON_HasObjectItem, (const cJSON *object, const char *string), (object, string)) \
	X(const char *, cJSON_GetErrorPtr, (void), ()) \
	X(char *, cJSON_GetStringValue, (const cJSON * const item), (item)) \
	X(double, cJSON_GetNumberValue, (const cJSON * const item), (item)) \
	X(cJSON_bool, cJSON_IsInvalid, (const cJSON * const item), (item)) \
	X(cJSON_bool, cJSON_IsFalse, (const cJSON * const item), (item)) \
	X(cJSON_bool, cJSON_IsTrue, (const cJSON * const item), (item)) \
	X(cJSON_bool, cJSON_IsBool, (const cJSON * const item), (item)) \
	X(cJSON_bool, cJSON_IsNull, (const cJSON * const item), (item)) \
	X(cJSON_bool, cJSON_IsNumber, (const cJSON * const item), (item)) \
	X(cJSON_bool, cJSON_IsString, (const cJSON * const item), (item)) \
	X(cJSON_bool, cJSON_IsArray, (const cJSON * const item), (item)) \
	X(cJSON_bool, cJSON_IsObject, (const cJSON * const item), (item)) \
	X(cJSON_bool, cJSON_IsRaw, (const cJSON * const item), (item)) \
	X(cJSON *, cJSON_CreateNull, (void), ()) \
	X(cJSON *, cJSON_CreateTrue, (void), ()) \
	X(cJSON *, cJSON_CreateFalse, (void), ()) \
	X(cJSON *, cJSON_CreateBool, (cJSON_bool boolean), (boolean)) \
	X(cJSON *, cJSON_CreateNumber, (double num), (num)) \
	X(cJSON *, cJSON_CreateString, (const char *string), (string)) \
	X(cJSON *, cJSON_CreateRaw, (const char *raw), (raw)) \
	X(cJSON *, cJSON_CreateArray, (void), ()) \
	X(cJSON *, cJSON_CreateObject, (void), ()) \
	X(cJSON *, cJSON_CreateStringReference, (const char *string), (string)) \
	X(cJSON *, cJSON_CreateObjectReference, (const cJSON *child), (child)) \
	X(cJSON *, cJSON_CreateArrayReference, (const cJSON *child), (child)) \
	X(cJSON *, cJSON_CreateIntArray, (const int *numbers, int count), (numbers, count)) \
	X(cJSON *, cJSON_CreateFloatArray, (const float *numbers, int count), (numbers, count)) \
	X(cJSON *, cJSON_CreateDoubleArray, (const double *numbers, int count), (numbers, count)) \
	X(cJSON *, cJSON_CreateStringArray, (const char *const *strings, int count), (strings, count)) \
	X(cJSON_bool, cJSON_AddItemToArray, (cJSON *array, cJSON *item), (array, item)) \
	X(cJSON_bool, cJSON_AddItemToObject, (cJSON *object, const char *string, cJSON *item), (object, string, item)) \
	X(cJSON_bool, cJSON_AddItemToObjectCS, (cJSON *object, const char *string, cJSON *item), (object, string, item)) \
	X(cJSON_bool, cJSON_AddItemReferenceToArray, (cJSON *array, cJSON *item), (array, item)) \
	X(cJSON_bool, cJSON_AddItemReferenceToObject, (cJSON *object, const char *string, cJSON *item), (object, string, item)) \
	X(cJSON *, cJSON_DetachItemViaPointer, (cJSON *parent, cJSON * const item), (parent, item)) \
	X(cJSON *, cJSON_DetachItemFromArray, (cJSON *array, int which), (array, which)) \
	V(cJSON_DeleteItemFromArray, (cJSON *array, int which), (array, which)) \
	X(cJSON *, cJSON_DetachItemFromObject, (cJSON *object, const char *string), (object, string)) \
	X(cJSON *, cJSON_DetachItemFromObjectCaseSensitive, (cJSON *object, const char *string), (object, string)) \
	V(cJSON_DeleteItemFromObject, (cJSON *object, const char *string), (object, string)) \
	V(cJSON_DeleteItemFromObjectCaseSensitive, (cJSON *object, const char *string), (object, string)) \
	X(cJSON_bool, cJSON_InsertItemInArray, (cJSON *array, int which, cJSON *newitem), (array, which, newitem)) \
	X(cJSON_bool, cJSON_ReplaceItemViaPointer, (cJSON * const parent, cJSON * const item, cJSON * replacement), (parent, item, replacement)) \
	X(cJSON_bool, cJSON_ReplaceItemInArray, (cJSON *array, int which, cJSON *newitem), (array, which, newitem)) \
	X(cJSON_bool, cJSON_ReplaceItemInObject, (cJSON *object, const char *string, cJSON *newitem), (object, string, newitem)) \
	X(cJSON_bool, cJSON_ReplaceItemInObjectCaseSensitive, (cJSON *object, const char *string, cJSON *newitem), (object, string, newitem)) \
	X(cJSON *, cJSON_Duplicate, (const cJSON *item, cJSON_bool recurse), (item, recurse)) \
	X(cJSON_bool, cJSON_Compare, (const cJSON * const a, const cJSON * const b, const cJSON_bool case_sensitive), (a, b, case_sensitive)) \
	V(cJSON_Minify, (char *json), (json)) \
	X(cJSON*, cJSON_AddNullToObject, (cJSON * const object, const char * const name), (object, name)) \
	X(cJSON*, cJSON_AddTrueToObject, (cJSON * const object, const char * const name), (object, name)) \
	X(cJSON*, cJSON_AddFalseToObject, (cJSON * const object, const char * const name), (object, name)) \
	X(cJSON*, cJSON_AddBoolToObject, (cJSON * const object, const char * const name, const cJSON_bool boolean), (object, name, boolean)) \
	X(cJSON*, cJSON_AddNumberToObject, (cJSON * const object, const char * const name, const double number), (object, name, number)) \
	X(cJSON*, cJSON_AddStringToObject, (cJSON * const object, const char * const name, const char * const string), (object, name, string)) \
	X(cJSON*, cJSON_AddRawToObject, (cJSON * const object, const char * const name, const char * const raw), (object, name, raw)) \
	X(cJSON*, cJSON_AddObjectToObject, (cJSON * const object, const char * const name), (object, name)) \
	X(cJSON*, cJSON_AddArrayToObject, (cJSON * const object, const char * const name), (object, name)) \
	X(double, cJSON_SetNumberHelper, (cJSON *object, double number), (object, number)) \
	X(char*, cJSON_SetValuestring, (cJSON *object, const char *valuestring), (object, valuestring)) \
	X(void *, cJSON_malloc, (size_t size), (size)) \
	V(cJSON_free, (void *object), (object))

#define CLAWMD_MD4C_FUNCS(X, V) \
	X(int, md_parse, (const MD_CHAR *text, MD_SIZE size, const MD_PARSER *parser, void *userdata), \
	  (text, size, parser, userdata))

struct dl_lib {
	const char *soname, *fallback;
	pthread_once_t once;
	bool ok;	   /* every function resolved (set once, under `once`) */
	char why[512];	   /* else what failed, for clawmd_dl_need_*() */
};

static void *open_lib(struct dl_lib *l)
{
	void *h = clawmd_dl_open(l->soname, l->fallback);
	if (!h)
		snprintf(l->why, sizeof(l->why), "could not load %s (%s): %s", l->fallback,
			 l->soname, clawmd_dl_error());
	return h;
}

static void *resolve(struct dl_lib *l, void *h, const char *name)
{
	void *p = clawmd_dl_sym(h, name);
	if (!p && !l->why[0])
		snprintf(l->why, sizeof(l->why), "could not load %s from %s: %s", name, l->fallback,
			 clawmd_dl_error());
	return p;
}

#define CLAWMD_PTR(ret, name, params, args) static ret(*p_##name) params;
#define CLAWMD_PTRV(name, params, args) static void(*p_##name) params;
#define CLAWMD_SET(ret, name, params, args) p_##name = (ret(*) params)resolve(l, h, #name);
#define CLAWMD_SETV(name, params, args) p_##name = (void(*) params)resolve(l, h, #name);

#define CLAWMD_LIB(L, FUNCS, so, fb)                                                               \
	FUNCS(CLAWMD_PTR, CLAWMD_PTRV)                                                             \
	static struct dl_lib L = {so, fb, PTHREAD_ONCE_INIT, false, {0}};                          \
	static void L##_load(void);

#ifndef CLAWMD_CJSON_SONAME
#define CLAWMD_CJSON_SONAME "libcjson.so.1"
#endif
#ifndef CLAWMD_MD4C_SONAME
#define CLAWMD_MD4C_SONAME "libmd4c.so.0"
#endif
CLAWMD_LIB(cjson, CLAWMD_CJSON_FUNCS, CLAWMD_CJSON_SONAME, "libcjson.so")
CLAWMD_LIB(md4c, CLAWMD_MD4C_FUNCS, CLAWMD_MD4C_SONAME, "libmd4c.so")

static void (*p_cJSON_Delete)(cJSON *item);
static void cjson_load(void)
{
	struct dl_lib *l = &cjson;
	void *h = open_lib(l);
	if (!h)
		return;
	CLAWMD_CJSON_FUNCS(CLAWMD_SET, CLAWMD_SETV)
	p_cJSON_Delete = (void (*)(cJSON *))resolve(l, h, "cJSON_Delete");
	l->ok = !l->why[0];
}

static void md4c_load(void)
{
	struct dl_lib *l = &md4c;
	void *h = open_lib(l);
	if (!h)
		return;
	CLAWMD_MD4C_FUNCS(CLAWMD_SET, CLAWMD_SETV)
	l->ok = !l->why[0];
}

static int need(struct dl_lib *l, void (*load)(void), struct clawmd_err *err)
{
	pthread_once(&l->once, load);
	return l->ok ? 0 : clawmd_err_set(err, CLAWMD_EFS, "%s", l->why);
}

int clawmd_dl_need_cjson(struct clawmd_err *err)
{
	return need(&cjson, cjson_load, err);
}

int clawmd_dl_need_md4c(struct clawmd_err *err)
{
	return need(&md4c, md4c_load, err);
}

const char *clawmd_libraries_missing(void)
{
	static const struct dl_lib *const libs[] = {&cjson, &md4c};
	for (size_t i = 0; i < sizeof(libs) / sizeof(libs[0]); i++)
		if (!clawmd_dl_open(libs[i]->soname, libs[i]->fallback))
			return libs[i]->fallback;
	return NULL;
}

/* The forwarders themselves. */
#define CJ_FWD(ret, name, params, args)                                                            \
	CJSON_PUBLIC(ret) name params                                                              \
	{                                                                                          \
		pthread_once(&cjson.once, cjson_load);                                             \
		return cjson.ok ? p_##name args : (ret)0;                                          \
	}
#define CJ_FWDV(name, params, args)                                                                \
	CJSON_PUBLIC(void) name params                                                             \
	{                                                                                          \
		pthread_once(&cjson.once, cjson_load);                                             \
		if (cjson.ok)                                                                      \
			p_##name args;                                                             \
	}
#define MD_FWD(ret, name, params, args)                                                            \
	ret name params                                                                            \
	{                                                                                          \
		pthread_once(&md4c.once, md4c_load);                                               \
		return md4c.ok ? p_##name args : (ret)-1;                                          \
	}

CLAWMD_CJSON_FUNCS(CJ_FWD, CJ_FWDV)

/* Deleting nothing (the common cleanup of a parse that never ran) must
 * not load the library. */
CJSON_PUBLIC(void) cJSON_Delete(cJSON *item)
{
	if (!item)
		return;
	pthread_once(&cjson.once, cjson_load);
	if (cjson.ok)
		p_cJSON_Delete(item);
}
CLAWMD_MD4C_FUNCS(MD_FWD, MD_FWD)
