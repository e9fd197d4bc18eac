/*
 * libFuzzer target: container.json -> config parse -> defuse of each MCP
 * server's instructions, with the property compose relies on: the defused
 * text holds no import Claude Code would follow (clawmd_md_imports finds
 * none), nor one Gemini CLI would (clawmd_gemini_imports, issue 28).  Most fuzzer inputs are not valid JSON, so the raw input is also
 * defused as instructions text directly; both paths must hold.
 */
#include "clawmd.h"
#include "runtime/imports.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int live(size_t off, size_t len, const char *path, void *payload)
{
	const struct clawmd_buf *out = payload;
	fprintf(stderr, "live import '%s' at %zu in defused text:\n%.*s\n", path ? path : "(Gemini CLI's rule)", off,
		(int)out->len, out->ptr);
	abort();
}

static void defuse_checked(const char *text, size_t len)
{
	struct clawmd_buf out = CLAWMD_BUF_INIT;
	clawmd_defuse_imports(&out, text, len);
	clawmd_md_imports(out.ptr, out.len, live, &out);
	clawmd_gemini_imports(out.ptr, out.len, live, &out);
	/* Defusing an already defused text finds nothing more to defuse. */
	struct clawmd_buf again = CLAWMD_BUF_INIT;
	if (clawmd_defuse_imports(&again, out.ptr, out.len) != 0)
		abort();
	clawmd_buf_release(&again);
	clawmd_buf_release(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct clawmd_group_config cfg;
	struct clawmd_err err = CLAWMD_ERR_INIT;
	clawmd_config_init(&cfg);
	if (size <= CLAWMD_CONFIG_MAX &&
	    clawmd_config_parse(&cfg, text, size, "container.json", &err) == 0) {
		for (size_t i = 0; i < cfg.nmcp; i++)
			if (cfg.mcp[i].instructions)
				defuse_checked(cfg.mcp[i].instructions,
					       strlen(cfg.mcp[i].instructions));
	}
	clawmd_config_release(&cfg);
	defuse_checked(text, size);
	return 0;
}
