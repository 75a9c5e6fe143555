#!/bin/bash
# In the guest: loads markers_events (/mnt/host) and checks what its odd
# formats became in their trace events (test_ev_mac's %pM, test_ev_ptrs's
# %pS %px %pe, test_ev_dup's "arg2 %d %d", test_ev_noargs), the records
# ftrace and bpftrace get from firing them and the markers lines of dmesg.
# Checks itself and prints KTAP, plan first; what it read goes out as
# plain lines ("mac fmt: ...", "trace: ...", "dmesg: ...").
set -u
T=/sys/kernel/tracing
E=$T/events/markers
echo "1..12"
insmod /mnt/host/markers_events.ko || echo "markers_events does not load: the checks below fail"

# The formats, as the event format files have them
mac_fmt=$(sed -n "s/^print fmt: //p" $E/test_ev_mac/format)
mac_field=$(sed -n "s/^\tfield:\(.*\) mac;.*/\1/p" $E/test_ev_mac/format)
echo "mac fmt: $mac_fmt"
echo "mac field: $mac_field"
check "%pM is recorded as an address: its field is pointer-sized" [ "$mac_field" = "unsigned long" ]
check "... and its print format prints the address, not the buffer" [ "$mac_fmt" = '"mac %p", REC->mac' ]

ptrs_fmt=$(sed -n "s/^print fmt: //p" $E/test_ev_ptrs/format)
echo "ptrs fmt: $ptrs_fmt"
check "%pS, %px and %pe keep their meaning in the print format" \
	[ "$ptrs_fmt" = '"sym %pS raw %px err %pe", REC->sym, REC->raw, REC->err' ]

# The int fields of "arg2 %d %d", in the order of the format file
grep -o "field:int [a-z0-9_]*;" $E/test_ev_dup/format | grep -v common_ >/tmp/dup
sed "s/^/dup /" /tmp/dup
check '"arg2 %d %d" has two int fields' [ "$(wc -l </tmp/dup)" = 2 ]
check "... with different names" [ "$(sort -u /tmp/dup | wc -l)" = 2 ]
check "... the first one named arg2, as its word says" [ "$(head -n 1 /tmp/dup)" = "field:int arg2;" ]

noargs=$(grep -c "^	field:" $E/test_ev_noargs/format)
echo "noargs fields with common: $noargs"
check "a marker without arguments has no fields but the 4 common ones" [ "$noargs" = 4 ]

# Three firings of each, traced by ftrace, with a filter on test_ev_dup
for ev in test_ev_mac test_ev_ptrs test_ev_dup; do echo 1 > $E/$ev/enable; done
echo "arg2 == 1" > $E/test_ev_dup/filter
echo > $T/trace
echo 3 > /sys/module/markers_events/parameters/fire_shapes
grep -o "test_ev_[a-z]*: .*" $T/trace >/tmp/trace
for ev in test_ev_mac test_ev_ptrs test_ev_dup; do echo 0 > $E/$ev/enable; done
sed "s/^/trace: /" /tmp/trace
check "%pM: ftrace prints no MAC address" \
	[ "$(grep -c '^test_ev_mac: mac ' /tmp/trace)/$(grep -c '^test_ev_mac: mac 02:00:5e' /tmp/trace)" = 3/0 ]
check "%pS, %px, %pe: ftrace prints the symbol and the errno name" \
	grep -qE '^test_ev_ptrs: sym fire_shapes_set\+0x[0-9a-f]+/0x[0-9a-f]+ \[markers_events\] raw [0-9a-f]{16} err -ENOENT$' /tmp/trace
check "a filter on arg2 binds the first field: 3 of 3 records pass" [ "$(grep -c '^test_ev_dup: arg2 1 2$' /tmp/trace)" = 3 ]

# bpftrace splits -c at spaces: the redirection goes in a script
echo "echo 4 > /sys/module/markers_events/parameters/fire_shapes" >/tmp/fire4
bpftrace -e "tracepoint:markers:test_ev_dup { @[args->arg2] = count(); }" \
	-c "/bin/sh /tmp/fire4" >/tmp/bpf 2>&1
sed "s/^/bpftrace dup: /" /tmp/bpf
check "bpftrace compiles a program on the event and counts 4 with arg2 1" grep -qxF '@[1]: 4' /tmp/bpf

# The log lines of the whole run, read once the module is gone
rmmod markers_events
dmesg | grep "markers:.*test_ev" | sed "s/^\[[ 0-9.]*\] //" >/tmp/dmesg
sed "s/^/dmesg: /" /tmp/dmesg
check "%pM: one log line names the marker and the conversion" \
	[ "$(grep -c '^markers: marker test_ev_mac: "%pM" .*address' /tmp/dmesg)" = 1 ]
