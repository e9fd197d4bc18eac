/*
 * napi-faults.h - N-API failure injection for a test build of the addon.
 *
 * Force-included (cc -include) into each file of bindings/node/src only for
 * BUILD/node/faults.node (bindings/node/node.mk), never the shipped
 * clawmd.node.  Every N-API call the addon makes then goes through a
 * macro that counts it and, at the call the environment picks, fails it
 * the way N-API fails when a worker is terminated, the process exits or
 * V8 is out of memory: a non-napi_ok status, the real function not
 * called, nothing thrown.
 *
 *	CLAWMD_NAPI_FAIL_AT=N     fail the Nth call (counted from 1) ...
 *	CLAWMD_NAPI_FAIL_MODE=from  ... and every call after it (the default:
 *	                              an environment torn down stays so)
 *	CLAWMD_NAPI_FAIL_MODE=once  ... and only it (one transient failure:
 *	                              what a failed call left is then used by
 *	                              calls that work)
 *
 * At exit the count goes to stderr, "clawmd-napi-faults: calls=C" and,
 * when one failed, " failed=N fn=NAME line=FILE:L" (the file of the addon), so
 * a run without CLAWMD_NAPI_FAIL_AT tells the test how many calls there
 * are to fail (tests/t100-node-faults.sh); CLAWMD_NAPI_TRACE=FILE writes
 * each call there as it is made ("N NAME LINE FILE"), so that the test can pick
 * which ones to fail.
 *
 * A failed call writes a poison into its output instead of leaving it
 * unwritten: (napi_value)8 and its like for handles and pointers, the
 * largest plausible count for a length, 0x55 bytes for a bool (which
 * UBSan's bool check reports when it is read), an out-of-range type for
 * napi_typeof.  Whatever uses an output its call did not set then crashes
 * (or is reported) at once, in every run, instead of by luck.
 *
 * Not wrapped, because with a valid env they cannot fail and touch no JS
 * (Node implements them as reads of fields it set up itself):
 * napi_get_instance_data (the env's instance pointer), napi_get_cb_info
 * (the arguments V8 handed to the callback) and napi_is_exception_pending
 * (a flag).  Failing them would test N-API's impossible cases, not the
 * addon.  Every other function the addon calls is wrapped; a new one the
 * addon starts to use needs its line here, or it goes untested (the test
 * build then still compiles, so the list is checked by
 * tests/t100-node-faults.sh against the functions the addon's files name).
 */
#ifndef CLAWMD_NAPI_FAULTS_H
#define CLAWMD_NAPI_FAULTS_H

#define NAPI_VERSION 8
#include <node_api.h>

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The addon is several files (bindings/node/src/addon.h), each including
 * this header: its state is one for the whole addon, so it is defined in
 * every file weak (the linker keeps one), and the constructor and
 * destructor each file registers run their work once.
 */
#define NF_SHARED __attribute__((weak))
NF_SHARED atomic_ulong nf_calls;
NF_SHARED FILE *nf_trace; /* CLAWMD_NAPI_TRACE: each call's name, file and line */
NF_SHARED unsigned long nf_at;   /* 0: nothing fails */
NF_SHARED bool nf_once;
NF_SHARED const char *nf_failed_fn;
NF_SHARED const char *nf_failed_file;
NF_SHARED int nf_failed_line;
NF_SHARED bool nf_set_up, nf_reported;

void nf_setup(void);
void nf_report(void);

__attribute__((constructor, weak)) void nf_setup(void)
{
	if (nf_set_up)
		return;
	nf_set_up = true;
	const char *at = getenv("CLAWMD_NAPI_FAIL_AT"), *mode = getenv("CLAWMD_NAPI_FAIL_MODE");
	nf_at = at ? strtoul(at, NULL, 10) : 0;
	nf_once = mode && !strcmp(mode, "once");
	const char *trace = getenv("CLAWMD_NAPI_TRACE");
	if (trace && !(nf_trace = fopen(trace, "w")))
		abort();
}

__attribute__((destructor, weak)) void nf_report(void)
{
	if (nf_reported)
		return;
	nf_reported = true;
	fprintf(stderr, "clawmd-napi-faults: calls=%lu", (unsigned long)atomic_load(&nf_calls));
	if (nf_failed_fn)
		fprintf(stderr, " failed=%lu fn=%s line=%s:%d", nf_at, nf_failed_fn, nf_failed_file,
			nf_failed_line);
	fputc('\n', stderr);
	if (nf_trace)
		fclose(nf_trace);
}

