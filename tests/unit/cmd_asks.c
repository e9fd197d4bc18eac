/*
 * Unit tests for what cmd/ asks of the library instead of doing itself:
 * the public JSON builder and its printing rule (lib/sys/jsondoc.c), the
 * skills read on demand (lib/lint/status.c), the symlinked group
 * directories a listing passes over (lib/layout/skipped.c), whether a
 * named group is there (lib/group/present.c) and whether a tree holds a
 * legacy layout (lib/migrate/legacy.c).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clawmd.h"
#include "tap.h"
#include "testutil.h"

static void json_tests(void)
{
	struct clawmd_json *doc = clawmd_json_object();
	clawmd_json_add_string(doc, "tool", "clawmd");
	clawmd_json_add_number(doc, "n", 3);
	clawmd_json_add_bool(doc, "yes", true);
	clawmd_json_add_null(doc, "none");
	clawmd_json_add_string(doc, "skipped", NULL); /* adds nothing, as cJSON */
	char *v[] = {"a", "b\xff"};
	clawmd_json_add_strings(doc, "names", v, 2);
	struct clawmd_json *arr = clawmd_json_add_array(doc, "rows");
	clawmd_json_add_string(clawmd_json_add_object(arr, NULL), "k", "v");
	clawmd_json_add_null(arr, NULL);
	struct clawmd_json *apart = clawmd_json_object();
	clawmd_json_add_bytes(apart, "text", "x\0y\n\x80", 5);
	clawmd_json_add(doc, "apart", apart);
	clawmd_json_add_string(NULL, "k", "a NULL parent is a no-op");
	char *s = clawmd_json_text(doc, CLAWMD_JSON_EXACT);
	is_str(s,
	       "{\n\t\"tool\":\t\"clawmd\",\n\t\"n\":\t3,\n\t\"yes\":\ttrue,\n\t\"none\":\tnull,\n"
	       "\t\"names\":\t[\"a\", \"b\xef\xbf\xbd\"],\n"
	       "\t\"rows\":\t[{\n\t\t\t\"k\":\t\"v\"\n\t\t}, null],\n"
	       "\t\"apart\":\t{\n\t\t\"text\":\t\"x\\u0000y\\n\xef\xbf\xbd\",\n"
	       "\t\t\"text_base64\":\t\"eAB5CoA=\"\n\t},\n"
	       "\t\"names_base64\":\t[null, \"Yv8=\"]\n}",
	       "a document prints as cJSON prints it, strings well-formed, exact bytes beside");
	free(s);
	clawmd_json_free(doc);

	doc = clawmd_json_object();
	clawmd_json_add_string(doc, "uri", "a\xc0");
	s = clawmd_json_text(doc, CLAWMD_JSON_REPLACE);
	is_str(s, "{\n\t\"uri\":\t\"a\xef\xbf\xbd\"\n}", "REPLACE adds no _base64 member (SARIF)");
	free(s);
	clawmd_json_free(doc);

	ok(clawmd_utf8_len("\xe2\x82\xac", 3) == 3 && clawmd_utf8_len("\xed\xa0\x80", 3) == 0 &&
		   clawmd_utf8_len("\xc0\xaf", 2) == 0 && clawmd_utf8_len("\xf0\x9f", 2) == 0,
	   "clawmd_utf8_len: a sequence whole, no surrogate, no overlong, none cut short");
}

