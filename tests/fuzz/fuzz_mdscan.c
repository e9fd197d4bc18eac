/* libFuzzer target: the Markdown import scanner and the comment strip. */
#include "clawmd.h"
#include "claude/mdscan.h"

#include <stdint.h>
#include <string.h>

static int check(size_t off, size_t len, const char *path, void *payload)
{
	const char *text = payload;
	if (text[off] != '@' || !path[0])
		__builtin_trap();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	clawmd_md_imports((const char *)data, size, check, (void *)data);
	struct clawmd_md_scan s;
	clawmd_md_scan_init(&s);
	clawmd_md_scan(&s, (const char *)data, size, true);
	for (size_t i = 0; i < s.n; i++)
		if (s.v[i].off + s.v[i].len > size)
			__builtin_trap();
	clawmd_md_scan_release(&s);
	struct clawmd_buf out = CLAWMD_BUF_INIT;
	clawmd_md_strip_comments(&out, (const char *)data, size);
	if (out.len > size)
		__builtin_trap();
	clawmd_buf_release(&out);
	return 0;
}
