#!/bin/bash
# The patch workflow round-trips: kernel/tree makes a git tree of the
# series from the Debian source, and kernel/export writes it back into
# exactly the committed files, byte for byte: every patch, the cover
# letter and series with its sections. kernel/export refuses a tree with
# changes that are not committed, and one that kernel/tree did not make.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=lib/kernel.sh
. lib/kernel.sh

tree=$scratch/tree
out=$scratch/out
if kernel/tree "$tree" >"$scratch/tree.log" 2>&1; then
	ok "kernel/tree makes a git tree of the series"
else
	sed 's/^/# /' "$scratch/tree.log"
	die "kernel/tree makes a git tree of the series"
fi
patches=$(series_patches | wc -l)
check "... with one commit per patch of series ($patches) on the base" \
	[ "$(git -C "$tree" rev-list --count base..markers)" = "$patches" ]

if kernel/export --tree "$tree" --out "$out" >"$scratch/export.log" 2>&1; then
	ok "kernel/export writes the series out"
else
	sed 's/^/# /' "$scratch/export.log"
	not_ok "kernel/export writes the series out"
fi
files=0
for f in kernel/patches/*; do
	files=$((files + 1))
	name=${f##*/}
	if cmp -s "$f" "$out/$name"; then
		ok "round trip: $name is the same, byte for byte"
	else
		diff -u "$f" "$out/$name" | head -n 20 | sed 's/^/# /'
		not_ok "round trip: $name is the same, byte for byte"
	fi
done
check "round trip: the committed files are the series, a cover letter and the $patches patches" \
	[ "$files" = $((patches + 2)) ]
check "round trip: kernel/export writes no file more" \
	[ "$(find "$out" -type f | wc -l)" = "$files" ]

# export_refuses ARGS...: kernel/export fails, its errors in $scratch/refused
export_refuses() { ! kernel/export "$@" 2>"$scratch/refused"; }
echo "/* uncommitted */" >>"$tree/kernel/marker.c"
check "kernel/export refuses a tree with changes that are not committed" \
	export_refuses --tree "$tree" --out "$scratch/dirty"
check "... and says so" grep -q 'not committed' "$scratch/refused"
check "... writing nothing" test ! -e "$scratch/dirty"
git -C "$tree" checkout -q -- kernel/marker.c
git -C "$tree" tag -d base >/dev/null
check "kernel/export refuses a tree kernel/tree did not make (no tag base)" \
	export_refuses --tree "$tree" --out "$scratch/nobase"
finish
