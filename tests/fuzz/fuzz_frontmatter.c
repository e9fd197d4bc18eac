/* libFuzzer target: frontmatter strip, YAML and paths: globs, and matching. */
#include "clawmd.h"
#include "claude/frontmatter.h"
#include "claude/match.h"

#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct clawmd_frontmatter fm;
	clawmd_frontmatter_parse(&fm, (const char *)data, size);
	if (fm.body > size)
		__builtin_trap();
	/* brace expansion is capped: memory stays bounded (-rss_limit_mb) */
	if (fm.nglobs > CLAWMD_PATHS_MAX)
		__builtin_trap();
	if (fm.nglobs)
		clawmd_globs_match(fm.globs, fm.nglobs, "src/app/main.ts");
	clawmd_frontmatter_release(&fm);
	return 0;
}
