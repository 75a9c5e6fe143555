#!/bin/bash
# One marker name in two modules (issue 23, bug 9): markers_twin_a and
# markers_twin_b both have test_twin with the same format, so they share
# the event markers:test_twin, which the first one to load makes. When
# that one unloads, the event stays for the other, still enabled, with its
# filter, and still counting the other's firings; it goes only with the
# last module that has the marker, and comes back with the next one.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

[ -e "$mods/markers_twin_a.ko" ] || die "no test modules; run tests/modules/build"

guest_status=0
# shellcheck disable=SC2016 # expanded by the guest's shell
"$vm" run --share "$mods" -- bash -c '
	T=/sys/kernel/tracing
	E=$T/events/markers/test_twin
	fire() { echo "$2" > /sys/module/markers_twin_$1/parameters/fire; }
	count() { grep -c "test_twin: twin $1 n" $T/trace; }
	insmod /mnt/host/markers_twin_a.ko
	insmod /mnt/host/markers_twin_b.ko
	echo 1 > $E/enable
	echo "n < 5" > $E/filter
	echo > $T/trace
	fire a 8
	fire b 9
	echo "both loaded: a $(count 1) b $(count 2)"
	rmmod markers_twin_a && echo "rmmod of the first twin: ok"
	echo "event after the first left: $(ls -d $E 2>/dev/null | wc -l)"
	echo "enabled after the first left: $(cat $E/enable 2>/dev/null)"
	echo "filter after the first left: $(cat $E/filter 2>/dev/null)"
	echo > $T/trace
	fire b 7
	echo "b alone: $(count 2)"
	perf stat -x, -e markers:test_twin -a -- sh -c "echo 6 > /sys/module/markers_twin_b/parameters/fire" 2>&1 >/dev/null | sed "s/^/perf: /"
	insmod /mnt/host/markers_twin_a.ko
	rmmod markers_twin_b && echo "rmmod of the second twin: ok"
	echo > $T/trace
	fire a 3
	echo "a again, b gone: $(count 1)"
	echo 0 > $E/enable
	rmmod markers_twin_a
	echo "event after both left: $(ls -d $E 2>/dev/null | wc -l)"
	insmod /mnt/host/markers_twin_b.ko
	echo "event with b back: $(ls -d $E 2>/dev/null | wc -l)"
	rmmod markers_twin_b
	echo "== done"' >"$scratch/out" 2>&1 || guest_status=$?
sed 's/^/# /' "$scratch/out"
o=$scratch/out
has() { grep -qxF -- "$1" "$o"; }

check "both twins feed markers:test_twin, the filter keeps 5 of each" has 'both loaded: a 5 b 5'
check "the twin that made the event unloads" has 'rmmod of the first twin: ok'
check "... and the event stays for the other" has 'event after the first left: 1'
check "... still enabled" has 'enabled after the first left: 1'
check "... with its filter" has 'filter after the first left: n < 5'
check "... and counting the other's firings" has 'b alone: 5'
check "perf counts the remaining twin's 6 firings" grep -q '^perf: 6,,markers:test_twin' "$o"
check "the event passes back and forth: b unloads, a (loaded again) keeps it" has 'a again, b gone: 3'
check "the event goes with the last twin" has 'event after both left: 0'
check "... and comes back with the next" has 'event with b back: 1'
check "the guest ran to the end" [ "$guest_status" = 0 ]
finish
