/* clawmd/json.h - JSON documents as clawmd prints them: built member by member, printed with every string well-formed (part of clawmd.h, which includes every part). */
#ifndef CLAWMD_API_JSON_H
#define CLAWMD_API_JSON_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A JSON document, built from the top down and printed once.  The values
 * are cJSON's (loaded on first use, like the library's own parsing), but
 * a caller never sees a cJSON type: the command's --json and --format
 * sarif output and a binding that wants the same bytes build through
 * these functions alone.
 *
 * Every add takes the parent and `key`: the member's name when the parent
 * is an object, NULL to append to an array.  A NULL parent is a no-op, so
 * a document whose library could not be loaded builds nothing, and
 * clawmd_json_text() then returns NULL (clawmd_libraries_missing() says
 * which).  A NULL string adds nothing either, as cJSON does.
 */
struct clawmd_json;

struct clawmd_json *clawmd_json_object(void);
struct clawmd_json *clawmd_json_array(void);
/* A new object or array added under `key`, returned for filling. */
struct clawmd_json *clawmd_json_add_object(struct clawmd_json *to, const char *key);
struct clawmd_json *clawmd_json_add_array(struct clawmd_json *to, const char *key);
void clawmd_json_add_string(struct clawmd_json *to, const char *key, const char *s);
void clawmd_json_add_number(struct clawmd_json *to, const char *key, double n);
void clawmd_json_add_bool(struct clawmd_json *to, const char *key, bool b);
void clawmd_json_add_null(struct clawmd_json *to, const char *key);
/* An array of the n strings of v. */
void clawmd_json_add_strings(struct clawmd_json *to, const char *key, char *const *v, size_t n);
/* A value built apart (clawmd_json_object(), ...), which `to` now owns. */
void clawmd_json_add(struct clawmd_json *to, const char *key, struct clawmd_json *value);
/*
 * `len` bytes of file content as one JSON string, whole (a NUL is \u0000,
 * where a C string would end), by the rule of CLAWMD_JSON_EXACT below:
 * ill-formed bytes as U+FFFD, then a member "key_base64" with the exact
 * bytes.  Into an object only.
 */
void clawmd_json_add_bytes(struct clawmd_json *to, const char *key, const char *data, size_t len);

/*
 * How strings that are not well-formed UTF-8 (a name or text an agent
 * wrote) are printed: each byte outside a well-formed sequence becomes
 * U+FFFD, always; with EXACT, a member "K" so changed also gets a sibling
 * "K_base64" holding its original bytes (for an array, a parallel array,
 * null where nothing changed), so a program can have the exact bytes.
 * REPLACE alone is for a schema that takes no extra members (SARIF).
 */
enum clawmd_json_strings { CLAWMD_JSON_REPLACE, CLAWMD_JSON_EXACT };

/* The document as indented text (tabs, as cJSON prints), its strings made
 * well-formed as `how` says; NULL when nothing was built (see above).
 * The document is changed by the cleaning; free it after.  Caller frees
 * the text. */
char *clawmd_json_text(struct clawmd_json *doc, enum clawmd_json_strings how);
void clawmd_json_free(struct clawmd_json *doc);

#ifdef __cplusplus
}
#endif
#endif
