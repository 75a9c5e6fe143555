#!/bin/bash
# In the guest: markers_twin_a and markers_twin_b (/mnt/host) share the
# event markers:test_twin; loads and unloads them in turn, firing each, and
# checks what the event does: counts by twin (the filter "n < 5" keeps 5
# of each), the event staying, enabled and filtered, for the twin that
# remains, perf's count, and the event going with the last twin and coming
# back with the next. Checks itself and prints KTAP, plan first; what it
# read goes out as plain lines ("both loaded: a N b N", "perf: ...").
set -u
T=/sys/kernel/tracing
E=$T/events/markers/test_twin
fire() { echo "$2" > "/sys/module/markers_twin_$1/parameters/fire"; }
count() { grep -c "test_twin: twin $1 n" $T/trace; }
echo "1..10"
insmod /mnt/host/markers_twin_a.ko || echo "markers_twin_a does not load: the checks below fail"
insmod /mnt/host/markers_twin_b.ko || echo "markers_twin_b does not load: the checks below fail"
echo 1 > $E/enable
echo "n < 5" > $E/filter
echo > $T/trace
fire a 8
fire b 9
both="a $(count 1) b $(count 2)"
echo "both loaded: $both"
check "both twins feed markers:test_twin, the filter keeps 5 of each" [ "$both" = "a 5 b 5" ]

check "the twin that made the event unloads" rmmod markers_twin_a
check "... and the event stays for the other" [ -d $E ]
enabled=$(cat $E/enable)
echo "enabled after the first left: $enabled"
check "... still enabled" [ "$enabled" = 1 ]
filter=$(cat $E/filter)
echo "filter after the first left: $filter"
check "... with its filter" [ "$filter" = "n < 5" ]
echo > $T/trace
fire b 7
alone=$(count 2)
echo "b alone: $alone"
check "... and counting the other's firings" [ "$alone" = 5 ]

perf stat -x, -e markers:test_twin -a -- sh -c "echo 6 > /sys/module/markers_twin_b/parameters/fire" 2>/tmp/perf >/dev/null
sed "s/^/perf: /" /tmp/perf
check "perf counts the remaining twin's 6 firings" grep -q '^6,,markers:test_twin' /tmp/perf

# The event passes back to a: loaded again, it stays when b goes
insmod /mnt/host/markers_twin_a.ko
b_gone=0
rmmod markers_twin_b || b_gone=$?
echo > $T/trace
fire a 3
again=$(count 1)
echo "a again, b gone (rmmod status $b_gone): $again"
check "the event passes back and forth: b unloads, a (loaded again) keeps it" [ "$b_gone/$again" = 0/3 ]

echo 0 > $E/enable
rmmod markers_twin_a
check "the event goes with the last twin" [ ! -e $E ]
insmod /mnt/host/markers_twin_b.ko
check "... and comes back with the next" [ -d $E ]
rmmod markers_twin_b
