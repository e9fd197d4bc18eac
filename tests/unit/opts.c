/*
 * Unit test: option structs a caller fills carry the version of the header
 * the caller was compiled against (as libgit2's do).  One started from its
 * _INIT is taken; one that was not (version 0), or from a newer header, is
 * refused with EUSAGE naming the struct, before anything is read.
 */
#include <string.h>

#include "clawmd.h"
#include "tap.h"

int main(void)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_findings f;
	struct clawmd_lint_opts lo = {0};
	clawmd_findings_init(&f);
	is(clawmd_lint_tree(&f, ".", &lo, &err), CLAWMD_EUSAGE, "lint opts of version 0: EUSAGE");
	ok(strstr(err.msg, "struct clawmd_lint_opts: version 0") != NULL, "... naming it: %s", err.msg);
	clawmd_findings_release(&f);

	struct clawmd_lint_opts lo_init = CLAWMD_LINT_OPTS_INIT;
	clawmd_err_clear(&err);
	clawmd_findings_init(&f);
	is(clawmd_lint_tree(&f, "/nonexistent/clawmd", &lo_init, &err), CLAWMD_EINPUT,
	   "lint opts from CLAWMD_LINT_OPTS_INIT: taken (the tree is what is refused)");
	clawmd_findings_release(&f);

	struct clawmd_memory m;
	struct clawmd_memory_opts mo = CLAWMD_MEMORY_OPTS_INIT;
	mo.version = CLAWMD_MEMORY_OPTS_VERSION + 1;
	clawmd_err_clear(&err);
	clawmd_memory_init(&m);
	is(clawmd_memory_load(&m, &mo, &err), CLAWMD_EUSAGE, "memory opts from a newer header: EUSAGE");
	ok(strstr(err.msg, "clawmd_memory_opts: version 2, this library knows 1") != NULL,
	   "... saying both versions: %s", err.msg);
	clawmd_memory_release(&m);

	/* refused before the group is looked at */
	struct clawmd_render_opts ro = {0};
	struct clawmd_render_setup rs;
	clawmd_err_clear(&err);
	is(clawmd_render_setup(&rs, NULL, &ro, &err), CLAWMD_EUSAGE, "render opts of version 0: EUSAGE");
	ok(strstr(err.msg, "clawmd_render_opts: version 0") != NULL, "... naming it: %s", err.msg);
	clawmd_render_setup_release(&rs);
	struct clawmd_render_opts ri = CLAWMD_RENDER_OPTS_INIT;
	ok(ri.version == CLAWMD_RENDER_OPTS_VERSION && ri.memory.version == CLAWMD_MEMORY_OPTS_VERSION &&
	   !ri.runtime_set && !ri.release_set && !ri.sources_set,
	   "CLAWMD_RENDER_OPTS_INIT: both versions, nothing given");

	struct clawmd_compose_opts co = CLAWMD_COMPOSE_OPTS_INIT;
	struct clawmd_migrate_opts mg = CLAWMD_MIGRATE_OPTS_INIT;
	ok(co.version == CLAWMD_COMPOSE_OPTS_VERSION && !co.dry_run && !co.record_only,
	   "CLAWMD_COMPOSE_OPTS_INIT: the version, every option off");
	ok(mg.version == CLAWMD_MIGRATE_OPTS_VERSION && !mg.dry_run && !mg.force,
	   "CLAWMD_MIGRATE_OPTS_INIT: the version, every option off");
	return done_testing();
}
