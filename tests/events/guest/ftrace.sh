#!/bin/bash
# In the guest: the marker events of vmlinux and of acme_xa through
# ftrace (tracefs files, formats, the ring buffer, a filter, a hist
# trigger, an instance), the policy knob, unloading with an event enabled,
# the force-loaded twin and the odd test modules (/mnt/host). Checks
# itself and prints KTAP, plan first; what it read goes out as plain
# "what: value" lines, with the formats, hist and dmesg lines it checks.
# shellcheck disable=SC2012 # ls lists tracefs directories, named like identifiers
set -u
T=/sys/kernel/debug/tracing
E=$T/events/markers
knob=/sys/module/markers/parameters/proprietary
tab=$'\t'
trace_lines() { grep -c "$1" $T/trace || true; }
# write FILE TEXT: TEXT written to FILE, for a check of its status
write() { echo "$2" >"$1"; }
# refuses FILE TEXT: a write of TEXT to FILE fails
refuses() { ! write "$@"; }
# has LINE FILE: FILE has the whole line LINE
has() { grep -qxF -- "$1" "$2"; }
# has_text FIXED FILE: FILE has FIXED in a line
has_text() { grep -qF -- "$1" "$2"; }
# acme_events: how many acme events tracefs has
acme_events() { ls -d $E/acme_* 2>/dev/null | wc -l; }
echo "1..44"

# vmlinux
dirs=$(ls -F $E | sed -n "s|/$||p" | tr "\n" " ")
echo "events: $dirs"
check "vmlinux markers are events in tracefs" [ "$dirs" = "fs_open module_load module_unload " ]
files=$(ls $E/fs_open | tr "\n" " ")
echo "fs_open files: $files"
check "each with enable, filter, format, id, trigger" \
	grep -qE "^enable filter format (hist id inject |hist id |id )trigger " <<<"$files"
avail=$(grep "^markers:" $T/available_events | sort | tr "\n" " ")
echo "available_events: $avail"
check "available_events lists them" \
	grep -q "^markers:fs_open markers:module_load markers:module_unload " <<<"$avail"
cat $E/fs_open/format >/tmp/fs_open.format
cat /tmp/fs_open.format
check "fs_open: dfd is an int field" has_text "field:int dfd;${tab}offset:8;${tab}size:4;${tab}signed:1;" /tmp/fs_open.format
check "fs_open: filename is a __data_loc string" \
	has_text "field:__data_loc char[] filename;${tab}offset:12;${tab}size:4;${tab}signed:0;" /tmp/fs_open.format
check "fs_open: flags %#llx is 64-bit unsigned" \
	has_text "field:unsigned long long flags;${tab}offset:16;${tab}size:8;${tab}signed:0;" /tmp/fs_open.format
check "fs_open: the print format is the marker's own text" \
	has 'print fmt: "dfd %d filename %s flags %#llx mode %#llo", REC->dfd, __get_str(filename), REC->flags, REC->mode' /tmp/fs_open.format

# acme
modprobe acme_xa || echo "modprobe acme_xa failed: the checks below fail"
n=$(acme_events)
echo "acme events: $n"
check "the proprietary driver's 12 markers are events" [ "$n" = 12 ]
cat $E/acme_cmd_complete/format >/tmp/complete.format
cat /tmp/complete.format
check "acme_cmd_complete: latency_ns is 64-bit unsigned" has_text "field:unsigned long long latency_ns;" /tmp/complete.format
check "acme_cmd_complete: status is a signed int" has_text "field:int status;" /tmp/complete.format
echo 1 > $E/acme_cmd_submit/enable
echo 1 > $E/acme_cmd_complete/enable
echo > $T/trace
acmectl run --count 100 --threads 2 >/dev/null
n=$(trace_lines "acme_cmd_submit: id")
echo "submit lines: $n"
check "100 commands: 100 submit records in the ring buffer" [ "$n" = 100 ]
n=$(trace_lines "acme_cmd_complete: id")
echo "complete lines: $n"
check "... and 100 completions" [ "$n" = 100 ]
text=$(grep -m1 "acme_cmd_submit: " $T/trace | sed "s/.*acme_cmd_submit: //")
echo "submit text: $text"
check "ftrace prints the marker's own text" \
	grep -qxE "id [0-9]+ opcode [1-3] len [0-9]+ depth [0-9]+" <<<"$text"
