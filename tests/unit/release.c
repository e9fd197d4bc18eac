/* Unit tests for Claude Code release parsing and boundaries (lib/claude/release.c). */
#include "clawmd.h"
#include "tap.h"

static bool parse(struct clawmd_release *r, const char *s)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	return clawmd_release_parse(r, s, &err) == 0;
}

int main(void)
{
	/* The boundaries measured by make e2e (tests/e2e/measured.md). */
	static const struct {
		const char *v;
		bool native, policy, dedup, gate, agents;
	} cases[] = {
		{"2.1.88", false, false, false, false, false},	 {"2.1.112", false, false, false, false, false},
		{"2.1.113", true, false, false, false, false},	 {"2.1.128", true, false, false, false, false},
		{"2.1.133", true, false, false, false, false},	 {"2.1.136", true, true, false, false, false},
		{"2.1.141", true, true, false, false, false},	 {"2.1.142", true, true, true, false, false},
		{"2.1.231", true, true, true, false, false},	 {"2.1.232", true, true, true, true, false},
		{"2.1.330", true, true, true, true, true},	 {"2.2.0", true, true, true, true, true},
		{"3.0.0", true, true, true, true, true},	 {"1.0.999", false, false, false, false, false},
		{"2.1.280", true, true, true, true, false}, {"2.1.281", true, true, true, true, true},
		{"latest", true, true, true, true, true},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct clawmd_release r;
		ok(parse(&r, cases[i].v), "parses %s", cases[i].v);
		is(clawmd_release_native(&r), cases[i].native, "%s native", cases[i].v);
		is(clawmd_release_managed_policy(&r), cases[i].policy, "%s managed description",
		   cases[i].v);
		is(clawmd_release_realpath_dedup(&r), cases[i].dedup, "%s realpath dedup", cases[i].v);
		is(clawmd_release_realpath_gate(&r), cases[i].gate, "%s realpath gate", cases[i].v);
		is(clawmd_release_agents_md(&r), cases[i].agents, "%s AGENTS.md fallback", cases[i].v);
	}
	/* the module's settings key: agents-md@builtin, then cc-plugin-agents-md@builtin */
	static const struct {
		const char *v;
		bool renamed;
	} keys[] = {{"2.1.281", false}, {"2.1.284", false}, {"2.1.285", true}, {"2.1.332", true}};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		struct clawmd_release r;
		parse(&r, keys[i].v);
		is(clawmd_release_agents_md_renamed(&r), keys[i].renamed, "%s settings key renamed",
		   keys[i].v);
	}
	static const char *bad[] = {"", "2", "2.1", "2.1.", "2.1.x", "v2.1.3", "2.1.3 ", "2..3",
				    "-1.2.3", "2.1.3.4", "99999999999.1.1"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct clawmd_release r;
		struct clawmd_err err = CLAWMD_ERR_INIT;
		is(clawmd_release_parse(&r, bad[i], &err), CLAWMD_EUSAGE, "rejects '%s'", bad[i]);
		ok(strstr(err.msg, "claude_version") != NULL, "names the key for '%s'", bad[i]);
	}
	struct clawmd_release a, b;
	parse(&a, "2.1.99");
	parse(&b, "2.1.100");
	ok(clawmd_release_cmp(&a, &b) < 0, "2.1.99 < 2.1.100 (numeric, not text)");
	done_testing();
}