/* Does this call fail?  `fn`, `file` (its name alone) and `line` name the
 * first one that does. */
static inline bool nf_hit(const char *fn, const char *file, int line)
{
	unsigned long n = atomic_fetch_add(&nf_calls, 1) + 1;
	const char *slash = strrchr(file, '/');
	file = slash ? slash + 1 : file;
	if (nf_trace)
		fprintf(nf_trace, "%lu %s %d %s\n", n, fn, line, file);
	if (!nf_at || n < nf_at || (nf_once && n != nf_at))
		return false;
	if (n == nf_at) {
		nf_failed_fn = fn;
		nf_failed_file = file;
		nf_failed_line = line;
	}
	return true;
}

#define NF_FAIL napi_generic_failure
#define NF_POISON ((void *)8)

static inline napi_status nf_value(napi_value *p) { if (p) *p = NF_POISON; return NF_FAIL; }
static inline napi_status nf_ref(napi_ref *p) { if (p) *p = NF_POISON; return NF_FAIL; }
static inline napi_status nf_ptr(void **p) { if (p) *p = NF_POISON; return NF_FAIL; }
static inline napi_status nf_work(napi_async_work *p) { if (p) *p = NF_POISON; return NF_FAIL; }
static inline napi_status nf_bool(bool *p) { if (p) memset(p, 0x55, sizeof(*p)); return NF_FAIL; }
static inline napi_status nf_u32(uint32_t *p) { if (p) *p = UINT32_MAX - 1; return NF_FAIL; }
static inline napi_status nf_size(size_t *p) { if (p) *p = SIZE_MAX / 2; return NF_FAIL; }
static inline napi_status nf_double(double *p) { if (p) *p = 1e300; return NF_FAIL; }
static inline napi_status nf_type(napi_valuetype *p) { if (p) *p = (napi_valuetype)0x55; return NF_FAIL; }
static inline napi_status nf_none(const void *p) { (void)p; return NF_FAIL; }
static inline napi_status nf_promise(napi_deferred *d, napi_value *p)
{
	if (d)
		*d = NF_POISON;
	return nf_value(p);
}

/* The call's output poisoned by its type (none: an output not asked for,
 * napi_wrap's NULL reference). */
#define NF_OUT(p)                                                                                  \
	_Generic((p), napi_value *: nf_value, napi_ref *: nf_ref, void **: nf_ptr,                \
		 napi_async_work *: nf_work, bool *: nf_bool, uint32_t *: nf_u32, size_t *: nf_size, \
		 double *: nf_double, default: nf_none)(p)

/* One macro per function: a function-like macro is not expanded again in
 * its own expansion, so the real call inside is the function. */
#define NF_CALL(fn, out, ...) (nf_hit(#fn, __FILE__, __LINE__) ? NF_OUT(out) : fn(__VA_ARGS__))
#define NF_CALL0(fn, ...) (nf_hit(#fn, __FILE__, __LINE__) ? NF_FAIL : fn(__VA_ARGS__))

/* Outputs: a value, reference, pointer, count, ... last. */
#define napi_create_object(e, r) NF_CALL(napi_create_object, r, e, r)
#define napi_create_array(e, r) NF_CALL(napi_create_array, r, e, r)
#define napi_create_array_with_length(e, n, r) NF_CALL(napi_create_array_with_length, r, e, n, r)
#define napi_create_string_utf8(e, s, n, r) NF_CALL(napi_create_string_utf8, r, e, s, n, r)
#define napi_create_double(e, d, r) NF_CALL(napi_create_double, r, e, d, r)
#define napi_create_error(e, c, m, r) NF_CALL(napi_create_error, r, e, c, m, r)
#define napi_create_function(e, s, n, f, d, r) NF_CALL(napi_create_function, r, e, s, n, f, d, r)
#define napi_create_reference(e, v, n, r) NF_CALL(napi_create_reference, r, e, v, n, r)
#define napi_create_symbol(e, d, r) NF_CALL(napi_create_symbol, r, e, d, r)
#define napi_create_async_work(e, o, s, x, c, d, r)                                                \
	NF_CALL(napi_create_async_work, r, e, o, s, x, c, d, r)
#define napi_define_class(e, s, n, c, d, np, p, r)                                                 \
	NF_CALL(napi_define_class, r, e, s, n, c, d, np, p, r)
