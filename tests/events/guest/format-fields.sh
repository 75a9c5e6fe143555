#!/bin/bash
# In the guest: loads markers_events (/mnt/host) and prints what its odd
# formats became in their trace events ("mac fmt:", "mac field:", "ptrs
# fmt:", "dup field:...", "noargs fields with common:"), the records ftrace
# and bpftrace got from firing them ("trace: ...", "bpftrace dup: ...") and
# the markers lines of dmesg ("dmesg: ..."); "== done" at the end.
T=/sys/kernel/tracing
E=$T/events/markers
insmod /mnt/host/markers_events.ko
echo "== mac"
sed -n "s/^print fmt: /mac fmt: /p; s/^\tfield:\(.*\) mac;.*/mac field: \1/p" $E/test_ev_mac/format
echo "== ptrs"
sed -n "s/^print fmt: /ptrs fmt: /p" $E/test_ev_ptrs/format
echo "== dup"
grep -o "field:int [a-z0-9_]*;" $E/test_ev_dup/format | grep -v common_ | sed "s/^/dup /"
echo "== noargs"
grep -c "^	field:" $E/test_ev_noargs/format | sed "s/^/noargs fields with common: /"
echo "== fire"
for ev in test_ev_mac test_ev_ptrs test_ev_dup; do echo 1 > $E/$ev/enable; done
echo "arg2 == 1" > $E/test_ev_dup/filter
echo > $T/trace
echo 3 > /sys/module/markers_events/parameters/fire_shapes
grep -o "test_ev_[a-z]*: .*" $T/trace | sed "s/^/trace: /"
for ev in test_ev_mac test_ev_ptrs test_ev_dup; do echo 0 > $E/$ev/enable; done
# bpftrace splits -c at spaces: the redirection goes in a script
echo "echo 4 > /sys/module/markers_events/parameters/fire_shapes" >/tmp/fire4
bpftrace -e "tracepoint:markers:test_ev_dup { @[args->arg2] = count(); }" \
	-c "/bin/sh /tmp/fire4" 2>&1 | grep -E "^@|ERROR|rror" | sed "s/^/bpftrace dup: /"
rmmod markers_events
dmesg | grep "markers:.*test_ev" | sed "s/^\[[ 0-9.]*\] /dmesg: /"
echo "== done"
