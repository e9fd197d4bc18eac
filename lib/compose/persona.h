/*
 * persona.h - a group's standing instructions (compose/'s interface: lint
 * lists the persona files as compose does).
 *
 * nanoclaw keeps a group's persona in files of the group named *.prepend.md:
 * instructions.prepend.md first, then the others in bytewise order.  With
 * the layout's "persona" on, the plan inlines them, each trimmed, blank
 * ones left out, joined by a blank line, into .claude-fragments/persona.md,
 * which the composed entry imports first.  The group is the agent's: the
 * files are listed and read without following a symlink, and a symlink, a
 * non-regular file or one past the size cap is left out with a warning (one
 * bad file does not fail the spawn, as nanoclaw has it).
 *
 *	char **names; size_t n;
 *	clawmd_persona_list(&names, &n, gfd, in);  // noted in `in` (fs/inputs.h)
 *	...
 *	clawmd_strv_free(names, n);
 */
#ifndef CLAWMD_PERSONA_H
#define CLAWMD_PERSONA_H

#include "clawmd.h"
#include "fs/fs.h"
#include "fs/inputs.h"

#define CLAWMD_PERSONA_FILES_MAX 64	     /* files taken, the first in order */
#define CLAWMD_PERSONA_MAX (256 * 1024) /* bytes of one file */
/* The most the persona fragment holds: Claude Code skips a file past 4
 * MiB whole, so the files that would take it past are left out, named;
 * the text of those taken stays under it with room for what defusing
 * adds. */
#define CLAWMD_PERSONA_LOAD_MAX (4 * 1024 * 1024)
#define CLAWMD_PERSONA_TEXT_MAX (CLAWMD_PERSONA_LOAD_MAX - 64 * 1024)

/* The persona files in `gfd` (the group directory), in their order: names
 * ending in .prepend.md that are valid names, whatever their type.  0, or
 * -1 with errno when the directory cannot be listed. */
int clawmd_persona_list(char ***out, size_t *n, int gfd, struct clawmd_inputs *in);

/*
 * The persona fragment's text into `out` (empty: no fragment), its live
 * imports defused (clawmd_defuse_imports) and counted in *ndefused;
 * `skipped` gets one message per file left out.  EFS when the group cannot
 * be listed.
 */
int clawmd_persona_build(struct clawmd_buf *out, size_t *ndefused, const struct clawmd_dir *gd,
			 const char *shown, struct clawmd_inputs *in,
			 void (*skipped)(void *payload, const char *msg), void *payload,
			 struct clawmd_err *err);

#endif
