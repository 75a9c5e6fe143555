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
# markers_prop is what carries the proprietary path there.
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
"$vm" run --rodir "/mnt/host=$mods" --timeout "$timeout" -- bash -c "$(stress_guest_half policy)" policy "$switches" "$commands" "$acme_p" >"$scratch/out" 2>&1 || guest_status=$?
took=$(($(date +%s) - start))
sed 's/^/# /' "$scratch/out"
half=$((switches / 2))
# The driver's markers count in the allowed windows if it is proprietary
# (the main kernel's drop), in all of them if not (the debug kernel's GPL
# build); the proprietary test module's only in the allowed ones.
expected_prop=$((half * commands))
if [ "$acme_p" = 1 ]; then expected=$expected_prop; else expected=$((switches * commands)); fi

check "the guest's acme_xa is $driver (KM_FLAVOUR=${KM_FLAVOUR:-main}): proprietary=$acme_p" has "acme_xa: proprietary=$acme_p"
check "the policy was allow to start with" has 'policy before: allow'
check "$switches switches made: $(kv switches allowed) allowed windows, $(kv switches denied) denied" \
	[ "$(kv switches allowed)/$(kv switches denied)" = "$half/$half" ]
check "each switch reads back ($(kv switches read_back) of $switches)" [ "$(kv switches read_back)" = "$switches" ]
check "after each switch acme_cmd_submit ($driver) is listed as the policy says ($(kv switches listed_right) of $switches)" \
	[ "$(kv switches listed_right)" = "$switches" ]
check "... and test_prop_args of the proprietary test module blocked or on ($(kv switches prop_listed_right) of $switches)" \
	[ "$(kv switches prop_listed_right)" = "$switches" ]
check "every window ran its $commands commands, the denied ones too ($(kv ran allowed) + $(kv ran denied), failed runs: $(kv ran failed_runs))" \
	[ "$(kv ran allowed)/$(kv ran denied)/$(kv ran failed_runs)" = "$expected_prop/$expected_prop/0" ]
check "the held acme_cmd_submit probe counted the commands of the windows $driver is allowed in ($(kv held acme_cmd_submit) of $expected)" \
	[ "$(kv held acme_cmd_submit)" = "$expected" ]
check "... so did the held acme_cmd_complete probe ($(kv held acme_cmd_complete))" \
	[ "$(kv held acme_cmd_complete)" = "$expected" ]
check "... and the ftrace event enabled throughout ($(kv ftrace submits); lost: $(sed -n 's/^ftrace lost: //p' "$scratch/out"))" \
	[ "$(kv ftrace submits)" = "$expected" ]
check "the held test_prop_args probe counted the allowed windows' firings ($(kv held test_prop_args) of $expected_prop)" \
	[ "$(kv held test_prop_args)" = "$expected_prop" ]
check "the fs_open probe counted every background open, whatever the policy ($(kv fs_open opens) of $(kv core opens))" \
	same_nonzero "$(kv fs_open opens)" "$(kv core opens)"
check "the policy is allow at the end" has 'policy after: allow'
check "the listing at the end is the one before" has 'listing: unchanged'
check "the modules unload" has 'unloaded: ok'
check "the guest run finished" has '== done'
check "... with no kernel report (guest exit $guest_status)" [ "$guest_status" = 0 ]
figure "policy: $switches switches under a core-marker load, $driver's events expected $expected counted $(kv held acme_cmd_submit) (probe) $(kv ftrace submits) (ftrace), the proprietary test module's expected $expected_prop counted $(kv held test_prop_args), core opens $(kv core opens) counted $(kv fs_open opens), in $took s"
finish
