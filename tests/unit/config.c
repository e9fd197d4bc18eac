/* Unit tests for container.json validation, driven by tests/config/NAME.json
 * with NAME.expect: "ok all=B skills=a,b mcp=name:hasinstr,... cli=B[ modules=a,b]
 * [ runtimes=a,b][ dup=key.path]" or
 * "error STATUS <text the message must contain>". */
#include "tap.h"
#include "clawmd.h"
#include "testutil.h"

#include <dirent.h>
#include <stdlib.h>

static void describe(struct clawmd_buf *out, const struct clawmd_group_config *cfg)
{
	clawmd_buf_printf(out, "ok all=%d skills=", cfg->all_skills);
	for (size_t i = 0; i < cfg->nskills; i++)
		clawmd_buf_printf(out, "%s%s", i ? "," : "", cfg->skills[i]);
	clawmd_buf_puts(out, " mcp=");
	for (size_t i = 0; i < cfg->nmcp; i++)
		clawmd_buf_printf(out, "%s%s:%d", i ? "," : "", cfg->mcp[i].name,
				  cfg->mcp[i].instructions != NULL);
	clawmd_buf_printf(out, " cli=%d", cfg->cli_disabled);
	if (!cfg->all_modules) { /* only a "modules" list shows */
		clawmd_buf_puts(out, " modules=");
		for (size_t i = 0; i < cfg->nmodules; i++)
			clawmd_buf_printf(out, "%s%s", i ? "," : "", cfg->modules[i]);
	}
	if (cfg->nruntime_names) { /* only a "provider" or "runtimes" shows */
		clawmd_buf_puts(out, " runtimes=");
		for (size_t i = 0; i < cfg->nruntime_names; i++)
			clawmd_buf_printf(out, "%s%s", i ? "," : "", cfg->runtime_names[i]);
	}
	if (cfg->dup_warning) { /* the key given twice, as the warning names it */
		const char *k = strstr(cfg->dup_warning, "key '") + 5;
		clawmd_buf_printf(out, " dup=%.*s", (int)strcspn(k, "'"), k);
	}
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
	const char *root = getenv("CLAWMD_TESTS");
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s/config", root ? root : "tests");
	DIR *d = opendir(dir);
	ok(d != NULL, "case directory %s", dir);
	if (!d)
		return done_testing();
	char *names[512];
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < 512) {
		size_t l = strlen(e->d_name);
		if (l > 5 && !strcmp(e->d_name + l - 5, ".json"))
			names[n++] = strndup(e->d_name, l - 5);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp);
	ok(n >= 40, "at least 40 cases (%zu)", n);

	for (size_t i = 0; i < n; i++) {
		char path[4200];
		size_t jlen = 0, elen = 0;
		snprintf(path, sizeof(path), "%s/%s.json", dir, names[i]);
		char *json = test_slurp(path, &jlen);
		snprintf(path, sizeof(path), "%s/%s.expect", dir, names[i]);
		char *expect = test_slurp(path, &elen);
		if (!json || !expect) {
			ok(0, "%s: readable case", names[i]);
			continue;
		}
		expect[strcspn(expect, "\n")] = '\0';

		struct clawmd_group_config cfg;
		struct clawmd_err err = CLAWMD_ERR_INIT;
		int rc = clawmd_config_parse(&cfg, json, jlen, "c.json", &err);
		if (!strncmp(expect, "error ", 6)) {
			int want = atoi(expect + 6);
			const char *text = strchr(expect + 6, ' ');
			text = text ? text + 1 : "";
			ok(rc < 0 && clawmd_exit_status(rc) == want, "%s: exit status %d (got %d)",
			   names[i], want, clawmd_exit_status(rc));
			ok(strstr(err.msg, text) && !strncmp(err.msg, "c.json", 6),
			   "%s: message names file and key", names[i]);
			if (!strstr(err.msg, text))
				printf("#   message: %s\n#   wanted: %s\n", err.msg, text);
		} else {
			struct clawmd_buf got = CLAWMD_BUF_INIT;
			if (rc == 0)
				describe(&got, &cfg);
			is_str(rc == 0 ? got.ptr : err.msg, expect, "%s", names[i]);
			clawmd_buf_release(&got);
			clawmd_config_release(&cfg);
		}
		free(json);
		free(expect);
		free(names[i]);
	}

	/* Names: the pattern, directly. */
	ok(clawmd_name_valid("a", 1), "one character name");
	ok(!clawmd_name_valid("a\0b", 3), "NUL inside a name");
	ok(!clawmd_name_valid("_a", 2), "underscore cannot lead");
	ok(clawmd_name_valid("9._-", 4), "digits lead, . _ - follow");
	return done_testing();
}