#define napi_get_undefined(e, r) NF_CALL(napi_get_undefined, r, e, r)
#define napi_get_null(e, r) NF_CALL(napi_get_null, r, e, r)
#define napi_get_boolean(e, b, r) NF_CALL(napi_get_boolean, r, e, b, r)
#define napi_get_global(e, r) NF_CALL(napi_get_global, r, e, r)
#define napi_get_reference_value(e, f, r) NF_CALL(napi_get_reference_value, r, e, f, r)
#define napi_get_named_property(e, o, k, r) NF_CALL(napi_get_named_property, r, e, o, k, r)
#define napi_get_property(e, o, k, r) NF_CALL(napi_get_property, r, e, o, k, r)
#define napi_get_element(e, o, i, r) NF_CALL(napi_get_element, r, e, o, i, r)
#define napi_get_all_property_names(e, o, m, f, c, r)                                              \
	NF_CALL(napi_get_all_property_names, r, e, o, m, f, c, r)
#define napi_get_array_length(e, v, r) NF_CALL(napi_get_array_length, r, e, v, r)
#define napi_get_value_bool(e, v, r) NF_CALL(napi_get_value_bool, r, e, v, r)
#define napi_get_value_double(e, v, r) NF_CALL(napi_get_value_double, r, e, v, r)
#define napi_get_value_string_utf8(e, v, b, n, r) NF_CALL(napi_get_value_string_utf8, r, e, v, b, n, r)
#define napi_get_and_clear_last_exception(e, r) NF_CALL(napi_get_and_clear_last_exception, r, e, r)
#define napi_has_own_property(e, o, k, r) NF_CALL(napi_has_own_property, r, e, o, k, r)
#define napi_is_array(e, v, r) NF_CALL(napi_is_array, r, e, v, r)
#define napi_strict_equals(e, a, b, r) NF_CALL(napi_strict_equals, r, e, a, b, r)
#define napi_check_object_type_tag(e, o, t, r) NF_CALL(napi_check_object_type_tag, r, e, o, t, r)
#define napi_new_instance(e, c, n, a, r) NF_CALL(napi_new_instance, r, e, c, n, a, r)
#define napi_call_function(e, t, f, n, a, r) NF_CALL(napi_call_function, r, e, t, f, n, a, r)
#define napi_run_script(e, s, r) NF_CALL(napi_run_script, r, e, s, r)
#define napi_unwrap(e, o, r) NF_CALL(napi_unwrap, r, e, o, r)
#define napi_wrap(e, o, p, f, h, r) NF_CALL(napi_wrap, r, e, o, p, f, h, r)
#define napi_typeof(e, v, r) (nf_hit("napi_typeof", __FILE__, __LINE__) ? nf_type(r) : napi_typeof(e, v, r))
#define napi_create_promise(e, d, r)                                                               \
	(nf_hit("napi_create_promise", __FILE__, __LINE__) ? nf_promise(d, r) : napi_create_promise(e, d, r))

/* No output. */
#define napi_set_named_property(e, ...) NF_CALL0(napi_set_named_property, e, __VA_ARGS__)
#define napi_define_properties(e, ...) NF_CALL0(napi_define_properties, e, __VA_ARGS__)
#define napi_set_property(e, ...) NF_CALL0(napi_set_property, e, __VA_ARGS__)
#define napi_set_element(e, ...) NF_CALL0(napi_set_element, e, __VA_ARGS__)
#define napi_set_instance_data(e, ...) NF_CALL0(napi_set_instance_data, e, __VA_ARGS__)
#define napi_type_tag_object(e, ...) NF_CALL0(napi_type_tag_object, e, __VA_ARGS__)
#define napi_delete_reference(e, ...) NF_CALL0(napi_delete_reference, e, __VA_ARGS__)
#define napi_throw(e, ...) NF_CALL0(napi_throw, e, __VA_ARGS__)
#define napi_throw_error(e, ...) NF_CALL0(napi_throw_error, e, __VA_ARGS__)
#define napi_throw_type_error(e, ...) NF_CALL0(napi_throw_type_error, e, __VA_ARGS__)
#define napi_queue_async_work(e, ...) NF_CALL0(napi_queue_async_work, e, __VA_ARGS__)
#define napi_delete_async_work(e, ...) NF_CALL0(napi_delete_async_work, e, __VA_ARGS__)
#define napi_resolve_deferred(e, ...) NF_CALL0(napi_resolve_deferred, e, __VA_ARGS__)
#define napi_reject_deferred(e, ...) NF_CALL0(napi_reject_deferred, e, __VA_ARGS__)

#endif
