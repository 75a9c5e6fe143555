#!/bin/bash
# In the guest (env ROUNDS=N): bpftrace counts a marker event without
# fields over N loads of markers_gpl; bpf-ctx-read, built here from
# /mnt/host, reads at the end of records and past them; perf record's
# samples of test_gpl_args point at their site, and so does the first
# frame of their callchains. Checks itself and prints KTAP, plan first;
# what it read goes out as plain lines ("round R: @n: N", "EV record ends
# at: N", "EV read ...: attached|refused: ...", "site: ...", "chain:
# FUNCTION").
set -u
fire=/sys/module/markers_gpl/parameters/fire
E=/sys/kernel/tracing/events/markers
echo "1..$((ROUNDS + 9))"
for round in $(seq "$ROUNDS"); do
	insmod /mnt/host/markers_gpl.ko || echo "round $round: markers_gpl does not load"
	# bpftrace splits -c at spaces: the redirection goes in a script
	echo "echo $((round + 6)) > $fire" >/tmp/fire
	bpftrace -e "tracepoint:markers:test_gpl_noargs { @n = count(); }" \
		-c "/bin/sh /tmp/fire" >/tmp/bt 2>&1
	n=$(grep -E "^@n: |ERROR" /tmp/bt | head -n 1)
	echo "round $round: $n"
	check "round $round: bpftrace on a marker without fields attaches and counts $((round + 6))" \
		[ "$n" = "@n: $((round + 6))" ]
	rmmod markers_gpl
done

check "bpf-ctx-read builds with -Wall -Wextra -Werror in the guest" \
	gcc -Wall -Wextra -Werror -O2 -o /tmp/bpf-ctx-read /mnt/host/bpf-ctx-read.c
insmod /mnt/host/markers_gpl.ko || echo "markers_gpl does not load: the checks below fail"
# record_end EV: where EV's record ends, after the field that ends last
record_end() {
	sed -n "s/.*offset:\([0-9]*\);.*size:\([0-9]*\);.*/\1 \2/p" "$E/$1/format" |
		awk "{ e = \$1 + \$2; if (e > m) m = e } END { print m }"
}
# ctx_read EV OFFSET: bpf-ctx-read's answer for a read of EV's record at
# OFFSET (attached, or refused: ERRNO)
ctx_read() { /tmp/bpf-ctx-read "$(cat "$E/$1/id")" "$2"; }
# The last 8 bytes of a record (the common fields of the first 8 are off
# limits to BPF), then 8 bytes past it
end=$(record_end test_gpl_noargs)
echo "test_gpl_noargs record ends at: $end"
check "test_gpl_noargs's record is its 8 bytes of common fields" [ "$end" = 8 ]
answer=$(ctx_read test_gpl_noargs "$end")
echo "test_gpl_noargs read past the end: $answer"
check "a BPF program reading past a marker event without fields is refused" [ "$answer" = "refused: EACCES" ]
end=$(record_end test_gpl_args)
echo "test_gpl_args record ends at: $end"
check "test_gpl_args's record ends after its last field, p (48)" [ "$end" = 48 ]
answer="no read: the record ends at '$end'"
if [[ $end =~ ^[0-9]+$ ]] && [ "$end" -ge 16 ]; then answer=$(ctx_read test_gpl_args $((end - 8))); fi
echo "test_gpl_args read at the end: $answer"
check "one reading the last field of an event with fields attaches" [ "$answer" = attached ]
answer=$(ctx_read test_gpl_args "$end")
echo "test_gpl_args read past the end: $answer"
check "... and one reading past its record is refused" [ "$answer" = "refused: EACCES" ]
rmmod markers_gpl

# Installed, as a driver is, so that perf finds its symbols
mkdir -p "/lib/modules/$(uname -r)/extra"
cp /mnt/host/markers_gpl.ko "/lib/modules/$(uname -r)/extra/"
depmod
modprobe markers_gpl || echo "modprobe markers_gpl failed: the checks below fail"
perf record -q -a -e markers:test_gpl_args -o /tmp/p.data -- sh -c "echo 3 > $fire" >/dev/null 2>&1
perf script -i /tmp/p.data -F event,ip,sym,dso 2>/dev/null | sed "s/^ *//" >/tmp/sites
sed "s/^/site: /" /tmp/sites
check "perf record took 3 samples of markers:test_gpl_args" \
	[ "$(grep -c '^markers:test_gpl_args: ' /tmp/sites)" = 3 ]
check "... each at the marker's site, fire_set of markers_gpl" \
	[ "$(grep -cE '^markers:test_gpl_args: +[0-9a-f]+ fire_set \(/lib/modules/.*/markers_gpl\.ko\)$' /tmp/sites)" = 3 ]
# With callchains: the first frame of each sample, the function
perf record -q -g -e markers:test_gpl_args -o /tmp/g.data -- sh -c "echo 2 > $fire" >/dev/null 2>&1
perf script -i /tmp/g.data -F ip,sym 2>/dev/null |
	awk '/^$/ { first = 1; next } first { sub(/^[ \t]*/, ""); print $2; first = 0 }' first=1 >/tmp/chains
sed "s/^/chain: /" /tmp/chains
chains_start_at_site() { [ "$(wc -l </tmp/chains)" = 2 ] && [ "$(grep -cx fire_set /tmp/chains)" = 2 ]; }
check "perf record -g took 2 samples, their callchains starting at the site, fire_set (issue 38)" \
	chains_start_at_site
rmmod markers_gpl
