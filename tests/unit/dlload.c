/*
 * Unit test: the library never prints or aborts when cJSON, md4c or
 * libgit2 cannot be loaded; the entry points that need one fail with EFS
 * naming it.  This test stands in for lib/sys/dl.c at link time, as the
 * static front does (cmd/front.c): its loader loads nothing.
 */
#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "clawmd.h"
#include "sys/dl.h"
#include "sys/git.h"
#include "tap.h"

static int opened;

void *clawmd_dl_open(const char *soname, const char *fallback)
{
	opened++;
	return NULL;
}

void *clawmd_dl_sym(void *handle, const char *name)
{
	return NULL;
}

const char *clawmd_dl_error(void)
{
	return "not in this test";
}

int main(void)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_group_config cfg;
	const char json[] = "{\"skills\": [\"a\"]}";
	int rc = clawmd_config_parse(&cfg, json, strlen(json), "container.json", &err);
	is(rc, CLAWMD_EFS, "container.json without cJSON: EFS");
	ok(strstr(err.msg, "could not load libcjson.so") && strstr(err.msg, "not in this test"),
	   "... naming the library and why: %s", err.msg);
	clawmd_config_release(&cfg);

	/* A forwarder called anyway returns nothing and calls nothing. */
	cJSON *doc = cJSON_CreateObject();
	ok(doc == NULL, "cJSON_CreateObject() without cJSON: NULL");
	ok(cJSON_AddStringToObject(doc, "a", "b") == NULL && cJSON_Print(doc) == NULL,
	   "... and what is built on it: NULL");
	cJSON_Delete(doc);
	is_str(clawmd_libraries_missing(), "libcjson.so", "clawmd_libraries_missing() names it");

	clawmd_err_clear(&err);
	struct clawmd_memory m;
	struct clawmd_memory_opts mo = CLAWMD_MEMORY_OPTS_INIT;
	clawmd_memory_init(&m);
	rc = clawmd_memory_load(&m, &mo, &err);
	is(rc, CLAWMD_EFS, "Claude Code's memory loader without md4c: EFS");
	ok(strstr(err.msg, "could not load libmd4c.so") != NULL, "... naming it: %s", err.msg);
	clawmd_memory_release(&m);

	clawmd_err_clear(&err);
	ok(clawmd_git(&err) == NULL && err.code == CLAWMD_EFS && strstr(err.msg, "libgit2"),
	   "libgit2 without a loader: EFS naming it");
	ok(opened >= 3, "each library was asked for (%d opens)", opened);
	is_str(clawmd_code_name(CLAWMD_EFS), "EFS", "the code's name");
	return done_testing();
}
