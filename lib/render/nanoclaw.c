/*
 * nanoclaw.c - what a nanoclaw host adds to Claude Code's own loading, for
 * render (clawmd/render.h, doc/render.md "nanoclaw's session start"):
 *
 *  - the memory its SessionStart hook injects: the agent runner registers
 *    `bun /app/src/memory/hook.ts` for startup, clear and compact, and the
 *    hook prints the group's memory/index.md and memory/system/definition.md,
 *    each read as a UTF-8 string, trimmed as JavaScript trims, and cut at a
 *    budget of 16,000 UTF-16 code units (a lone high surrogate at the cut
 *    dropped) with a notice line after it (nanoclaw-today.md section 4);
 *  - the Claude Code release its image installs: container/cli-tools.json,
 *    a JSON array of {name, version}, pins "@anthropic-ai/claude-code".
 *
 * The memory files are the agent's: they are read through the container
 * view (fs/view.c), never by a host path.  cli-tools.json is the host's
 * own install tree.
 */
#include "clawmd.h"
#include "claude/mdscan.h"
#include "render/load.h"
#include "sys/dl.h"

#include <cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* What the hook writes after a file it cut (nanoclaw's
 * MEMORY_TRUNCATION_NOTICE): part of what the agent reads. */
#define TRUNCATION_NOTICE "[truncated: slim this file and move detail into linked memory files]"
/* What render reads of a memory file at most: far past the budget (16,000
 * code units are at most 48,000 bytes of UTF-8), so the cut is the hook's
 * for any file trimmed of less than 4 MiB of leading blanks. */
#define HOOK_READ_MAX (4u * 1024 * 1024)
#define PIN_FILE "container/cli-tools.json"
#define PIN_FILE_MAX (1024u * 1024)
#define PIN_PACKAGE "@anthropic-ai/claude-code"

void clawmd_hook_memory_text(struct clawmd_buf *out, const char *data, size_t len, size_t *units,
			     bool *truncated)
{
	struct clawmd_buf s = CLAWMD_BUF_INIT;
	size_t a, b, u = 0, cut = 0, i;
	clawmd_buf_put(&s, data, len);
	clawmd_utf8_sanitize(&s);
	clawmd_js_trim(s.ptr, s.len, &a, &b);
	/* UTF-16 code units: a four-byte sequence is a surrogate pair.  The
	 * cut is where the first CLAWMD_HOOK_MEMORY_CHARS units end; a pair
	 * split there loses its high half too (the hook drops a lone high
	 * surrogate), so the cut stays on a character boundary. */
	for (i = a; i < b;) {
		unsigned char c = (unsigned char)s.ptr[i];
		size_t n = c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
		size_t w = n == 4 ? 2 : 1;
		if (u + w <= CLAWMD_HOOK_MEMORY_CHARS)
			cut = i + n;
		u += w;
		i += n;
	}
	*units = u;
	*truncated = u > CLAWMD_HOOK_MEMORY_CHARS;
	clawmd_buf_clear(out);
	clawmd_buf_put(out, s.ptr + a, (*truncated ? cut : b) - a);
	if (*truncated)
		clawmd_buf_puts(out, "\n" TRUNCATION_NOTICE);
	clawmd_buf_release(&s);
}

/* The hook's script in the container: the runner that registers it. */
static bool hook_present(struct clawmd_view *v)
{
	struct clawmd_view_node nd;
	if (clawmd_view_resolve(&nd, v, CLAWMD_HOOK_SCRIPT, true) < 0)
		return false;
	bool reg = S_ISREG(nd.st.st_mode);
	clawmd_view_node_release(&nd);
	return reg;
}

static void hook_file(struct clawmd_hook_file *f, struct clawmd_view *v, const char *group,
		      const char *rel)
{
	struct clawmd_view_node nd;
	struct clawmd_buf raw = CLAWMD_BUF_INIT, text = CLAWMD_BUF_INIT;
	f->path = clawmd_path_join(group, rel);
	/* As the hook's readFileSync: links followed in the container's
	 * view; anything but a readable regular file is "unavailable". */
	if (clawmd_view_resolve(&nd, v, f->path, true) < 0)
		return;
	int rc = S_ISREG(nd.st.st_mode) ? clawmd_view_read_head(&nd, &raw, HOOK_READ_MAX) : -ENODEV;
	clawmd_view_node_release(&nd);
	if (rc == 0) {
		clawmd_hook_memory_text(&text, raw.ptr ? raw.ptr : "", raw.len, &f->chars,
					&f->truncated);
		f->available = true;
		f->len = text.len;
		f->text = clawmd_buf_detach(&text);
	}
	clawmd_buf_release(&raw);
	clawmd_buf_release(&text);
}

