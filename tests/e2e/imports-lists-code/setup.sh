mkdir -p p
cd p
for f in list-codespan list-plain para-codespan para-plain fenced indented strike punct \
	comment residue ordered loose emph linktext quote heading; do
	echo "Imported: $f." >"$f.md"
done
echo "Imported: punct. (with the dot)" >"punct.md."
cat >CLAUDE.md <<'MD'
# Imports in lists and code

- see ` @./list-codespan.md ` in a tight list
- plain item @./list-plain.md

Paragraph with a code span ` @./para-codespan.md ` and plain @./para-plain.md

```
@./fenced.md
```

    @./indented.md

~~ @./strike.md ~~

Trailing punctuation @./punct.md.

<!-- a comment @./comment.md --> @./residue.md

1. ordered @./ordered.md

- loose item

  @./loose.md

*@./emph.md* and [@./linktext.md](https://example.com)

> quoted @./quote.md

## Heading @./heading.md
MD
