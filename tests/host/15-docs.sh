#!/bin/bash
# The documents a reader finds in a clean clone: every relative link of
# every Markdown file resolves (the file, and the heading of a #fragment),
# and the README stays a way in (at most 200 lines) rather than a notebook.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

cd "$project_dir" || die "no project directory $project_dir"
mapfile -t documents < <(git ls-files '*.md')
# found_docs: git lists enough Markdown files, the README among them
found_docs() {
	[ "${#documents[@]}" -ge 8 ] && printf '%s\n' "${documents[@]}" | grep -qx README.md
}
check "git ls-files finds the README and the docs (${#documents[@]} Markdown files)" found_docs

# broken_links FILE: one line per link of FILE that does not resolve
broken_links() {
	python3 - "$1" <<'EOF'
import os, re, sys

path = sys.argv[1]
text = open(path, encoding="utf-8").read()
# Code blocks and inline code hold commands, not links.
prose = re.sub(r"```.*?```", "", text, flags=re.S)
prose = re.sub(r"`[^`\n]*`", "", prose)

def anchors(target):
    """GitHub's heading ids of a Markdown file."""
    ids = set()
    body = re.sub(r"```.*?```", "", open(target, encoding="utf-8").read(), flags=re.S)
    for heading in re.findall(r"^#{1,6} +(.+?) *$", body, flags=re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        ids.add(slug)
    return ids

for link in re.findall(r"\]\(([^)\s]+)\)", prose):
    if re.match(r"^[a-z]+:", link):
        continue
    name, _, fragment = link.partition("#")
    target = os.path.normpath(os.path.join(os.path.dirname(path), name)) if name else path
    if not os.path.exists(target):
        print("%s: no such file" % link)
    elif fragment and target.endswith(".md") and fragment not in anchors(target):
        print("%s: no heading #%s in %s" % (link, fragment, target))
EOF
}

for doc in "${documents[@]}"; do
	broken=$(broken_links "$doc") || broken="(the link check itself failed on $doc)"
	check "$doc: every relative link resolves" [ -z "$broken" ]
	[ -z "$broken" ] || printf '%s\n' "$broken" | sed 's/^/#   /'
done

lines=$(wc -l <README.md)
check "README.md is a way in: $lines lines (at most 200)" [ "$lines" -le 200 ]
for reader in 'an \*\*operator\*\*' '\*\*vendor support\*\*' 'a \*\*kernel developer\*\*'; do
	check "README.md has a way in for ${reader//\\/}" grep -q "$reader" README.md
done
finish