static void fs_tests(void)
{
	char dir[] = "/tmp/clawmd-jsondoc-XXXXXX";
	test_must(mkdtemp(dir) ? 0 : -1, "mkdtemp");
	char *skills = clawmd_xasprintf("%s/skills", dir), *groups = clawmd_xasprintf("%s/groups", dir);
	test_put(dir, "skills/zeta/SKILL.md", "z");
	test_put(dir, "skills/alpha/SKILL.md", "a");
	test_put(dir, "skills/both/SKILL.md", "b");
	test_put(dir, "skills/both/instructions.md", "inlined by compose");
	test_put(dir, "skills/plain/instructions.md", "no SKILL.md");
	test_put(dir, "skills/dirskill/SKILL.md/x", "SKILL.md a directory");
	test_put(dir, "groups/main/CLAUDE.md", "");
	char *link = clawmd_xasprintf("%s/groups/elsewhere", dir);
	test_must(symlink("/tmp", link), "symlink");
	char *bad = clawmd_xasprintf("%s/groups/.hidden", dir);
	test_must(symlink("/tmp", bad), "symlink");

	struct clawmd_layout lay;
	memset(&lay, 0, sizeof(lay));
	lay.skills = skills;
	lay.groups = groups;
	char **v;
	size_t n = clawmd_skills_on_demand(&v, &lay);
	ok(n == 2 && !strcmp(v[0], "alpha") && !strcmp(v[1], "zeta"),
	   "on demand: a SKILL.md (a file) and no instructions.md, sorted (%zu)", n);
	clawmd_strv_free(v, n);
	n = clawmd_groups_symlinked(&v, &lay);
	ok(n == 1 && !strcmp(v[0], "elsewhere"), "a symlinked group directory is named (%zu)", n);
	clawmd_strv_free(v, n);
	lay.skills = lay.groups = "/nonexistent/clawmd";
	ok(clawmd_skills_on_demand(&v, &lay) == 0 && !v, "no skills directory: none");
	ok(clawmd_groups_symlinked(&v, &lay) == 0 && !v, "no groups directory: none");

	struct clawmd_root root;
	struct clawmd_err err = CLAWMD_ERR_INIT;
	clawmd_root_init(&root);
	test_put(dir, "clawmd.json", "{}");
	test_must(clawmd_root_load(&root, dir, &err), "root");
	test_put(dir, "groups/file", "");
	ok(clawmd_group_present(&root, "main", &err) == 0, "a real group directory is there");
	static const struct {
		const char *name, *head, *tail;
	} absent[] = {
		{"nope", "no group 'nope': '", "groups/nope' does not exist"},
		{"elsewhere", "group 'elsewhere': '",
		 "groups/elsewhere' is a symlink (refused: it could lead anywhere)"},
		{"file", "group 'file': '", "groups/file' is not a directory"},
	};
	for (size_t i = 0; i < sizeof(absent) / sizeof(absent[0]); i++) {
		clawmd_err_clear(&err);
		int rc = clawmd_group_present(&root, absent[i].name, &err);
		size_t lm = strlen(err.msg), lt = strlen(absent[i].tail);
		ok(rc == CLAWMD_EFS && !strncmp(err.msg, absent[i].head, strlen(absent[i].head)) &&
			   lm > lt && !strcmp(err.msg + lm - lt, absent[i].tail),
		   "%s: EFS, '%s'", absent[i].name, err.msg);
	}
	clawmd_root_release(&root);

	struct clawmd_dir top = CLAWMD_DIR_INIT;
	top.fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC); /* as init opens DIR */
	top.path = clawmd_xstrdup(dir);
	test_must(top.fd < 0 ? -1 : 0, "open");
	bool any = false;
	char *entry = clawmd_xasprintf("%s/groups/main/CLAUDE.md", dir);
	test_must(unlink(entry), "unlink");
	free(entry);
	ok(!clawmd_migrate_legacy_seen(&top, &any) && any, "a composed-model tree: no legacy, a group");
	test_put(dir, "groups/main/CLAUDE.md", "hand-written\n");
	any = false;
	ok(clawmd_migrate_legacy_seen(&top, &any) && any, "a CLAUDE.md clawmd did not compose: legacy");
	test_put(dir, "groups/main/CLAUDE.md", "");
	test_put(dir, "groups/global/CLAUDE.md", "");
	ok(clawmd_migrate_legacy_seen(&top, &any), "groups/global/: legacy");
	clawmd_dir_release(&top);

	char *rm = clawmd_xasprintf("rm -rf '%s'", dir);
	test_must(system(rm), "rm");
	free(rm);
	free(link);
	free(bad);
	free(skills);
	free(groups);
}

int main(void)
{
	json_tests();
	fs_tests();
	done_testing();
}
