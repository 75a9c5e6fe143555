#!/bin/bash
# The documents a reader finds in a clean clone: every relative link of
# every Markdown file resolves (the file, and the heading of a #fragment),
# the question index (docs/questions.md) links every one-liner, and the
# README stays a way in (at most 200 lines) rather than a notebook.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

cd "$project_dir" || die "no project directory $project_dir"
mapfile -t documents < <(git ls-files '*.md')
# found_docs: git lists enough Markdown files, the README among them
found_docs() {
	[ "${#documents[@]}" -ge 8 ] && printf '%s\n' "${documents[@]}" | grep -qx README.md
}
check "git ls-files finds the README and the docs (${#documents[@]} Markdown files)" found_docs
# The operator's way in: checked also before git knows them
for doc in docs/questions.md docs/first-minute.md; do
	check "$doc exists" [ -f "$doc" ]
	[ ! -f "$doc" ] || printf '%s\n' "${documents[@]}" | grep -qxF "$doc" || documents+=("$doc")
done

# markdown MODE FILE [LIST...]: what a reader would stumble on, one line
# each. Heading ids are GitHub's: lower case, punctuation but - and _
# dropped, spaces to -, the second of two equal ones -1, the third -2.
#   markdown links FILE           relative links of FILE that do not resolve
#   markdown entries FILE LIST... the "### " entries of each LIST that
#                                 FILE does not link to
markdown() {
	python3 - "$@" <<'EOF'
import os, re, sys

def without_code(text):
    return re.sub(r"```.*?```", "", text, flags=re.S)

def headings(target):
    """(level, GitHub id) of each heading of a Markdown file, in order."""
    seen, found = {}, []
    body = without_code(open(target, encoding="utf-8").read())
    for hashes, heading in re.findall(r"^(#{1,6}) +(.+?) *$", body, flags=re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        found.append((len(hashes), slug if n == 0 else "%s-%d" % (slug, n)))
    return found

def links(path):
    """(link, the file it names, its fragment) of each relative link."""
    # Code blocks and inline code hold commands, not links.
    prose = without_code(open(path, encoding="utf-8").read())
    prose = re.sub(r"`[^`\n]*`", "", prose)
    for link in re.findall(r"\]\(([^)\s]+)\)", prose):
        if re.match(r"^[a-z]+:", link):
            continue
        name, _, fragment = link.partition("#")
        target = os.path.normpath(os.path.join(os.path.dirname(path), name)) if name else path
        yield link, target, fragment

mode, path, lists = sys.argv[1], sys.argv[2], sys.argv[3:]
if mode == "links":
    for link, target, fragment in links(path):
        if not os.path.exists(target):
            print("%s: no such file" % link)
        elif fragment and target.endswith(".md") and \
                fragment not in [slug for _, slug in headings(target)]:
            print("%s: no heading #%s in %s" % (link, fragment, target))
elif mode == "entries":
    linked = {(target, fragment) for _, target, fragment in links(path)}
    for target in lists:
        for level, slug in headings(target):
            if level == 3 and (os.path.normpath(target), slug) not in linked:
                print("%s#%s" % (target, slug))
else:
    sys.exit("markdown: no mode %s" % mode)
EOF
}

for doc in "${documents[@]}"; do
	broken=$(markdown links "$doc") || broken="(the link check itself failed on $doc)"
	check "$doc: every relative link resolves" [ -z "$broken" ]
	[ -z "$broken" ] || printf '%s\n' "$broken" | sed 's/^/#   /'
done

# Every one-liner (a "### " entry of a list) has a place in the index
index=docs/questions.md
for list in tools/oneliners/systemtap.md tools/oneliners/tracers.md tools/oneliners/zfs.md; do
	entries=$(grep -c '^### ' "$list" || true)
	unlinked=$(markdown entries "$index" "$list") || unlinked="(the entry check itself failed on $list)"
	check "$index links each of the $entries entries of $list" [ -z "$unlinked" ]
	[ -z "$unlinked" ] || printf '%s\n' "$unlinked" | sed 's/^/#   not linked: /'
done

# Counts the docs quote, against the code they count
demo_steps=$(grep -cE '^heading "[0-9]+\. ' guest-image/demo)
numbers=(zero one two three four five six seven eight nine ten eleven twelve)
for doc in README.md docs/building.md; do
	check "$doc says the demo has ${numbers[demo_steps]} steps, as guest-image/demo has" \
		grep -q "${numbers[demo_steps]} steps" "$doc"
done
# The demo's headings the README quotes, as guest-image/demo prints them
demo_headings=$(sed -n 's/^heading "\([0-9][0-9]*\. .*\)"$/\1/p' guest-image/demo)
quoted=$(sed -n 's/^======== \(.*\) ========$/\1/p' README.md)
unknown=$(grep -vxF "$demo_headings" <<<"$quoted" || true)
# all_known: the README quotes headings, and each is the demo's
all_known() { [ -n "$quoted" ] && [ -z "$unknown" ]; }
check "README.md quotes $(grep -c . <<<"$quoted") of the demo's headings, numbered as guest-image/demo numbers them" all_known
[ -z "$unknown" ] || printf '#   not in guest-image/demo: %s\n' "$unknown"
# The drop's files, as vendor-module/README.md lists them
drop=vendor-module/drop
if [ -d "$drop" ]; then
	# shellcheck disable=SC2016 # the backticks are Markdown's
	listed=$(sed -n '/^## The drop/,/^## /s/^| `\([^`]*\)` |.*/\1/p' vendor-module/README.md | sed 's|/$||' | sort)
	shipped=$(find "$drop" -mindepth 1 -maxdepth 1 -printf '%f\n' | sort)
	check "vendor-module/README.md lists the $(grep -c . <<<"$shipped") entries of the drop, no more" \
		[ "$listed" = "$shipped" ]
	[ "$listed" = "$shipped" ] || diff <(echo "$listed") <(echo "$shipped") | sed -n 's/^[<>]/#   &/p'
	markers=$(tools/markers-elf/markers-elf "$drop/acme_xa.ko" 2>/dev/null | grep -c . || true)
	check "vendor-module/README.md says markers-elf prints the drop's $markers markers" \
		grep -q "prints the same $markers markers" vendor-module/README.md
else
	not_ok "vendor-module/README.md's list of the drop: no $drop (make vendor)"
fi
check "make help retypes no time (they live in docs/building.md#times)" \
	lacks '~ *[0-9.]* *min' <(make -s help)

# The cost of an enabled marker against a tracepoint, as the cover letter
# and docs/kernel-series.md quote it: the paired ratios of
# bench/results/latest.txt, in instructions (its first table of ratios;
# the TCG time ratios come after)
# ratio A B DIGITS: the ratio A/B, rounded to DIGITS
ratio() {
	awk -v r="$1/$2" -v d="$3" '$1 == r && !done { printf "%.*f", d, $2; done = 1 }' bench/results/latest.txt
}
# as_text FILE: FILE on one line, blanks squeezed (the quotes wrap)
as_text() { tr -s ' \n' '  ' <"$1"; }
costs=("$(ratio stap-mark stap-trace 2) times( a tracepoint)? under SystemTap"
	"$(ratio ftrace-marker ftrace-tracepoint 2) under ftrace"
	"$(ratio perf-marker perf-tracepoint 2) under perf"
	"$(ratio bpftrace-marker bpftrace-tracepoint 2) under bpftrace"
	"$(ratio marker-probe tracepoint-probe 1) times with an empty in-kernel probe")
for doc in kernel/patches/0000-cover-letter.patch docs/kernel-series.md; do
	missing=''
	for cost in "${costs[@]}"; do
		as_text "$doc" | grep -qE -- "${cost//./\\.}" || missing+=" '$cost'"
	done
	check "$doc quotes the costs of bench/results/latest.txt" [ -z "$missing" ]
	[ -z "$missing" ] || echo "#   not found:$missing"
done

lines=$(wc -l <README.md)
check "README.md is a way in: $lines lines (at most 200)" [ "$lines" -le 200 ]
for reader in 'an \*\*operator\*\*' '\*\*vendor support\*\*' 'a \*\*kernel developer\*\*'; do
	check "README.md has a way in for ${reader//\\/}" grep -q "$reader" README.md
done
finish
