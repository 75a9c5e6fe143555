#!/bin/bash
# SystemTap sees inside the binary-only driver: a script cross-compiled on
# the host (stap -r build/linux -p4) counts the acme markers while acmectl
# runs exactly N commands in the guest; N submits and N completions, and the
# driver's own counters agree. Natively in the guest, stap -L lists every
# acme marker from the installed drop with its format.
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

"$vm" run --share "$share" --timeout 600 -- \
	bash -c "$(guest_half stap-count)" stap-count "$commands" "$threads" >"$scratch/out" 2>&1 || true
sed 's/^/# /' "$scratch/out"
section() { sed -n "/^== $1\$/,/^== /p" "$scratch/out"; }
kv() { section "$1" | sed -n "s/^$2=//p"; }

check "acmectl ran $commands commands under the stap script" [ "$(kv count completed)" = "$commands" ]
check "stap counted exactly $commands acme_cmd_submit hits" [ "$(kv count stap_submits)" = "$commands" ]
check "stap counted exactly $commands acme_cmd_complete hits" [ "$(kv count stap_completes)" = "$commands" ]
check "no completion had an error status" [ "$(kv count stap_errors)" = 0 ]
check "the queue depth seen at submit went above 1 with $threads threads ($(kv count stap_depth_max))" \
	[ "$(kv count stap_depth_max)" -gt 1 ]
# The marker's latency is the one WAIT hands to acmectl: the extremes agree
check "min latency from the marker = acmectl's ($(kv count stap_latency_min_ns) ns)" \
	same_count "$(kv count stap_latency_min_ns)" "$(kv count latency_min_ns)"
check "max latency from the marker = acmectl's ($(kv count stap_latency_max_ns) ns)" \
	same_count "$(kv count stap_latency_max_ns)" "$(kv count latency_max_ns)"
check "the driver's stats agree: submitted=$(kv stats submitted)" [ "$(kv stats submitted)" = "$commands" ]
check "the driver's stats agree: completed=$(kv stats completed)" [ "$(kv stats completed)" = "$commands" ]
section 'stap -L native' >"$scratch/native"
while IFS="$(printf '\t')" read -r name _ format; do
	check "native stap -L in the guest lists $name" \
		grep -qF "kernel.mark(\"$name\").format(\"$format\")" "$scratch/native"
done < <(grep "$(printf '\tacme_xa\t')" "$kbuild/Module.markers")
check "the guest run finished" grep -qx '== done' "$scratch/out"
finish
