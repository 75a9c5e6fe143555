#!/bin/bash
# In the guest: markers_twin_a and markers_twin_b (/mnt/host) share the
# event markers:test_twin; loads and unloads them in turn, firing each, and
# prints what the event did ("both loaded: a N b N", "b alone: N", "perf:
# ...", "event after both left: N", ...); "== done" at the end.
# shellcheck disable=SC2012 # ls counts a tracefs directory
T=/sys/kernel/tracing
E=$T/events/markers/test_twin
fire() { echo "$2" > "/sys/module/markers_twin_$1/parameters/fire"; }
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
echo "== done"
