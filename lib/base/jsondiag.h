/*
 * jsondiag.h - say what is wrong with a JSON text that cJSON refused.
 *
 * cJSON reports only an offset.  clawmd_json_diagnose() scans the text by
 * RFC 8259 and writes into msg (at most cap bytes, NUL-terminated) what was
 * expected at the first byte that cannot continue it and what was found:
 *
 *	expected a value (an object, ...) after ',' but found ']'
 *	expected a key (a string in double quotes) after ',' but found '}'
 *	expected ':' after the key "skills" but found '['
 *	expected a JSON value but the file is empty
 *
 * It returns that byte's offset (the caller turns it into LINE:COL), or
 * len + 1 when it finds nothing wrong (msg empty): the caller then falls
 * back to cJSON's offset.  The text may hold any bytes; messages quote at
 * most a short printable token.
 */
#ifndef CLAWMD_BASE_JSONDIAG_H
#define CLAWMD_BASE_JSONDIAG_H

#include <stddef.h>

size_t clawmd_json_diagnose(char *msg, size_t cap, const char *text, size_t len);

/* The offset of the first NUL in a JSON text, raw or as a "\u0000"
 * escape, or len when there is none.  cJSON ends its strings there: a key
 * "codex\u0000evil" would read as "codex", so a text holding one is
 * refused before it is parsed. */
size_t clawmd_json_nul_at(const char *text, size_t len);

#endif
