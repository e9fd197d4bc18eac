/*
 * foreign.c - a test addon standing for "another addon" (hostile.test.js):
 * wrap(obj) wraps obj with a pointer to bytes that are no clawmd handle, as
 * any other addon's napi_wrap would.  A clawmd method called on such an
 * object must see that it is not its own (the type tag) and throw.
 */
#define NAPI_VERSION 8
#include <node_api.h>
#include <string.h>

static char junk[4096];

static napi_value wrap(napi_env env, napi_callback_info info)
{
	size_t argc = 1;
	napi_value argv[1];
	napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
	memset(junk, 0x41, sizeof(junk));
	napi_wrap(env, argv[0], junk, NULL, NULL, NULL);
	return argv[0];
}

/* What NAPI_MODULE_INIT() defines (node_api.h gives them no prototype). */
int32_t node_api_module_get_api_version_v1(void);
napi_value napi_register_module_v1(napi_env env, napi_value exports);

NAPI_MODULE_INIT()
{
	napi_value fn;
	napi_create_function(env, "wrap", NAPI_AUTO_LENGTH, wrap, NULL, &fn);
	napi_set_named_property(env, exports, "wrap", fn);
	return exports;
}
