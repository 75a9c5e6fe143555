#!/bin/bash
# Every shell script of the project is shellcheck clean.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

mapfile -t scripts < <(git ls-files | while read -r f; do
	case $f in *.sh) echo "$f" ;; *) head -n 1 "$f" 2>/dev/null | grep -qE '^#!.*(ba)?sh' && echo "$f" ;; esac
done)
[ "${#scripts[@]}" -gt 5 ] || { echo "found only ${#scripts[@]} scripts: is this a git checkout?"; exit 1; }
for f in "${scripts[@]}"; do
	check "shellcheck $f" shellcheck -x "$f"
done
finish
