/* name.c - the one rule for the names of groups, skills, modules and MCP
 * servers: they become file names in a directory the agent can write, so
 * nothing that could climb, hide or break a line passes. */
#include "clawmd.h"

bool clawmd_name_valid(const char *name, size_t len)
{
	if (len == 0 || len > 64)
		return false;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)name[i];
		bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
		if (!alnum && (i == 0 || (c != '.' && c != '_' && c != '-')))
			return false;
	}
	return true;
}
