#!/bin/bash
# In the guest: acme_xa's marker events through perf (list, stat, record
# and script) and bpftrace (list, a histogram), the module pinned while
# they hold an event, what they count under markers.proprietary=deny
# (nothing), and their errors on the force-loaded twin. Checks itself and
# prints KTAP, plan first; what the tools printed goes out as plain lines
# prefixed with what printed them ("per-task: ", "script: ", "bpftrace: ",
# "rmmod under perf: ", ...).
set -u
# has LINE FILE: FILE has the whole line LINE
has() { grep -qxF -- "$1" "$2"; }
# same_sum A B: A is not empty and B is the same
same_sum() { [ -n "$1" ] && [ "$1" = "$2" ]; }
echo "1..19"
modprobe acme_xa || echo "modprobe acme_xa failed: the checks below fail"

perf list "markers:*" >/tmp/list.out 2>&1
n=$(grep -c "markers:acme_.*Tracepoint event" /tmp/list.out)
echo "perf list acme: $n"
check "perf list shows the driver's 12 markers as tracepoint events" [ "$n" = 12 ]
grep -o "markers:fs_open *\[Tracepoint event\]" /tmp/list.out
check "... and the core ones" grep -q "markers:fs_open *\[Tracepoint event\]" /tmp/list.out

perf stat -x, -e markers:acme_cmd_submit -- acmectl run --count 1000 --threads 4 2>/tmp/stat.out >/dev/null
sed "s/^/per-task: /" /tmp/stat.out
check "perf stat -e markers:acme_cmd_submit -- acmectl run --count 1000 counts 1000" \
	grep -q "^1000,,markers:acme_cmd_submit" /tmp/stat.out
perf stat -x, -a -e markers:acme_cmd_submit,markers:acme_cmd_complete -- acmectl run --count 1000 --threads 4 2>/tmp/stat-a.out >/dev/null
sed "s/^/system-wide: /" /tmp/stat-a.out
check "perf stat -a counts 1000 submissions" grep -q "^1000,,markers:acme_cmd_submit" /tmp/stat-a.out
check "... and 1000 completions" grep -q "^1000,,markers:acme_cmd_complete" /tmp/stat-a.out

perf record -q -a -e markers:acme_cmd_complete -o /tmp/p.data -- acmectl run --count 5 >/dev/null 2>&1
perf script -i /tmp/p.data 2>/dev/null | sed "s/^ *//" >/tmp/script.out
sed "s/^/script: /" /tmp/script.out
n=$(grep -cE " markers:acme_cmd_complete: id [0-9]+ status 0 latency_ns [0-9]+$" /tmp/script.out)
check "perf script prints 5 records in the marker's own text ($n)" [ "$n" = 5 ]

n=$(bpftrace -l "tracepoint:markers:*" 2>/dev/null | grep -c "^tracepoint:markers:acme_")
echo "bpftrace list acme: $n"
check "bpftrace -l lists the 12" [ "$n" = 12 ]
bpftrace -lv "tracepoint:markers:acme_cmd_complete" 2>/dev/null | sed "s/^ *//" >/tmp/args.out
sed "s/^/args: /" /tmp/args.out
check "bpftrace -lv shows typed, named args" has "unsigned long long latency_ns" /tmp/args.out
n=$(grep -cxE "unsigned int id|int status|unsigned long long latency_ns" /tmp/args.out)
check "... all three" [ "$n" = 3 ]

bpftrace -e "tracepoint:markers:acme_cmd_complete { @latency_ns = hist(args->latency_ns); @n = count(); @sum = sum(args->latency_ns); }" \
	-c "/usr/local/bin/acmectl run --count 300 --threads 2" 2>/dev/null >/tmp/bt.out
grep -E "^latency_sum_ns=|^completed=|^@n: |^@sum: |^@latency_ns:|^\[" /tmp/bt.out | sed "s/^/bpftrace: /"
check "bpftrace counts the 300 completions" has "@n: 300" /tmp/bt.out
check "... and prints a histogram of a proprietary module's marker" grep -q "^@latency_ns:" /tmp/bt.out
sum_bt=$(sed -n "s/^@sum: //p" /tmp/bt.out)
sum_acme=$(sed -n "s/^latency_sum_ns=//p" /tmp/bt.out)
check "the latency sum bpftrace computes ($sum_bt) is acmectl's ($sum_acme)" \
	same_sum "$sum_bt" "$sum_acme"

# Wait until the tracer holds the module, however slow its start on a
# busy host (up to a minute): a fixed sleep raced it
pinned() {
	for _ in $(seq 300); do
		[ "$(cat /sys/module/acme_xa/refcnt)" -gt 0 ] && return
		sleep 0.2
	done
}
perf record -q -a -e markers:acme_cmd_submit -o /tmp/q.data -- sleep 4 >/dev/null 2>&1 &
pinned
rmmod acme_xa >/tmp/rmmod-perf.out 2>&1
wait
sed "s/^/rmmod under perf: /" /tmp/rmmod-perf.out
check "perf holding an event pins its module" grep -q "^rmmod: ERROR: Module acme_xa is in use" /tmp/rmmod-perf.out
bpftrace -e "tracepoint:markers:acme_cmd_submit { @ = count(); } interval:s:4 { exit(); }" >/dev/null 2>&1 &
pinned
rmmod acme_xa >/tmp/rmmod-bpf.out 2>&1
wait
sed "s/^/rmmod under bpftrace: /" /tmp/rmmod-bpf.out
check "a BPF program on it pins it too" grep -q "^rmmod: ERROR: Module acme_xa is in use" /tmp/rmmod-bpf.out
check "... and the module unloads once they are gone" rmmod acme_xa

modprobe acme_xa
echo deny > /sys/module/markers/parameters/proprietary
perf stat -x, -e markers:acme_cmd_submit -- acmectl run --count 10 2>&1 >/dev/null |
	grep "markers:acme_cmd_submit" >/tmp/deny-perf.out
sed "s/^/perf under deny: /" /tmp/deny-perf.out
check "under deny, perf opens the event and counts none of 10 commands" grep -q "^0,,markers:acme_cmd_submit," /tmp/deny-perf.out
bpftrace -e "tracepoint:markers:acme_cmd_submit { @n++; } END { printf(\"count %d\\n\", @n); clear(@n); }" \
	-c "acmectl run --count 10" 2>&1 | grep "^count" >/tmp/deny-bt.out
sed "s/^/bpftrace under deny: /" /tmp/deny-bt.out
check "under deny, bpftrace attaches and counts none" has "count 0" /tmp/deny-bt.out
echo allow > /sys/module/markers/parameters/proprietary
rmmod acme_xa

insmod -f /opt/acme-xa/acme_xa_forced.ko || echo "insmod -f of the forced twin failed"
perf stat -e markers:acme_cmd_submit -- true 2>&1 | grep -i -m1 "event syntax error\|unknown tracepoint" >/tmp/forced-perf.out
sed "s/^/perf on the forced twin: /" /tmp/forced-perf.out
check "perf on the forced twin's marker: no such event" test -s /tmp/forced-perf.out
bpftrace -e "tracepoint:markers:acme_cmd_submit { @ = count(); }" -c /bin/true 2>&1 | grep -i -m1 "no probes\|does not exist\|ERROR" >/tmp/forced-bt.out
sed "s/^/bpftrace on the forced twin: /" /tmp/forced-bt.out
check "bpftrace on it: an error" test -s /tmp/forced-bt.out
