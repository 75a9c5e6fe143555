#!/bin/bash
# Markers as trace events, through perf and bpftrace: the events listed
# with their typed fields, perf stat counting exactly, perf record and
# perf script printing the marker's text, a bpftrace histogram of a
# proprietary module's marker; perf and BPF pinning the event's module;
# and the clear errors under markers.proprietary=deny and for the
# force-loaded twin.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

guest_status=0
# shellcheck disable=SC2016 # expanded by the guest's shell
"$vm" run -- bash -c '
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
	perf stat -e markers:acme_cmd_submit -- true 2>&1 | grep -i permission | sed "s/^/perf under deny: /"
	bpftrace -e "tracepoint:markers:acme_cmd_submit { @ = count(); }" -c /bin/true 2>&1 | grep -i "not permitted" | sed "s/^/bpftrace under deny: /"
	echo allow > /sys/module/markers/parameters/proprietary
	rmmod acme_xa
	echo "== forced"
	insmod -f /opt/acme-xa/acme_xa_forced.ko
	perf stat -e markers:acme_cmd_submit -- true 2>&1 | grep -i -m1 "event syntax error\|unknown tracepoint" | sed "s/^/perf on the forced twin: /"
	bpftrace -e "tracepoint:markers:acme_cmd_submit { @ = count(); }" -c /bin/true 2>&1 | grep -i -m1 "no probes\|does not exist\|ERROR" | sed "s/^/bpftrace on the forced twin: /"
	echo "== done"' >"$scratch/out" 2>&1 || guest_status=$?
sed 's/^/# /' "$scratch/out"
o=$scratch/out
has() { grep -qxF -- "$1" "$o"; }
check "perf list shows the driver's 12 markers as tracepoint events" has 'perf list acme: 12'
check "... and the core ones" grep -q '^markers:fs_open *\[Tracepoint event\]' "$o"
check "perf stat -e markers:acme_cmd_submit -- acmectl run --count 1000 counts 1000" grep -q '^per-task: 1000,,markers:acme_cmd_submit' "$o"
check "perf stat -a counts 1000 submissions" grep -q '^system-wide: 1000,,markers:acme_cmd_submit' "$o"
check "... and 1000 completions" grep -q '^system-wide: 1000,,markers:acme_cmd_complete' "$o"
check "perf script prints 5 records in the marker's own text" \
	[ "$(grep -cE '^script: .* markers:acme_cmd_complete: id [0-9]+ status 0 latency_ns [0-9]+$' "$o")" = 5 ]
check "bpftrace -l lists the 12" has 'bpftrace list acme: 12'
check "bpftrace -lv shows typed, named args" grep -q '^args: unsigned long long latency_ns$' "$o"
check "... all three" [ "$(grep -cE '^args: (unsigned int id|int status|unsigned long long latency_ns)$' "$o")" = 3 ]
check "bpftrace counts the 300 completions" has 'bpftrace: @n: 300'
check "... and prints a histogram of a proprietary module's marker" grep -q '^bpftrace: @latency_ns:' "$o"
sum_bt=$(sed -n 's/^bpftrace: @sum: //p' "$o")
sum_acme=$(sed -n 's/^bpftrace: latency_sum_ns=//p' "$o")
check "the latency sum bpftrace computes ($sum_bt) is acmectl's ($sum_acme)" test -n "$sum_bt" -a "$sum_bt" = "$sum_acme"
check "perf holding an event pins its module" grep -q '^rmmod under perf: rmmod: ERROR: Module acme_xa is in use' "$o"
check "a BPF program on it pins it too" grep -q '^rmmod under bpftrace: rmmod: ERROR: Module acme_xa is in use' "$o"
check "... and the module unloads once they are gone" has 'rmmod afterwards: ok'
check "under deny, perf says it has no permission" grep -q '^perf under deny: No permission to enable markers:acme_cmd_submit event' "$o"
check "under deny, bpftrace's attach is refused" grep -q '^bpftrace under deny: .*Operation not permitted' "$o"
check "perf on the forced twin's marker: no such event" grep -q '^perf on the forced twin: ' "$o"
check "bpftrace on it: an error" grep -q '^bpftrace on the forced twin: ' "$o"
check "the guest run finished" has '== done'
check "... with no kernel report (guest exit $guest_status)" [ "$guest_status" = 0 ]
finish