text=$(grep -m1 "acme_cmd_complete: " $T/trace | sed "s/.*acme_cmd_complete: //")
echo "complete text: $text"
check "... for completions too" grep -qxE "id [0-9]+ status 0 latency_ns [0-9]+" <<<"$text"

# filter
echo 0 > $E/acme_cmd_complete/enable
echo "opcode == 2" > $E/acme_cmd_submit/filter
echo > $T/trace
acmectl run --count 30 --opcodes read >/dev/null
acmectl run --count 20 --opcodes write >/dev/null
n=$(trace_lines "acme_cmd_submit: id")
echo "write submits: $n"
check "a filter on a named field keeps exactly the 20 writes" [ "$n" = 20 ]
check "a filter on a field that does not exist is refused" refuses $E/acme_cmd_submit/filter "no_such_field == 1"
grep -i -m1 "error\|field" $E/acme_cmd_submit/filter | sed "s/^/filter says: /"
echo 0 > $E/acme_cmd_submit/filter

# trigger
echo "hist:keys=opcode" > $E/acme_cmd_submit/trigger
acmectl run --count 40 --opcodes read,crypt >/dev/null
grep -E "^\{ opcode:|^ *Hits:" $E/acme_cmd_submit/hist >/tmp/hist.out
cat /tmp/hist.out
check "a hist trigger keyed by opcode counts 40" grep -qE "^ *Hits: 40$" /tmp/hist.out
check "... with the opcodes as keys" grep -qE "^\{ opcode:\s+1 \} hitcount:" /tmp/hist.out
echo "!hist:keys=opcode" > $E/acme_cmd_submit/trigger
echo 0 > $E/acme_cmd_submit/enable

# instance
mkdir $T/instances/mk
echo 1 > $T/instances/mk/events/markers/acme_cmd_complete/enable
echo > $T/trace
acmectl run --count 25 >/dev/null
n=$(grep -c "acme_cmd_complete: id" $T/instances/mk/trace)
echo "instance completes: $n"
check "an instance gets its 25 completions" [ "$n" = 25 ]
n=$(trace_lines "acme_cmd_complete: id")
echo "top-level completes: $n"
check "... and the top-level buffer none" [ "$n" = 0 ]
echo 0 > $T/instances/mk/events/markers/acme_cmd_complete/enable
rmdir $T/instances/mk

# policy
echo deny > $knob
echo > $T/trace
check "under deny, a proprietary module's event enables" write $E/acme_cmd_submit/enable 1
n=$(cat $E/acme_cmd_submit/enable)
echo "enabled under deny: $n"
check "... reads enabled" [ "$n" = 1 ]
acmectl run --count 10 >/dev/null
n=$(trace_lines "acme_cmd_submit: id")
echo "submits enabled under deny: $n"
check "... records nothing while the policy denies" [ "$n" = 0 ]
dmesg >/tmp/dmesg.out
check "... with a line that says why" \
	has_text "markers: event markers:acme_cmd_submit enabled, waiting: proprietary module, markers.proprietary=deny" /tmp/dmesg.out
check "under deny, enabling every marker event at once works" write $E/enable 1
echo 0 > $E/enable
echo allow > $knob
check "under allow it enables" write $E/acme_cmd_submit/enable 1

# deny while enabled
echo > $T/trace
echo deny > $knob
acmectl run --count 10 >/dev/null
n=$(trace_lines "acme_cmd_submit: id")
echo "submits under deny: $n"
check "switching to deny while enabled silences it" [ "$n" = 0 ]
grep -P "^acme_cmd_submit\tacme_xa\t" /sys/kernel/debug/markers/list >/tmp/listed.out
sed "s/^/listed under deny: /" /tmp/listed.out
check "... and the listing says the enabled event waits, blocked by the policy" \
	has "acme_cmd_submit${tab}acme_xa${tab}id %u opcode %u len %u depth %u${tab}blocked${tab}1${tab}policy${tab}event markers:acme_cmd_submit" /tmp/listed.out
