#!/bin/bash
# SystemTap natively in the guest, against the build tree the guest sees
# read-only at /lib/modules/$(uname -r)/build: stap -L lists every core
# marker with typed arguments, the test module's markers merged from its
# binary, and the Acme tapset installed in the image resolves. (The native
# compile, minutes under TCG, is in tests/stap/40-native.sh.) The guest
# checks itself and prints KTAP (guest/stap-native.sh), given the typed
# line of every core marker that the host reads in Module.markers.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

[ -e "$mods/markers_gpl.ko" ] || die "no test modules; run tests/modules/build"
# What the guest checks stap -L for: the line of every core marker of the
# kernel build's Module.markers, typed (tests/lib.sh, stap_mark_line)
core=()
while IFS="$(printf '\t')" read -r name _ format; do
	core+=("$(stap_mark_line "$name" "$format")")
done < <(grep "$(printf '\tvmlinux\t')" "$kbuild/Module.markers")
check "the kernel build's Module.markers lists vmlinux's markers (${#core[@]})" [ "${#core[@]}" -gt 0 ]

guest_status=0
"$vm" run --timeout 600 --rodir "/mnt/host=$mods" -- bash -c "$(guest_half stap-native)" stap-native "${core[@]}" \
	>"$scratch/out" 2>&1 || guest_status=$?
guest_ktap "$scratch/out"
check "the guest ran to the end, with no kernel report (exit $guest_status)" [ "$guest_status" = 0 ]
finish
