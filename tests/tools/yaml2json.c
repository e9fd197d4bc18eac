/* yaml2json.c - print a YAML file's one document as JSON, for the tests
 * (tests/t57-ci-recipes.sh reads the CI recipes through it and perl's
 * JSON::PP).  libyaml is already a dependency of clawmd; no YAML module is
 * needed in perl or python.
 *
 *   yaml2json FILE     exit 0 and the JSON on stdout, or exit 1 and a
 *                      message naming FILE, the line and the problem
 *
 * Scalars become JSON strings (no tag resolution: `true` is "true"), which
 * is all the tests compare.  A mapping with the same key twice, more than
 * one document, or a non-scalar key is an error, as GitHub Actions refuses
 * them. */
#define _GNU_SOURCE /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

static const char *file;
static FILE *out; /* the JSON, printed only when the whole file converted */

static void put_string(const unsigned char *s, size_t n)
{
	fputc('"', out);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = s[i];
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static int put_node(yaml_document_t *doc, yaml_node_t *node, int depth)
{
	if (!node || depth > 64) {
		fprintf(stderr, "yaml2json: %s: nested too deep\n", file);
		return -1;
	}
	switch (node->type) {
	case YAML_SCALAR_NODE:
		put_string(node->data.scalar.value, node->data.scalar.length);
		return 0;
	case YAML_SEQUENCE_NODE:
		fputc('[', out);
		for (yaml_node_item_t *it = node->data.sequence.items.start;
		     it < node->data.sequence.items.top; it++) {
			if (it != node->data.sequence.items.start)
				fputc(',', out);
			if (put_node(doc, yaml_document_get_node(doc, *it), depth + 1))
				return -1;
		}
		fputc(']', out);
		return 0;
	case YAML_MAPPING_NODE:
		fputc('{', out);
		for (yaml_node_pair_t *p = node->data.mapping.pairs.start;
		     p < node->data.mapping.pairs.top; p++) {
			yaml_node_t *k = yaml_document_get_node(doc, p->key);
			if (!k || k->type != YAML_SCALAR_NODE) {
				fprintf(stderr, "yaml2json: %s:%lu: a key that is not a scalar\n", file,
					(unsigned long)(k ? k->start_mark.line + 1 : 0));
				return -1;
			}
			for (yaml_node_pair_t *q = node->data.mapping.pairs.start; q < p; q++) {
				yaml_node_t *o = yaml_document_get_node(doc, q->key);
				if (o->data.scalar.length == k->data.scalar.length &&
				    !memcmp(o->data.scalar.value, k->data.scalar.value, k->data.scalar.length)) {
					fprintf(stderr, "yaml2json: %s:%lu: duplicate key '%s'\n", file,
						(unsigned long)k->start_mark.line + 1,
						(const char *)k->data.scalar.value);
					return -1;
				}
			}
			if (p != node->data.mapping.pairs.start)
				fputc(',', out);
			put_string(k->data.scalar.value, k->data.scalar.length);
			fputc(':', out);
			if (put_node(doc, yaml_document_get_node(doc, p->value), depth + 1))
				return -1;
		}
		fputc('}', out);
		return 0;
	default:
		fprintf(stderr, "yaml2json: %s: an empty node\n", file);
		return -1;
	}
}

int main(int argc, char **argv)
{
	yaml_parser_t parser;
	yaml_document_t doc, extra;
	FILE *f;
	int rc = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: yaml2json FILE\n");
		return 2;
	}
	file = argv[1];
	f = fopen(file, "rb");
	if (!f) {
		perror(file);
		return 1;
	}
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_file(&parser, f);
	if (!yaml_parser_load(&parser, &doc)) {
		fprintf(stderr, "yaml2json: %s:%lu:%lu: %s\n", file,
			(unsigned long)parser.problem_mark.line + 1,
			(unsigned long)parser.problem_mark.column + 1,
			parser.problem ? parser.problem : "not YAML");
		goto out_parser;
	}
	if (!yaml_document_get_root_node(&doc)) {
		fprintf(stderr, "yaml2json: %s: no document\n", file);
		goto out_doc;
	}
	if (!yaml_parser_load(&parser, &extra)) {
		fprintf(stderr, "yaml2json: %s:%lu: %s\n", file,
			(unsigned long)parser.problem_mark.line + 1,
			parser.problem ? parser.problem : "not YAML");
		goto out_doc;
	}
	if (yaml_document_get_root_node(&extra)) {
		fprintf(stderr, "yaml2json: %s: more than one document\n", file);
		yaml_document_delete(&extra);
		goto out_doc;
	}
	yaml_document_delete(&extra);
	char *json = NULL;
	size_t len = 0;
	out = open_memstream(&json, &len);
	if (!out) {
		perror("yaml2json");
		goto out_doc;
	}
	int bad = put_node(&doc, yaml_document_get_root_node(&doc), 0);
	fputc('\n', out);
	if (fclose(out) == 0 && !bad)
		rc = fwrite(json, 1, len, stdout) != len || fflush(stdout) ? 1 : 0;
	free(json);
out_doc:
	yaml_document_delete(&doc);
out_parser:
	yaml_parser_delete(&parser);
	fclose(f);
	return rc;
}