dmesg | grep "acme_cmd_submit.*waiting" | sed "s/^\[[ 0-9.]*\] //" >/tmp/waiting.out
sed "s/^/waiting: /" /tmp/waiting.out
n=$(grep -cx "markers: acme_xa: acme_cmd_submit blocked (proprietary module, markers.proprietary=deny), probes waiting: event markers:acme_cmd_submit" /tmp/waiting.out)
check "... and so does one log line ($n)" [ "$n" = 1 ]
echo allow > $knob
acmectl run --count 10 >/dev/null
n=$(trace_lines "acme_cmd_submit: id")
echo "submits after allow: $n"
check "... and allow brings it back" [ "$n" = 10 ]

# unload while enabled
check "the module unloads with its event enabled" rmmod acme_xa
n=$(acme_events)
echo "acme events after rmmod: $n"
check "... and its events are gone from tracefs" [ "$n" = 0 ]
n=$(grep -c "^markers:acme_" $T/available_events)
echo "listed after rmmod: $n"
check "... and from available_events" [ "$n" = 0 ]
modprobe acme_xa
n=$(acme_events)
echo "acme events after reload: $n"
check "reloaded, its events are back" [ "$n" = 12 ]
n=$(cat $E/acme_cmd_submit/enable)
echo "enabled after reload: $n"
check "... disabled" [ "$n" = 0 ]
echo 1 > $E/acme_cmd_submit/enable
echo > $T/trace
acmectl run --count 7 >/dev/null
n=$(trace_lines "acme_cmd_submit: id")
echo "submits after reload: $n"
check "... and work" [ "$n" = 7 ]
echo 0 > $E/acme_cmd_submit/enable
rmmod acme_xa

# forced
check "the force-loaded twin loads" insmod -f /opt/acme-xa/acme_xa_forced.ko
n=$(acme_events)
echo "forced twin events: $n"
check "... and gets no events" [ "$n" = 0 ]
rmmod acme_xa

# odd
cd /mnt/host || echo "cannot enter /mnt/host: the checks below fail"
insmod markers_gpl.ko
insmod markers_bad.ko
check "an untypeable format gets no event" [ ! -e $E/test_bad_untyped ]
check "one name, two formats: the event keeps the first module's fields" \
	has_text "field:unsigned int u;" $E/test_gpl_args/format
echo 1 > $E/test_bad_strings/enable
echo 1 > $E/test_gpl_args/enable
echo > $T/trace
echo 1 > /sys/module/markers_bad/parameters/fire_odd
echo 1 > /sys/module/markers_gpl/parameters/fire
n=$(trace_lines "test_gpl_args: ")
echo "test_gpl_args lines: $n"
grep "test_gpl_args: " $T/trace | sed "s/.*test_gpl_args: /gpl text: /"
check "... and only the first module's firing is recorded" [ "$n" = 1 ]
grep "test_bad_strings: " $T/trace | sed "s/.*test_bad_strings: //" >/tmp/strings.out
sed "s/^/strings text: /" /tmp/strings.out
check "NULL and unreadable strings are recorded as (null) and (fault)" \
	has "null (null) bad (fault) good ok" /tmp/strings.out
echo 0 > $E/test_bad_strings/enable
echo 0 > $E/test_gpl_args/enable
rmmod markers_bad markers_gpl
dmesg >/tmp/dmesg.out
grep "markers" /tmp/dmesg.out | sed "s/^\[[ 0-9.]*\] /dmesg: /"
check "an untypeable format: one line naming the marker and the conversion" \
	has_text 'markers: marker test_bad_untyped: no trace event: cannot type "%qd" (a conversion printk does not take, or %n, *, floating point) in "size %qd"' /tmp/dmesg.out
check "one name, two formats: the other module's sites are said to feed no event" \
	has_text 'markers: markers_bad: marker test_gpl_args has format "other %d", event markers:test_gpl_args has "u %u d %d llu %llu x %x s %s c %c p %p": these sites feed no event' /tmp/dmesg.out
