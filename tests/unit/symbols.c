/*
 * Unit test of the public/private boundary, read from the symbol tables
 * (nm) of what the build made:
 *  - libclawmd.a, what a host links, defines as globals only names of the
 *    public headers (read here, comments skipped: lib/include/clawmd.h and
 *    the parts in lib/include/clawmd/), so that no private name or cJSON/md4c
 *    forwarder can collide with a host's own;
 *  - the objects of cmd/ call no global of the library that is not public
 *    (cmd/front.c, the link-time stand-in for lib/sys/dl.c, aside), nor
 *    cJSON or md4c directly (JSON goes through clawmd/json.h);
 *  - the full program exports no name of the library or of cmd/ to the
 *    dynamic symbol table;
 *  - the Node addon exports its two N-API entry points and nothing else.
 * The Makefile makes the archive so (ld -r, objcopy --keep-global-symbols);
 * this reads the result independently of how.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clawmd.h"
#include "tap.h"

struct names {
	char **v;
	size_t n, cap;
};

static void names_add(struct names *s, const char *p, size_t len)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 256;
		if (!(s->v = realloc(s->v, s->cap * sizeof(*s->v))))
			abort();
	}
	if (!(s->v[s->n++] = strndup(p, len)))
		abort();
}

static bool names_has(const struct names *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], name))
			return true;
	return false;
}

static void names_free(struct names *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	*s = (struct names){0};
}

static bool ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Every clawmd_ identifier of a header outside comments and strings. */
static void header_names(struct names *out, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		ok(0, "read %s", path);
		return;
	}
	static char text[1 << 20];
	size_t len = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[len] = 0;
	for (size_t i = 0; i < len;) {
		if (!strncmp(text + i, "/*", 2)) {
			const char *e = strstr(text + i + 2, "*/");
			i = e ? (size_t)(e - text) + 2 : len;
		} else if (!strncmp(text + i, "//", 2) || text[i] == '"') {
			char end = text[i] == '"' ? '"' : '\n';
			for (i++; i < len && text[i] != end; i++)
				if (text[i] == '\\')
					i++;
			i++;
		} else if (ident(text[i])) {
			size_t s = i;
			while (i < len && ident(text[i]))
				i++;
			if (i - s > 7 && !strncmp(text + s, "clawmd_", 7)) {
				char name[256];
				snprintf(name, sizeof(name), "%.*s", (int)(i - s), text + s);
				if (!names_has(out, name))
					names_add(out, name, strlen(name));
			}
		} else {
			i++;
		}
	}
}

/* The symbols nm prints for `args`: of lines "VALUE TYPE NAME" or
 * "TYPE NAME" (undefined), those whose type is in `types`.  -1 when nm
 * could not run. */
static int nm_names(struct names *out, const char *args, const char *types)
{
	char cmd[4096], line[1024];
	snprintf(cmd, sizeof(cmd), "nm %s 2>/dev/null", args);
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p)) {
		char *f[3];
		int n = 0;
		for (char *t = line; n < 3;) {
			t += strspn(t, " \t\n");
			if (!*t)
				break;
			f[n++] = t;
			t += strcspn(t, " \t\n");
			if (*t)
				*t++ = 0;
		}
		if (n >= 2 && strlen(f[n - 2]) == 1 && strchr(types, f[n - 2][0]))
			names_add(out, f[n - 1], strlen(f[n - 1]));
	}
	return pclose(p) == 0 ? 0 : -1;
}

static void list_bad(const char *what, const struct names *bad)
{
	for (size_t i = 0; i < bad->n && i < 20; i++)
		printf("# %s: %s\n", what, bad->v[i]);
}

/* Global definitions: nm's upper-case types but U (undefined), w/v weak. */
#define DEFINED "ABCDGIRSTVWiuvw"

