#!/bin/bash
# In the guest: acme_xa unloaded with triggers set on its events (a hist
# trigger, an instance's traceoff, a trigger on an enabled event), then
# reloaded and run. Prints "what: value" lines ("triggers after reload: 0",
# "submits after reload: 10", ...) under "== PART" lines; "== done" at the
# end.
T=/sys/kernel/tracing
E=$T/events/markers
echo "== hist"
modprobe acme_xa
echo "hist:keys=pending" > $E/acme_irq/trigger
acmectl run --count 20 >/dev/null
echo "hist before rmmod: $(grep -c "hitcount:" $E/acme_irq/hist)"
rmmod acme_xa && echo "rmmod with a hist trigger: ok"
modprobe acme_xa
echo "triggers after reload: $(grep -vc "^#" $E/acme_irq/trigger)"
acmectl run --count 10 >/dev/null && echo "run after reload: ok"
echo 1 > $E/acme_cmd_submit/enable
echo > $T/trace
acmectl run --count 10 >/dev/null
echo "submits after reload: $(grep -c "acme_cmd_submit: id" $T/trace)"
echo 0 > $E/acme_cmd_submit/enable
rmmod acme_xa
echo "== instance"
mkdir $T/instances/left
modprobe acme_xa
echo "traceoff" > $T/instances/left/events/markers/acme_cmd_complete/trigger
echo "stacktrace if id > 100000" > $E/acme_cmd_submit/trigger
rmmod acme_xa && echo "rmmod with two triggers: ok"
modprobe acme_xa
echo "instance triggers after reload: $(grep -vc "^#" $T/instances/left/events/markers/acme_cmd_complete/trigger)"
echo "tracing_on in the instance: $(cat $T/instances/left/tracing_on)"
acmectl run --count 10 >/dev/null && echo "run after the second reload: ok"
echo "tracing_on in the instance after the run: $(cat $T/instances/left/tracing_on)"
rmmod acme_xa
rmdir $T/instances/left && echo "instance removed"
echo "== enabled and triggered"
modprobe acme_xa
echo 1 > $E/acme_cmd_complete/enable
echo "hist:keys=status" > $E/acme_cmd_complete/trigger
acmectl run --count 5 >/dev/null
rmmod acme_xa && echo "rmmod with an enabled, triggered event: ok"
modprobe acme_xa
echo "enabled after reload: $(cat $E/acme_cmd_complete/enable)"
echo 1 > $E/acme_cmd_complete/enable
echo > $T/trace
acmectl run --count 6 >/dev/null
echo "completes after reload: $(grep -c "acme_cmd_complete: id" $T/trace)"
echo 0 > $E/acme_cmd_complete/enable
rmmod acme_xa
echo "== done"