void clawmd_session_hook_load(struct clawmd_session_hook *out, const struct clawmd_mount *mounts,
			      size_t nmounts, const char *group)
{
	static const char *const rel[] = {"memory/index.md", "memory/system/definition.md"};
	struct clawmd_view v = {mounts, nmounts, NULL, NULL};
	memset(out, 0, sizeof(*out));
	if (!(out->present = hook_present(&v)))
		return;
	for (size_t i = 0; i < CLAWMD_ARRAY_SIZE(rel); i++)
		hook_file(&out->files[i], &v, group, rel[i]);
}

void clawmd_session_hook_release(struct clawmd_session_hook *h)
{
	for (size_t i = 0; i < CLAWMD_ARRAY_SIZE(h->files); i++) {
		free(h->files[i].path);
		free(h->files[i].text);
	}
	memset(h, 0, sizeof(*h));
}

int clawmd_nanoclaw_pinned_release(struct clawmd_release *out, char **file,
				   const struct clawmd_layout *lay, struct clawmd_err *err)
{
	struct clawmd_view host = {NULL, 0, NULL, NULL};
	struct clawmd_buf b = CLAWMD_BUF_INIT;
	char *path = clawmd_path_join(lay->root, PIN_FILE);
	cJSON *doc = NULL;
	int rc = clawmd_view_read(&host, path, &b, PIN_FILE_MAX, NULL);
	*file = clawmd_layout_shown(lay, path);
	if (rc == -ENOENT) {
		rc = 0;
		goto out;
	}
	if (rc < 0) {
		errno = -rc;
		rc = rc == -EFBIG ? clawmd_err_set(err, CLAWMD_EINPUT, "'%s': over %u bytes", *file,
						   PIN_FILE_MAX)
				  : clawmd_err_sys(err, CLAWMD_EFS, "could not read '%s'", *file);
		goto out;
	}
	if ((rc = clawmd_dl_need_cjson(err)) < 0)
		goto out;
	doc = cJSON_ParseWithLength(b.ptr ? b.ptr : "", b.len);
	if (!cJSON_IsArray(doc)) {
		rc = clawmd_err_set(err, CLAWMD_EINPUT, "'%s': expected a JSON array of {\"name\", "
							"\"version\"} objects",
				    *file);
		goto out;
	}
	const cJSON *it;
	cJSON_ArrayForEach(it, doc) {
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(it, "name");
		if (!cJSON_IsString(name) || strcmp(name->valuestring, PIN_PACKAGE))
			continue;
		const cJSON *ver = cJSON_GetObjectItemCaseSensitive(it, "version");
		struct clawmd_err e2 = CLAWMD_ERR_INIT;
		/* "latest" would say nothing about the image: a pin is X.Y.Z */
		if (!cJSON_IsString(ver) || !strcmp(ver->valuestring, "latest") ||
		    clawmd_release_parse(out, ver->valuestring, &e2) < 0) {
			char *shown = cJSON_IsString(ver) ? NULL : cJSON_PrintUnformatted(ver);
			rc = clawmd_err_set(err, CLAWMD_EINPUT,
					    "'%s': %s's version: expected a release such as 2.1.330, "
					    "not %s%s%s",
					    *file, PIN_PACKAGE, cJSON_IsString(ver) ? "'" : "",
					    cJSON_IsString(ver) ? ver->valuestring : shown ? shown : "none",
					    cJSON_IsString(ver) ? "'" : "");
			free(shown);
			goto out;
		}
		rc = 1;
		goto out;
	}
	rc = 0;
out:
	if (doc)
		cJSON_Delete(doc);
	clawmd_buf_release(&b);
	free(path);
	return rc;
}
