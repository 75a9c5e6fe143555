#!/bin/bash
# The guest half of tests/vendor/40-collect.sh (run there as
# bash -c "$(guest_half collect)" collect STALL, STALL the stall fault's
# module parameters, stap-scripts/examples/stall-fault.sh): the drop's
# acme-collect run
# as a customer runs it, with each tracer, and given what it must refuse.
# Each run NAME leaves NAME.status, NAME.stdout and NAME.stderr in the
# shared directory; the reports are written there too.
set -u
out=/mnt/host
collect=/opt/acme-xa/acme-collect
stall=${1:?the stall fault module parameters}
workload=(acmectl run --count 300 --threads 2)

run() {
	local name=$1
	shift
	"$@" >"$out/$name.stdout" 2>"$out/$name.stderr"
	echo $? >"$out/$name.status"
}
# a fresh driver with the stall fault: command ids count from 1 again
reload() {
	rmmod acme_xa 2>/dev/null
	# shellcheck disable=SC2086 # the parameters are words on purpose
	modprobe acme_xa $stall || { echo "modprobe acme_xa $stall failed"; exit 4; }
}
cd /tmp || exit 1

# SystemTap with kernel.mark(), the module Acme built for this kernel
reload
run stap "$collect" --module "$out/acme_collect.ko" -o "$out/stap.txt" -- "${workload[@]}"

# SystemTap 5.6 and later have no kernel.mark(): the events, with perf
mkdir -p /tmp/stap-5.6
cat >/tmp/stap-5.6/stap <<'STAP'
#!/bin/sh
echo "semantic error: while resolving probe point: identifier 'kernel' at <input>:1:7" >&2
exit 1
STAP
chmod +x /tmp/stap-5.6/stap
reload
run perf env PATH="/tmp/stap-5.6:$PATH" "$collect" -o "$out/perf.txt" -- "${workload[@]}"

# A stock SystemTap 5.1 (without the project's stap fix) finds the
# markers but cannot build acme-bugreport.stp's %s probes: this stap
# resolves probes with the real one and fails the build as 5.1 does
real_stap=$(command -v stap)
mkdir -p /tmp/stap-stock
cat >/tmp/stap-stock/stap <<STAP
#!/bin/sh
case " \$* " in
*" -p4 "*)
	echo "acme_collect_src.c:2041:1: error: duplicate label 'deref_fault'" >&2
	echo "Pass 4: compilation failed.  [man error::pass4]" >&2
	exit 1 ;;
esac
exec $real_stap "\$@"
STAP
chmod +x /tmp/stap-stock/stap
reload
run stock env PATH="/tmp/stap-stock:$PATH" "$collect" -o "$out/stock.txt" -- "${workload[@]}"

reload
run bpftrace "$collect" --method bpftrace -o "$out/bpftrace.txt" -- "${workload[@]}"

# No command: it stops by itself after -t seconds, and names its file
mkdir -p /tmp/default && cd /tmp/default && run timed "$collect" --method perf -t 2
ls /tmp/default >"$out/timed.files"
cd /tmp || exit 1

# Bad input: a clear error, no report
run bad-t0 "$collect" -t 0 -o "$out/bad-t0.txt"
run bad-tabc "$collect" -t abc -o "$out/bad-tabc.txt"
run bad-thuge "$collect" -t 99999999999999999999 -o "$out/bad-thuge.txt"
run bad-method "$collect" --method dtrace -o "$out/bad-method.txt"
run bad-module "$collect" --module /nonexistent.ko -o "$out/bad-module.txt"
run bad-output "$collect" --method perf -o /nonexistent/dir/report.txt -- true

# The kernel refuses the markers: say so, write nothing
echo deny >/sys/module/markers/parameters/proprietary
run deny "$collect" --method perf -o "$out/deny.txt" -- true
echo allow >/sys/module/markers/parameters/proprietary

rmmod acme_xa
run unloaded "$collect" -o "$out/unloaded.txt" -- true
exit 0
