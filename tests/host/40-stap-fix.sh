#!/bin/bash
# guest-image/stap-fix edits only the stap binary it was checked on: the
# build root's (systemtap 5.1-5) gives the fixed copy the root has; another
# package version, or another binary under the same version, stops it
# with a message saying so. Its source form, the patch, removes the same
# emitted label the byte edit comments out.
# shellcheck disable=SC2016 # eval takes its checks in single quotes
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

fix=$project_dir/guest-image/stap-fix
patch=$project_dir/guest-image/systemtap/tapset-mark-5.1.patch
root=$(readlink -f build/root)
[ -x "$root/usr/bin/stap" ] || die "no build root at build/root; run 'make root'"

# fake_root DIR VERSION: a root with the build root's stap and a dpkg
# status that gives systemtap VERSION
fake_root() {
	mkdir -p "$1/usr/bin" "$1/var/lib/dpkg/updates" "$1/var/lib/dpkg/info"
	cp "$root/usr/bin/stap" "$1/usr/bin/stap"
	printf 'Package: systemtap\nStatus: install ok installed\nArchitecture: amd64\nVersion: %s\n' "$2" \
		>"$1/var/lib/dpkg/status"
}

fake_root "$scratch/good" 5.1-5
status=0
"$fix" "$scratch/good" >"$scratch/good.log" 2>&1 || status=$?
check "stap 5.1-5 as in the build root: fixed (exit $status)" [ "$status" = 0 ]
check "the fixed copy is the build root's, byte for byte" \
	cmp -s "$scratch/good/usr/local/lib/markers/stap" "$root/usr/local/lib/markers/stap"
check "the copy differs from /usr/bin/stap only in the emitted label" \
	eval '[ "$(cmp -l "$scratch/good/usr/bin/stap" "$scratch/good/usr/local/lib/markers/stap" | wc -l)" -le 14 ] &&
		grep -c -a -F "/* no label */" "$scratch/good/usr/local/lib/markers/stap" | grep -qx 1'

fake_root "$scratch/newer" 5.1-6
status=0
"$fix" "$scratch/newer" >"$scratch/newer.log" 2>&1 || status=$?
sed 's/^/# /' "$scratch/newer.log"
check "systemtap 5.1-6: refused (exit $status), naming the version" \
	eval '[ "$status" != 0 ] && grep -q "systemtap 5.1-6 amd64 in the root; the kernel.mark() fix is for 5.1-5 amd64 only" "$scratch/newer.log"'
check "... and nothing written" test ! -e "$scratch/newer/usr/local/lib/markers/stap"

fake_root "$scratch/rebuilt" 5.1-5
printf '\0' >>"$scratch/rebuilt/usr/bin/stap"
status=0
"$fix" "$scratch/rebuilt" >"$scratch/rebuilt.log" 2>&1 || status=$?
sed 's/^/# /' "$scratch/rebuilt.log"
check "another binary under 5.1-5: refused (exit $status), naming its sha256" \
	eval '[ "$status" != 0 ] && grep -q "has sha256 [0-9a-f]\{64\}, not the 230be9a6" "$scratch/rebuilt.log"'

check "the source patch removes the emitted 'deref_fault: ;' the byte edit comments out" \
	grep -qxF -- '-    o->newline() << "deref_fault: ;";' "$patch"
check "the source patch fixes \$\$parms at its require (tsym)" \
	eval 'grep -qF -- "-          expression *texp = require (tsym);" "$patch" &&
		grep -qF -- "+          expression *texp = require<expression> (tsym);" "$patch"'
finish