int main(void)
{
	const char *src = getenv("CLAWMD_SRC"), *build = getenv("CLAWMD_BUILD");
	if (!src || !build) {
		printf("1..0 # SKIP CLAWMD_SRC and CLAWMD_BUILD unset (run through make test)\n");
		return 0;
	}
	char path[4096], args[8192];
	struct names pub = {0}, lib = {0}, priv = {0};

	snprintf(path, sizeof(path), "%s/lib/include/clawmd.h", src);
	header_names(&pub, path);
	snprintf(path, sizeof(path), "%s/lib/include/clawmd", src);
	DIR *d = opendir(path);
	ok(d != NULL, "the public headers are at %s", path);
	for (struct dirent *e; d && (e = readdir(d));) {
		size_t n = strlen(e->d_name);
		if (n > 2 && !strcmp(e->d_name + n - 2, ".h")) {
			snprintf(path, sizeof(path), "%s/lib/include/clawmd/%s", src, e->d_name);
			header_names(&pub, path);
		}
	}
	if (d)
		closedir(d);
	ok(names_has(&pub, "clawmd_compose") && names_has(&pub, "clawmd_err_set"),
	   "the public headers name the API (%zu names)", pub.n);

	/* 1. The archive a host links. */
	snprintf(args, sizeof(args), "-g --defined-only '%s/libclawmd.a'", build);
	ok(nm_names(&lib, args, DEFINED) == 0, "nm reads libclawmd.a");
	struct names bad = {0};
	for (size_t i = 0; i < lib.n; i++)
		if (!names_has(&pub, lib.v[i]))
			names_add(&bad, lib.v[i], strlen(lib.v[i]));
	ok(lib.n > 50 && names_has(&lib, "clawmd_compose"), "libclawmd.a defines the API (%zu globals)",
	   lib.n);
	ok(bad.n == 0, "libclawmd.a defines no global the public headers do not name (%zu do)", bad.n);
	list_bad("libclawmd.a", &bad);
	names_free(&bad);

	/* 2. cmd/ against the private archive, which has every name. */
	snprintf(args, sizeof(args), "-g --defined-only '%s/lib/libclawmd-private.a'", build);
	int rc = nm_names(&priv, args, DEFINED);
	ok(rc == 0 && priv.n > lib.n, "the private archive has the private names too (%zu globals)", priv.n);
	snprintf(path, sizeof(path), "%s/cmd", build);
	d = opendir(path);
	ok(d != NULL, "cmd/'s objects are at %s", path);
	size_t nobj = 0;
	struct names used = {0};
	for (struct dirent *e; d && (e = readdir(d));) {
		size_t n = strlen(e->d_name);
		if (n < 3 || strcmp(e->d_name + n - 2, ".o") || !strcmp(e->d_name, "front.o"))
			continue;
		snprintf(args, sizeof(args), "-u '%s/cmd/%s'", build, e->d_name);
		nobj += nm_names(&used, args, "U") == 0;
	}
	if (d)
		closedir(d);
	for (size_t i = 0; i < used.n; i++)
		if (names_has(&priv, used.v[i]) && !names_has(&pub, used.v[i]) &&
		    strncmp(used.v[i], "cJSON_", 6) && !names_has(&bad, used.v[i]))
			names_add(&bad, used.v[i], strlen(used.v[i]));
	ok(nobj >= 5, "nm reads cmd/'s objects (%zu)", nobj);
	ok(bad.n == 0, "cmd/ calls only the public API (and cJSON's, which the library loads): "
		       "%zu private names", bad.n);
	list_bad("cmd/ uses", &bad);
	names_free(&bad);
	/* Not even cJSON's: the JSON documents are built with clawmd/json.h. */
	for (size_t i = 0; i < used.n; i++)
		if (!strncmp(used.v[i], "cJSON_", 6) || !strncmp(used.v[i], "md_", 3))
			names_add(&bad, used.v[i], strlen(used.v[i]));
	ok(bad.n == 0, "cmd/ calls no cJSON or md4c function (%zu): its JSON is clawmd_json_*",
	   bad.n);
	list_bad("cmd/ uses", &bad);
	names_free(&bad);
	names_free(&used);

	/* 3. The full program's dynamic symbols. */
	struct names dyn = {0};
	snprintf(args, sizeof(args), "-D --defined-only '%s/libexec/clawmd/clawmd'", build);
	ok(nm_names(&dyn, args, DEFINED) == 0, "nm reads the full program's dynamic symbols");
	for (size_t i = 0; i < dyn.n; i++)
		if (names_has(&priv, dyn.v[i]) || !strncmp(dyn.v[i], "clawmd_", 7) ||
		    !strncmp(dyn.v[i], "cmd_", 4) || !strncmp(dyn.v[i], "yaml_", 5))
			names_add(&bad, dyn.v[i], strlen(dyn.v[i]));
	ok(bad.n == 0, "the program exports no name of its own (%zu)", bad.n);
	list_bad("the program exports", &bad);
	names_free(&bad);
	names_free(&dyn);

	/* 4. The Node addon, where this build made it (Node's headers). */
	snprintf(path, sizeof(path), "%s/node/clawmd.node", build);
	if (access(path, F_OK) == 0) {
		snprintf(args, sizeof(args), "-D --defined-only '%s'", path);
		ok(nm_names(&dyn, args, DEFINED) == 0, "nm reads the addon's dynamic symbols");
		for (size_t i = 0; i < dyn.n; i++)
			if (strcmp(dyn.v[i], "napi_register_module_v1") &&
			    strcmp(dyn.v[i], "node_api_module_get_api_version_v1"))
				names_add(&bad, dyn.v[i], strlen(dyn.v[i]));
		ok(names_has(&dyn, "napi_register_module_v1") && bad.n == 0,
		   "the addon exports its module entry and nothing else (%zu others)", bad.n);
		list_bad("the addon exports", &bad);
		names_free(&bad);
		names_free(&dyn);
	} else {
		printf("ok %d # SKIP no %s (this build has no Node headers)\n", ++tap_n, path);
	}

	names_free(&pub);
	names_free(&lib);
	names_free(&priv);
	return done_testing();
}
