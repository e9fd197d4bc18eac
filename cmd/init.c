/* init.c - `clawmd init`: scaffold a new layout, overwriting nothing. */
#include <cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"

static const char help_head[] =
	"usage: clawmd init [options] [DIR]\n"
	"\n"
	"Scaffold a layout in DIR (default: the -C directory, else the current one;\n"
	"created when missing): container/CLAUDE.md (the shared base), skills/,\n"
	"groups/, a clawmd.json with the fragment mode and the agents' Claude Code\n"
	"release, and .gitignore lines for CLAUDE.local.md (per-group memory the\n"
	"agents write) and the state directory .clawmd/.  Nothing is overwritten:\n"
	"when any of these exists, init changes nothing and says which.  An\n"
	"existing .gitignore only gets the lines it lacks.\n";

static const char help_foot[] =
	"Exit status: 0 success, 2 usage, 3 invalid input (--mode, --claude-version,\n"
	"--preset), 4 something is already there, or a write failed.\n";

enum { OPT_MODE = OPT_CMD, OPT_VERSION, OPT_PRESET };

static const struct cmd_opt options[] = {
	{"mode", OPT_MODE, "MODE", "fragments as 'copy' (loads on every Claude Code\n"
				   "release) or 'symlink' (default: copy)"},
	{"claude-version", OPT_VERSION, "V", "the agents' Claude Code release (default:\n"
					     "2.1.330, the newest clawmd knows)"},
	{"preset", OPT_PRESET, "NAME", "default, or nanoclaw (skills in container/skills)"},
	{"root", 'C', "DIR", "the directory to scaffold (as DIR)"},
	CMD_OPT_END,
};

static const char base_text[] =
	"# Shared instructions\n"
	"\n"
	"Every agent group loads this file first. It is mounted read-only into the\n"
	"containers; per-group memory belongs in groups/<group>/CLAUDE.local.md.\n";

struct init_file {
	const char *path; /* relative to DIR; ends in '/' for a directory */
	const char *text;
};

