#!/bin/bash
# In the guest: acme_xa's marker events through perf (list, stat, record
# and script) and bpftrace (list, a histogram), the module pinned while
# they hold an event, what they count under markers.proprietary=deny
# (nothing), and their errors on the force-loaded twin. Prints each part under "== PART", its lines
# prefixed with what printed them ("per-task: ", "script: ", "bpftrace: ",
# "rmmod under perf: ", ...); "== done" at the end.
modprobe acme_xa
echo "== perf list"
perf list "markers:*" 2>&1 | grep -c "markers:acme_.*Tracepoint event" | sed "s/^/perf list acme: /"
perf list "markers:*" 2>&1 | grep -o "markers:fs_open *\[Tracepoint event\]"
echo "== perf stat"
perf stat -x, -e markers:acme_cmd_submit -- acmectl run --count 1000 --threads 4 2>&1 >/dev/null | sed "s/^/per-task: /"
perf stat -x, -a -e markers:acme_cmd_submit,markers:acme_cmd_complete -- acmectl run --count 1000 --threads 4 2>&1 >/dev/null | sed "s/^/system-wide: /"
echo "== perf record"
perf record -q -a -e markers:acme_cmd_complete -o /tmp/p.data -- acmectl run --count 5 >/dev/null 2>&1
perf script -i /tmp/p.data 2>/dev/null | sed "s/^ */script: /"
echo "== bpftrace list"
bpftrace -l "tracepoint:markers:*" 2>/dev/null | grep -c "^tracepoint:markers:acme_" | sed "s/^/bpftrace list acme: /"
bpftrace -lv "tracepoint:markers:acme_cmd_complete" 2>/dev/null | sed "s/^ */args: /"
echo "== bpftrace hist"
bpftrace -e "tracepoint:markers:acme_cmd_complete { @latency_ns = hist(args->latency_ns); @n = count(); @sum = sum(args->latency_ns); }" \
	-c "/usr/local/bin/acmectl run --count 300 --threads 2" 2>/dev/null > /tmp/bt.out
grep -E "^latency_sum_ns=|^completed=|^@n: |^@sum: |^@latency_ns:|^\[" /tmp/bt.out | sed "s/^/bpftrace: /"
echo "== pinned"
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
rmmod acme_xa 2>&1 | sed "s/^/rmmod under perf: /"
wait
bpftrace -e "tracepoint:markers:acme_cmd_submit { @ = count(); } interval:s:4 { exit(); }" >/dev/null 2>&1 &
pinned
rmmod acme_xa 2>&1 | sed "s/^/rmmod under bpftrace: /"
wait
rmmod acme_xa && echo "rmmod afterwards: ok"
modprobe acme_xa
echo "== deny"
echo deny > /sys/module/markers/parameters/proprietary
perf stat -x, -e markers:acme_cmd_submit -- acmectl run --count 10 2>&1 >/dev/null |
	grep "markers:acme_cmd_submit" | sed "s/^/perf under deny: /"
bpftrace -e "tracepoint:markers:acme_cmd_submit { @n++; } END { printf(\"count %d\\n\", @n); clear(@n); }" \
	-c "acmectl run --count 10" 2>&1 | grep "^count" | sed "s/^/bpftrace under deny: /"
echo allow > /sys/module/markers/parameters/proprietary
rmmod acme_xa
echo "== forced"
insmod -f /opt/acme-xa/acme_xa_forced.ko
perf stat -e markers:acme_cmd_submit -- true 2>&1 | grep -i -m1 "event syntax error\|unknown tracepoint" | sed "s/^/perf on the forced twin: /"
bpftrace -e "tracepoint:markers:acme_cmd_submit { @ = count(); }" -c /bin/true 2>&1 | grep -i -m1 "no probes\|does not exist\|ERROR" | sed "s/^/bpftrace on the forced twin: /"
echo "== done"
