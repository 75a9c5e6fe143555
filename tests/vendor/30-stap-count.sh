#!/bin/bash
# SystemTap sees inside the binary-only driver: a script cross-compiled on
# the host (stap -r build/linux -p4) counts the acme markers while acmectl
# runs exactly N commands in the guest; N submits and N completions, and the
# driver's own counters agree. Natively in the guest, stap -L lists every
# acme marker from the installed drop with its format. The guest checks
# itself and prints KTAP (guest/stap-count.sh), given the count and each
# acme marker's format from the host's Module.markers; the compile runs on
# the host.
# shellcheck disable=SC2016 # $name, $format, $argN are SystemTap's
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

commands=1000
threads=3
share=$scratch/share
mkdir -p "$share"
cat >"$share/acme_count.stp" <<'STP'
global submits, completes, errors, depth_max, latency
probe kernel.mark("acme_cmd_submit") {
	submits++
	if ($arg4 > depth_max) depth_max = $arg4
}
probe kernel.mark("acme_cmd_complete") {
	completes++
	if ($arg2 != 0) errors++
	latency <<< $arg3
}
probe end {
	printf("stap_submits=%d\nstap_completes=%d\nstap_errors=%d\nstap_depth_max=%d\n", submits, completes, errors, depth_max)
	if (completes) printf("stap_latency_min_ns=%d\nstap_latency_max_ns=%d\n", @min(latency), @max(latency))
}
STP
(cd "$share" && "$vm" chroot -- stap -r "$kbuild" -p4 -m acme_count acme_count.stp) >"$scratch/compile.log" 2>&1 || true
if [ -s "$share/acme_count.ko" ]; then ok "stap -r -p4 compiles the counting script"; else
	not_ok "stap -r -p4 compiles the counting script"; sed 's/^/# /' "$scratch/compile.log"
fi

# What native stap -L in the guest must list: every acme marker of the
# kernel build's Module.markers with its format
probes=()
while IFS="$(printf '\t')" read -r name _ format; do
	probes+=("kernel.mark(\"$name\").format(\"$format\")")
done < <(grep "$(printf '\tacme_xa\t')" "$kbuild/Module.markers")
check "the kernel build's Module.markers lists the acme markers (${#probes[@]})" [ "${#probes[@]}" -gt 0 ]

# The guest checks itself and prints KTAP (guest/stap-count.sh)
guest_status=0
"$vm" run --share "$share" --timeout 600 -- \
	bash -c "$(guest_half stap-count)" stap-count "$commands" "$threads" "${probes[@]}" >"$scratch/out" 2>&1 ||
	guest_status=$?
guest_ktap "$scratch/out"
check "the guest ran to the end, with no kernel report (exit $guest_status)" [ "$guest_status" = 0 ]
finish
