/* root.c - the root handle: a layout and the pass its groups share
 * (clawmd/layout.h).  It lives on the floor of the pass it frees. */
#include "clawmd.h"

#include <string.h>

void clawmd_root_init(struct clawmd_root *root)
{
	memset(root, 0, sizeof(*root));
	clawmd_layout_init(&root->lay);
}

int clawmd_root_load(struct clawmd_root *root, const char *dir, struct clawmd_err *err)
{
	return clawmd_layout_load(&root->lay, dir, err);
}

void clawmd_root_release(struct clawmd_root *root)
{
	if (!root)
		return;
	clawmd_pass_free(root->pass);
	clawmd_layout_release(&root->lay);
	clawmd_root_init(root);
}