/* Write `text` into a new file `path` (never replacing one). */
static int create_file(int dfd, const char *path, const char *text)
{
	int fd = openat(dfd, path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	size_t len = strlen(text), off = 0;
	while (off < len) {
		ssize_t w = write(fd, text + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int e = errno;
			close(fd);
			unlinkat(dfd, path, 0);
			errno = e ? e : EIO;
			return -1;
		}
		off += (size_t)w;
	}
	if (fsync(fd) < 0 || close(fd) < 0)
		return -1;
	return 0;
}

/* The .gitignore lines missing from `have`, appended (the file is the
 * user's: only added to, never rewritten). */
static int gitignore(int dfd, const char *const *lines, size_t n, const char *dir)
{
	char have[65536];
	ssize_t got = 0;
	int fd = openat(dfd, ".gitignore", O_RDWR | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	got = pread(fd, have, sizeof(have) - 1, 0);
	have[got > 0 ? got : 0] = '\0';
	bool nl = got <= 0 || have[got - 1] == '\n';
	for (size_t i = 0; i < n; i++) {
		const char *p = have;
		size_t l = strlen(lines[i]);
		bool found = false;
		for (; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
			if (!strncmp(p, lines[i], l) && (p[l] == '\n' || !p[l]))
				found = true;
		if (found)
			continue;
		if (dprintf(fd, "%s%s\n", nl ? "" : "\n", lines[i]) < 0) {
			close(fd);
			return -1;
		}
		nl = true;
		printf("added '%s' to %s/.gitignore\n", lines[i], dir);
	}
	if (fsync(fd) < 0 || close(fd) < 0)
		return -1;
	return 0;
}

int cmd_init(int argc, char **argv)
{
	struct cmd_args a;
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_release rel = clawmd_release_default;
	const char *mode = "copy", *version = NULL, *preset = NULL, *dir = cmd_layout_global.root;
	int c;
	cmd_args_init(&a, "init", options, false, argc, argv);
	while ((c = cmd_args_next(&a)) > 0) {
		switch (c) {
		case OPT_MODE: mode = a.arg; break;
		case OPT_VERSION: version = a.arg; break;
		case OPT_PRESET: preset = a.arg; break;
		case 'C': dir = a.arg; break;
		case 'h': cmd_help_own(help_head, options, help_foot); cmd_args_release(&a); return 0;
		default:
			if (!cmd_args_common(&a, c, NULL))
				c = (cmd_usage_error("init", "%s: expected auto, always or never, not '%s'",
						     a.spelled, a.arg), -1);
		}
		if (c < 0)
			break;
	}
	if (c >= 0 && a.noperands > 1)
		c = (cmd_usage_error("init", "unexpected argument '%s'", a.operands[1]), -1);
	if (c >= 0 && a.noperands)
		dir = a.operands[0];
	cmd_args_release(&a);
	if (c < 0)
		return 2;
	if (!dir)
		dir = ".";
	/* Every value is checked before anything is created. */
	if (strcmp(mode, "copy") && strcmp(mode, "symlink")) {
		fprintf(stderr, "clawmd: --mode: expected 'symlink' or 'copy', not '%s'\n", mode);
		return 3;
	}
	if (preset && strcmp(preset, "default") && strcmp(preset, "nanoclaw")) {
		fprintf(stderr, "clawmd: --preset: unknown preset '%s' (default, nanoclaw)\n", preset);
		return 3;
	}
	if (version && clawmd_release_parse(&rel, version, &err) < 0) {
		fprintf(stderr, "clawmd: --claude-version: %s\n", err.msg);
		return 3;
	}
	bool nano = preset && !strcmp(preset, "nanoclaw");

	cJSON *doc = cJSON_CreateObject();
	char ver[64];
	snprintf(ver, sizeof(ver), "%u.%u.%u", rel.major, rel.minor, rel.patch);
	if (preset)
		cJSON_AddStringToObject(doc, "preset", preset);
	cJSON_AddStringToObject(doc, "mode", mode);
	cJSON_AddStringToObject(doc, "claude_version", ver);
	char *json = cJSON_Print(doc);
	cJSON_Delete(doc);
	char *json_nl = NULL;
	if (!json || asprintf(&json_nl, "%s\n", json) < 0)
		abort();
	free(json);

	const struct init_file files[] = {
		{"container/", NULL},
		{"container/CLAUDE.md", base_text},
		{nano ? "container/skills/" : "skills/", NULL},
		{"groups/", NULL},
		{"clawmd.json", json_nl},
	};
	static const char *const ignore[] = {"CLAUDE.local.md", "/.clawmd/"};
	int status = 0;

	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "clawmd: could not create '%s': %s\n", dir, strerror(errno));
		free(json_nl);
		return 4;
	}
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		fprintf(stderr, "clawmd: could not open directory '%s': %s\n", dir, strerror(errno));
		free(json_nl);
		return 4;
	}
	/* 1. Refuse before creating anything: nothing of ours may be there
	 *    (an existing container/ directory is fine, its CLAUDE.md not). */
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct stat st;
		size_t l = strlen(files[i].path);
		char p[64];
		snprintf(p, sizeof(p), "%.*s", (int)(files[i].path[l - 1] == '/' ? l - 1 : l),
			 files[i].path);
		if (!strcmp(p, "container"))
			continue;
		if (fstatat(dfd, p, &st, AT_SYMLINK_NOFOLLOW) == 0) {
			fprintf(stderr, "clawmd: %s/%s already exists; init overwrites nothing (remove it, "
					"or scaffold another directory)\n", dir, p);
			status = 4;
		}
	}
	/* 2. Create, each with O_EXCL / mkdir, so a race cannot make us replace. */
	for (size_t i = 0; !status && i < sizeof(files) / sizeof(files[0]); i++) {
		const char *p = files[i].path;
		size_t l = strlen(p);
		char d[64];
		int rc;
		if (p[l - 1] == '/') {
			snprintf(d, sizeof(d), "%.*s", (int)(l - 1), p);
			rc = mkdirat(dfd, d, 0755);
			if (rc < 0 && errno == EEXIST && !strcmp(d, "container"))
				continue;
			p = d;
		} else {
			rc = create_file(dfd, p, files[i].text);
		}
		if (rc < 0) {
			fprintf(stderr, "clawmd: could not create '%s/%s': %s\n", dir, p, strerror(errno));
			status = 4;
			break;
		}
		printf("created %s/%s%s\n", dir, p, files[i].path[l - 1] == '/' ? "/" : "");
	}
	if (!status && gitignore(dfd, ignore, sizeof(ignore) / sizeof(ignore[0]), dir) < 0) {
		fprintf(stderr, "clawmd: could not update '%s/.gitignore': %s\n", dir, strerror(errno));
		status = 4;
	}
	if (!status)
		printf("next: add skills under %s/, then 'clawmd -C %s compose --all'\n",
		       nano ? "container/skills" : "skills", dir);
	close(dfd);
	free(json_nl);
	return status;
}
