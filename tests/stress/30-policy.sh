#!/bin/bash
# The policy switched under load: markers.proprietary goes deny, allow,
# deny, ... (KM_STRESS=full: 100 switches; else 30) while a background
# loop keeps the core marker fs_open firing. After each switch the
# driver's submit marker is listed blocked (deny) or on (allow), and
# exactly $commands commands run synchronously, so the counts are known:
# a probe held on acme_cmd_submit and one on acme_cmd_complete by the
# markers_churn module, and the ftrace event markers:acme_cmd_submit
# enabled throughout, count exactly the commands of the allowed windows;
# the probe on fs_open counts exactly the background loop's opens of its
# file, whatever the policy (core markers are not proprietary); and at
# the end the listing is the one of before. The proprietary test module
# (markers_prop, no mutex) fires its marker $commands times per window
# too, counted by another held probe: on the debug kernel the driver is
# its GPL build, which the policy leaves alone (all windows count), and
# markers_prop is what carries the proprietary path there. The guest
# checks itself and prints KTAP (tests/stress/guest/policy.sh).
# shellcheck source=tests/stress/lib.sh
. "$(dirname "$0")/lib.sh"

[ -e "$mods/markers_churn.ko" ] || die "no test modules; run tests/modules/build"
if [ "${KM_STRESS:-}" = full ]; then switches=100 timeout=7200; else switches=30 timeout=1800; fi
commands=50
# Whether the driver is proprietary follows from the flavour under test,
# not from what the guest loaded: the main kernel's image carries the
# drop (proprietary), the debug kernel's the GPL build of its source
if [ -z "$flavour_suffix" ]; then acme_p=1 driver="the proprietary driver"; else acme_p=0 driver="the driver's GPL build"; fi

start=$(date +%s)
guest_status=0
"$vm" run --rodir "/mnt/host=$mods" --timeout "$timeout" -- bash -c "$(stress_guest_half policy)" policy "$switches" "$commands" "$acme_p" "$driver" >"$scratch/out" 2>&1 || guest_status=$?
took=$(($(date +%s) - start))
guest_ktap "$scratch/out"
check "the guest ran to the end, with no kernel report (exit $guest_status)" [ "$guest_status" = 0 ]
# For the figure: what the guest expected its counts to be
half=$((switches / 2))
expected_prop=$((half * commands))
if [ "$acme_p" = 1 ]; then expected=$expected_prop; else expected=$((switches * commands)); fi
figure "policy: $switches switches under a core-marker load, $driver's events expected $expected counted $(kv held acme_cmd_submit) (probe) $(kv ftrace submits) (ftrace), the proprietary test module's expected $expected_prop counted $(kv held test_prop_args), core opens $(kv core opens) counted $(kv fs_open opens), in $took s"
finish
