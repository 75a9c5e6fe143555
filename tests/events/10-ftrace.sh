#!/bin/bash
# Markers as trace events, through ftrace: the events of vmlinux and of a
# proprietary module, their typed and named fields and print format, the
# ring buffer with filters, a hist trigger and an instance; the policy;
# the force-loaded twin; unloading with the event enabled; and bad input
# (an untypeable format, one name with two formats, NULL and unreadable
# strings, a filter on a field that does not exist).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

[ -e "$mods/markers_bad.ko" ] || die "no test modules; run tests/modules/build"

guest_status=0
"$vm" run --rodir "/mnt/host=$mods" -- bash -c "$(guest_half ftrace)" ftrace >"$scratch/out" 2>&1 || guest_status=$?
sed 's/^/# /' "$scratch/out"
o=$scratch/out
tab=$'\t'
has() { grep -qxF -- "$1" "$o"; }

check "vmlinux markers are events in tracefs" grep -qx 'fs_open module_load module_unload ' "$o"
check "each with enable, filter, format, id, trigger" grep -q '^enable filter format hist id inject trigger \|^enable filter format hist id trigger \|^enable filter format id trigger ' "$o"
check "available_events lists them" grep -q '^markers:fs_open markers:module_load markers:module_unload ' "$o"
check "fs_open: dfd is an int field" grep -q 'field:int dfd;	offset:8;	size:4;	signed:1;' "$o"
check "fs_open: filename is a __data_loc string" grep -q 'field:__data_loc char\[\] filename;	offset:12;	size:4;	signed:0;' "$o"
check "fs_open: flags %#llx is 64-bit unsigned" grep -q 'field:unsigned long long flags;	offset:16;	size:8;	signed:0;' "$o"
check "fs_open: the print format is the marker's own text" \
	has 'print fmt: "dfd %d filename %s flags %#llx mode %#llo", REC->dfd, __get_str(filename), REC->flags, REC->mode'
check "the proprietary driver's 12 markers are events" has 'acme events: 12'
check "acme_cmd_complete: latency_ns is 64-bit unsigned" grep -q 'field:unsigned long long latency_ns;' "$o"
check "acme_cmd_complete: status is a signed int" grep -q 'field:int status;' "$o"
check "100 commands: 100 submit records in the ring buffer" has 'submit lines: 100'
check "... and 100 completions" has 'complete lines: 100'
check "ftrace prints the marker's own text" grep -qE '^submit text: id [0-9]+ opcode [1-3] len [0-9]+ depth [0-9]+$' "$o"
check "... for completions too" grep -qE '^complete text: id [0-9]+ status 0 latency_ns [0-9]+$' "$o"
check "a filter on a named field keeps exactly the 20 writes" has 'write submits: 20'
check "a filter on a field that does not exist is refused" has 'bad filter refused'
check "a hist trigger keyed by opcode counts 40" grep -qE '^ *Hits: 40$' "$o"
check "... with the opcodes as keys" grep -qE '^\{ opcode:\s+1 \} hitcount:' "$o"
check "an instance gets its 25 completions" has 'instance completes: 25'
check "... and the top-level buffer none" has 'top-level completes: 0'
check "under deny, a proprietary module's event enables" has 'enable under deny: ok'
check "... reads enabled" has 'enabled under deny: 1'
check "... records nothing while the policy denies" has 'submits enabled under deny: 0'
check "... with a line that says why" grep -q 'markers: event markers:acme_cmd_submit enabled, waiting: proprietary module, markers.proprietary=deny' "$o"
check "under deny, enabling every marker event at once works" has 'enable every marker event under deny: ok'
check "under allow it enables" has 'enable under allow: ok'
check "switching to deny while enabled silences it" has 'submits under deny: 0'
check "... and the listing says the enabled event waits, blocked by the policy" \
	has "listed under deny: acme_cmd_submit${tab}acme_xa${tab}id %u opcode %u len %u depth %u${tab}blocked${tab}1${tab}policy${tab}event markers:acme_cmd_submit"
check "... and so does one log line" \
	[ "$(grep -c '^waiting: markers: acme_xa: acme_cmd_submit blocked (proprietary module, markers.proprietary=deny), probes waiting: event markers:acme_cmd_submit$' "$o")" = 1 ]
check "... and allow brings it back" has 'submits after allow: 10'
check "the module unloads with its event enabled" has 'rmmod with the event enabled: ok'
check "... and its events are gone from tracefs" has 'acme events after rmmod: 0'
check "... and from available_events" has 'listed after rmmod: 0'
check "reloaded, its events are back" has 'acme events after reload: 12'
check "... disabled" has 'enabled after reload: 0'
check "... and work" has 'submits after reload: 7'
check "the force-loaded twin loads" has 'forced twin loaded'
check "... and gets no events" has 'forced twin events: 0'
check "an untypeable format gets no event" has 'no event for test_bad_untyped'
check "... and one line naming the marker and the conversion" \
	grep -q 'markers: marker test_bad_untyped: no trace event: cannot type "%qd" (a conversion printk does not take, or %n, \*, floating point) in "size %qd"' "$o"
check "one name, two formats: the event keeps the first module's fields" has 'test_gpl_args has field:unsigned int u;'
check "... the other module's sites are said to feed no event" \
	grep -q 'markers: markers_bad: marker test_gpl_args has format "other %d", event markers:test_gpl_args has "u %u d %d llu %llu x %x s %s c %c p %p": these sites feed no event' "$o"
check "... and only the first module's firing is recorded" has 'test_gpl_args lines: 1'
check "NULL and unreadable strings are recorded as (null) and (fault)" has 'strings text: null (null) bad (fault) good ok'
check "the guest run finished" grep -qx '== done' "$o"
check "... with no kernel report (guest exit $guest_status)" [ "$guest_status" = 0 ]
finish
