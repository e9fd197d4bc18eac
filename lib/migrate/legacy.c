/*
 * legacy.c - whether a tree holds a legacy layout clawmd_migrate() would
 * cut over, asked from outside before any root is loaded (`clawmd init`
 * adopting a tree says to run migrate).  The legacy layout is migrate's
 * own knowledge (clawmd/migrate.h), so the question is asked here.
 */
#include "clawmd.h"

#include <dirent.h>
#include <string.h>
#include <sys/stat.h>

bool clawmd_migrate_legacy_seen(const struct clawmd_dir *top, bool *any_group)
{
	struct clawmd_dir gd = CLAWMD_DIR_INIT;
	struct clawmd_err err = CLAWMD_ERR_INIT;
	bool legacy = false;
	DIR *dir;
	if (clawmd_dir_open_beneath(&gd, top, "groups", false, &err) != 0 ||
	    !(dir = clawmd_fs_list(gd.fd))) {
		clawmd_dir_release(&gd);
		return false;
	}
	size_t k = 0;
	for (struct dirent *e; !legacy && k < CLAWMD_LEGACY_LOOK_MAX && (e = readdir(dir)); k++) {
		struct clawmd_dir group_dir = CLAWMD_DIR_INIT;
		struct clawmd_buf text = CLAWMD_BUF_INIT;
		mode_t t = 0;
		if (e->d_name[0] == '.' || clawmd_dir_open_beneath(&group_dir, &gd, e->d_name, false, &err) != 0) {
			clawmd_dir_release(&group_dir);
			clawmd_err_clear(&err);
			continue;
		}
		*any_group = true;
		legacy = !strcmp(e->d_name, "global") ||
			 (clawmd_fs_type(&t, &group_dir, ".claude-global.md", &err) == 0 && t) ||
			 (clawmd_fs_read(&text, &group_dir, "CLAUDE.md", 4u << 20, &err) == 0 &&
			  !clawmd_entry_ours(text.ptr, text.len));
		clawmd_buf_release(&text);
		clawmd_dir_release(&group_dir);
		clawmd_err_clear(&err);
	}
	closedir(dir);
	clawmd_dir_release(&gd);
	return legacy;
}
