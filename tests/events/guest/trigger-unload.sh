#!/bin/bash
# In the guest: acme_xa unloaded with triggers set on its events (a hist
# trigger, an instance's traceoff, a trigger on an enabled event), then
# reloaded and run. Checks itself and prints KTAP, plan first; what it
# read goes out as plain lines ("triggers after reload: 0", "submits
# after reload: 10", ...).
set -u
T=/sys/kernel/tracing
E=$T/events/markers
# quietly CMD...: CMD without its output, for a check of its status
quietly() { "$@" >/dev/null; }
# positive N: N is a number above 0
positive() { [[ $1 =~ ^[1-9][0-9]*$ ]]; }
echo "1..12"
# A hist trigger on an event, left set at the rmmod
modprobe acme_xa || echo "modprobe acme_xa failed: the checks below fail"
echo "hist:keys=pending" > $E/acme_irq/trigger
acmectl run --count 20 >/dev/null
hist=$(grep -c "hitcount:" $E/acme_irq/hist)
echo "hist before rmmod: $hist"
check "a hist trigger on markers:acme_irq counts" positive "$hist"
check "the driver unloads with the trigger set" rmmod acme_xa
modprobe acme_xa
triggers=$(grep -vc "^#" $E/acme_irq/trigger)
echo "triggers after reload: $triggers"
check "reloaded, its event has no trigger" [ "$triggers" = 0 ]
check "... and the driver runs (the old probe would be called here)" quietly acmectl run --count 10
echo 1 > $E/acme_cmd_submit/enable
echo > $T/trace
acmectl run --count 10 >/dev/null
submits=$(grep -c "acme_cmd_submit: id" $T/trace)
echo "submits after reload: $submits"
check "... and its events count exactly" [ "$submits" = 10 ]
echo 0 > $E/acme_cmd_submit/enable
rmmod acme_xa

# A traceoff trigger on an instance's copy of an event, and a trigger
# with a filter
mkdir $T/instances/left
modprobe acme_xa
echo "traceoff" > $T/instances/left/events/markers/acme_cmd_complete/trigger
echo "stacktrace if id > 100000" > $E/acme_cmd_submit/trigger
check "it unloads with a trigger in an instance and one with a filter" rmmod acme_xa
modprobe acme_xa
itriggers=$(grep -vc "^#" $T/instances/left/events/markers/acme_cmd_complete/trigger)
echo "instance triggers after reload: $itriggers"
check "... reloaded, the instance's event has no trigger" [ "$itriggers" = 0 ]
echo "tracing_on in the instance: $(cat $T/instances/left/tracing_on)"
acmectl run --count 10 >/dev/null
echo "run after the second reload: exit $?"
on=$(cat $T/instances/left/tracing_on)
echo "tracing_on in the instance after the run: $on"
check "... a run does not fire the old traceoff" [ "$on" = 1 ]
rmmod acme_xa
check "... and the instance can be removed" rmdir $T/instances/left

# A trigger on an enabled event
modprobe acme_xa
echo 1 > $E/acme_cmd_complete/enable
echo "hist:keys=status" > $E/acme_cmd_complete/trigger
acmectl run --count 5 >/dev/null
check "it unloads with an event both enabled and triggered" rmmod acme_xa
modprobe acme_xa
enabled=$(cat $E/acme_cmd_complete/enable)
echo "enabled after reload: $enabled"
check "... which comes back disabled" [ "$enabled" = 0 ]
echo 1 > $E/acme_cmd_complete/enable
echo > $T/trace
acmectl run --count 6 >/dev/null
completes=$(grep -c "acme_cmd_complete: id" $T/trace)
echo "completes after reload: $completes"
check "... and counts exactly" [ "$completes" = 6 ]
echo 0 > $E/acme_cmd_complete/enable
rmmod acme_xa
