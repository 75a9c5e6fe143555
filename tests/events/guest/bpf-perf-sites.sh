#!/bin/bash
# In the guest (env ROUNDS=N): bpftrace counts a marker event without
# fields over N loads of markers_gpl ("round R: @n: N"); bpf-ctx-read, built
# here from /mnt/host, reads at the end of records and past them ("EV record
# ends at: N", "EV read ...: attached|refused: ..."); perf record's samples
# of test_gpl_args with their sites ("site: ..."), and the first frame of
# their callchains ("chain: FUNCTION"); "== done" at the end.
fire=/sys/module/markers_gpl/parameters/fire
echo "== noargs"
for round in $(seq "$ROUNDS"); do
	insmod /mnt/host/markers_gpl.ko
	# bpftrace splits -c at spaces: the redirection goes in a script
	echo "echo $((round + 6)) > $fire" >/tmp/fire
	bpftrace -e "tracepoint:markers:test_gpl_noargs { @n = count(); }" \
		-c "/bin/sh /tmp/fire" >/tmp/bt 2>&1
	echo "round $round: $(grep -E "^@n: |ERROR" /tmp/bt | head -n 1)"
	rmmod markers_gpl
done
echo "== ctx reads"
gcc -Wall -Wextra -Werror -O2 -o /tmp/bpf-ctx-read /mnt/host/bpf-ctx-read.c && echo "built bpf-ctx-read"
insmod /mnt/host/markers_gpl.ko
for ev in test_gpl_noargs test_gpl_args; do
	id=$(cat /sys/kernel/tracing/events/markers/$ev/id)
	end=$(sed -n "s/.*offset:\([0-9]*\);.*size:\([0-9]*\);.*/\1 \2/p" \
		/sys/kernel/tracing/events/markers/$ev/format | awk "{ e = \$1 + \$2; if (e > m) m = e } END { print m }")
	echo "$ev record ends at: $end"
	# The last 8 bytes of the record (the common fields of the first
	# 8 are off limits to BPF), then 8 bytes past it
	[ "$end" -lt 16 ] || echo "$ev read at the end: $(/tmp/bpf-ctx-read "$id" $((end - 8)))"
	echo "$ev read past the end: $(/tmp/bpf-ctx-read "$id" "$end")"
done
rmmod markers_gpl
echo "== perf sites"
# Installed, as a driver is, so that perf finds its symbols
mkdir -p "/lib/modules/$(uname -r)/extra"
cp /mnt/host/markers_gpl.ko "/lib/modules/$(uname -r)/extra/"
depmod
modprobe markers_gpl
perf record -q -a -e markers:test_gpl_args -o /tmp/p.data -- sh -c "echo 3 > $fire" >/dev/null 2>&1
perf script -i /tmp/p.data -F event,ip,sym,dso 2>/dev/null | sed "s/^ */site: /"
# With callchains: the first frame of each ("chain: ...") is the site's
perf record -q -g -e markers:test_gpl_args -o /tmp/g.data -- sh -c "echo 2 > $fire" >/dev/null 2>&1
perf script -i /tmp/g.data -F ip,sym 2>/dev/null | awk '/^$/ { first = 1; next } first { sub(/^[ \t]*/, ""); print "chain: " $2; first = 0 }' first=1
rmmod markers_gpl
echo "== done"
