/* Unit tests for the nearest spelling (lib/base/spell.c): typos, swaps, a
 * prefix of a long name, and words too far from anything to suggest. */
#include <string.h>

#include "clawmd.h"
#include "tap.h"

int main(void)
{
	static const char *const cmds[] = {"compose", "migrate", "render", "check", "status", "init", "help"};
	static const char *const keys[] = {"skills", "mcpServers", "cli_scope"};
	static const char *const opts[] = {"all", "dry-run", "check", "json", "quiet", "strict"};
	static const struct {
		const char *word;
		const char *const *cands;
		size_t n;
		const char *want; /* NULL: no suggestion */
	} cases[] = {
		{"compse", cmds, 7, "compose"},	    {"comopse", cmds, 7, "compose"},
		{"stauts", cmds, 7, "status"},	    {"chekc", cmds, 7, "check"},
		{"rendr", cmds, 7, "render"},	    {"xyz", cmds, 7, NULL},
		{"frobnicate", cmds, 7, NULL},	    {"skils", keys, 3, "skills"},
		{"Skills", keys, 3, "skills"},	    {"mcp_servers", keys, 3, "mcpServers"},
		{"mcpservers", keys, 3, "mcpServers"}, {"packages", keys, 3, NULL},
		{"env", keys, 3, NULL},		    {"dry", opts, 6, "dry-run"},
		{"stritc", opts, 6, "strict"},	    {"quite", opts, 6, "quiet"},
		{"a", opts, 6, NULL},		    {"", opts, 6, NULL},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *got = clawmd_spell_nearest(cases[i].word, cases[i].cands, cases[i].n);
		ok(cases[i].want ? got && !strcmp(got, cases[i].want) : !got, "'%s' -> %s (got %s)",
		   cases[i].word, cases[i].want ? cases[i].want : "nothing", got ? got : "nothing");
	}
	char longw[200];
	memset(longw, 'a', sizeof(longw) - 1);
	longw[sizeof(longw) - 1] = '\0';
	ok(!clawmd_spell_nearest(longw, cmds, 7), "an over-long word suggests nothing");
	done_testing();
}
