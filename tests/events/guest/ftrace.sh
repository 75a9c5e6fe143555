#!/bin/bash
# In the guest: the marker events of vmlinux and of acme_xa through
# ftrace (tracefs files, formats, the ring buffer, a filter, a hist
# trigger, an instance), the policy knob, unloading with an event enabled,
# the force-loaded twin and the odd test modules (/mnt/host). Prints each
# part under a "== PART" line, "what: value" lines and the lines it greps
# from tracefs and dmesg, for the host half to check; "== done" at the end.
# shellcheck disable=SC2012 # ls lists tracefs directories, named like identifiers
T=/sys/kernel/debug/tracing
E=$T/events/markers
knob=/sys/module/markers/parameters/proprietary
trace_lines() { grep -c "$1" $T/trace || true; }
echo "== vmlinux"
ls -F $E | sed -n "s|/$||p" | tr "\n" " "; echo
ls $E/fs_open | tr "\n" " "; echo
grep "^markers:" $T/available_events | sort | tr "\n" " "; echo
cat $E/fs_open/format
echo "== acme"
modprobe acme_xa
ls -d $E/acme_* | wc -l | sed "s/^/acme events: /"
cat $E/acme_cmd_complete/format
echo 1 > $E/acme_cmd_submit/enable
echo 1 > $E/acme_cmd_complete/enable
echo > $T/trace
acmectl run --count 100 --threads 2 >/dev/null
echo "submit lines: $(trace_lines "acme_cmd_submit: id")"
echo "complete lines: $(trace_lines "acme_cmd_complete: id")"
grep -m1 "acme_cmd_submit: " $T/trace | sed "s/.*acme_cmd_submit: /submit text: /"
grep -m1 "acme_cmd_complete: " $T/trace | sed "s/.*acme_cmd_complete: /complete text: /"
echo "== filter"
echo 0 > $E/acme_cmd_complete/enable
echo "opcode == 2" > $E/acme_cmd_submit/filter
echo > $T/trace
acmectl run --count 30 --opcodes read >/dev/null
acmectl run --count 20 --opcodes write >/dev/null
echo "write submits: $(trace_lines "acme_cmd_submit: id")"
echo "no_such_field == 1" > $E/acme_cmd_submit/filter || echo "bad filter refused"
grep -i -m1 "error\|field" $E/acme_cmd_submit/filter | sed "s/^/filter says: /"
echo 0 > $E/acme_cmd_submit/filter
echo "== trigger"
echo "hist:keys=opcode" > $E/acme_cmd_submit/trigger
acmectl run --count 40 --opcodes read,crypt >/dev/null
grep -E "^\{ opcode:|^ *Hits:" $E/acme_cmd_submit/hist
echo "!hist:keys=opcode" > $E/acme_cmd_submit/trigger
echo 0 > $E/acme_cmd_submit/enable
echo "== instance"
mkdir $T/instances/mk
echo 1 > $T/instances/mk/events/markers/acme_cmd_complete/enable
echo > $T/trace
acmectl run --count 25 >/dev/null
echo "instance completes: $(grep -c "acme_cmd_complete: id" $T/instances/mk/trace)"
echo "top-level completes: $(trace_lines "acme_cmd_complete: id")"
echo 0 > $T/instances/mk/events/markers/acme_cmd_complete/enable
rmdir $T/instances/mk
echo "== policy"
echo deny > $knob
echo > $T/trace
echo 1 > $E/acme_cmd_submit/enable && echo "enable under deny: ok"
echo "enabled under deny: $(cat $E/acme_cmd_submit/enable)"
acmectl run --count 10 >/dev/null
echo "submits enabled under deny: $(trace_lines "acme_cmd_submit: id")"
echo 1 > $E/enable && echo "enable every marker event under deny: ok"
echo 0 > $E/enable
echo allow > $knob
echo 1 > $E/acme_cmd_submit/enable && echo "enable under allow: ok"
echo "== deny while enabled"
echo > $T/trace
echo deny > $knob
acmectl run --count 10 >/dev/null
echo "submits under deny: $(trace_lines "acme_cmd_submit: id")"
grep -P "^acme_cmd_submit\tacme_xa\t" /sys/kernel/debug/markers/list | sed "s/^/listed under deny: /"
dmesg | grep "acme_cmd_submit.*waiting" | sed "s/^\[[ 0-9.]*\] /waiting: /"
echo allow > $knob
acmectl run --count 10 >/dev/null
echo "submits after allow: $(trace_lines "acme_cmd_submit: id")"
echo "== unload while enabled"
rmmod acme_xa && echo "rmmod with the event enabled: ok"
ls -d $E/acme_* 2>/dev/null | wc -l | sed "s/^/acme events after rmmod: /"
grep -c "^markers:acme_" $T/available_events | sed "s/^/listed after rmmod: /"
modprobe acme_xa
ls -d $E/acme_* | wc -l | sed "s/^/acme events after reload: /"
echo "enabled after reload: $(cat $E/acme_cmd_submit/enable)"
echo 1 > $E/acme_cmd_submit/enable
echo > $T/trace
acmectl run --count 7 >/dev/null
echo "submits after reload: $(trace_lines "acme_cmd_submit: id")"
echo 0 > $E/acme_cmd_submit/enable
rmmod acme_xa
echo "== forced"
insmod -f /opt/acme-xa/acme_xa_forced.ko && echo "forced twin loaded"
ls -d $E/acme_* 2>/dev/null | wc -l | sed "s/^/forced twin events: /"
rmmod acme_xa
echo "== odd"
cd /mnt/host || exit 1
insmod markers_gpl.ko
insmod markers_bad.ko
ls -d $E/test_bad_untyped 2>/dev/null || echo "no event for test_bad_untyped"
grep -o "field:unsigned int u;" $E/test_gpl_args/format | sed "s/^/test_gpl_args has /"
echo 1 > $E/test_bad_strings/enable
echo 1 > $E/test_gpl_args/enable
echo > $T/trace
echo 1 > /sys/module/markers_bad/parameters/fire_odd
echo 1 > /sys/module/markers_gpl/parameters/fire
grep "test_bad_strings: " $T/trace | sed "s/.*test_bad_strings: /strings text: /"
echo "test_gpl_args lines: $(trace_lines "test_gpl_args: ")"
grep "test_gpl_args: " $T/trace | sed "s/.*test_gpl_args: /gpl text: /"
echo 0 > $E/test_bad_strings/enable
echo 0 > $E/test_gpl_args/enable
rmmod markers_bad markers_gpl
dmesg | grep "markers" | sed "s/^\[[ 0-9.]*\] /dmesg: /"
echo "== done"
