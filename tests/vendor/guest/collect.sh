#!/bin/bash
# The guest half of tests/vendor/40-collect.sh (run there as
# bash -c "$(guest_half collect)" collect STALL RELEASE SRCVERSION:
# STALL the stall fault's module parameters,
# stap-scripts/examples/stall-fault.sh; RELEASE the kernel release and
# SRCVERSION the drop's acme_xa.ko srcversion, both read on the host):
# the drop's acme-collect run as a customer runs it, with each tracer
# (SystemTap with the bug report module Acme built, /mnt/host/
# acme_collect.ko; perf; a stock SystemTap 5.1; bpftrace), stopping by
# itself after -t, and given what it must refuse; each run checked right
# after it. Each run NAME leaves NAME.status, NAME.stdout and NAME.stderr
# in /tmp/collect, and its report there too. Checks itself and prints
# KTAP, plan first; scratch files go to /tmp.
set -u
stall=$1 release=$2 srcversion=$3
echo "1..45"
out=/tmp/collect
collect=/opt/acme-xa/acme-collect
workload=(acmectl run --count 300 --threads 2)
mkdir -p "$out"

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
	modprobe acme_xa $stall || echo "# modprobe acme_xa $stall failed: the checks below fail"
}
# ran NAME STATUS: run NAME exited STATUS (its stderr shown if not)
ran() {
	local got
	got=$(cat "$out/$1.status" 2>/dev/null) || got="(did not run)"
	[ "$got" = "$2" ] || {
		echo "# $1 exited $got, not $2; its stderr ends:"
		sed 's/^/#   /' "$out/$1.stderr" 2>/dev/null | tail -n 10
		return 1
	}
}
# has FILE PATTERN: a line of $out/FILE matches the extended PATTERN
has() { grep -Eq -- "$2" "$out/$1"; }
count_of() { grep -Ec -- "$2" "$out/$1"; }
cd /tmp || echo "# cannot enter /tmp: the checks below fail"

# --- SystemTap with kernel.mark(): the full bug report, facts read from
# the system, with the module Acme built for this kernel
reload
run stap "$collect" --module /mnt/host/acme_collect.ko -o "$out/stap.txt" -- "${workload[@]}"
r=stap.txt
check "stap: acme-collect exits 0" ran stap 0
check "stap: says where the report is and to send it" has stap.stderr "wrote $out/stap\\.txt \\(method: stap\\); send this file to Acme support\$"
check "stap: the report says the method" has "$r" '^method: stap$'
check "stap: kernel release and taint P+O" has "$r" "^kernel: release $release taint 4097\$"
check "stap: the policy" has "$r" '^policy: markers.proprietary=allow$'
check "stap: the collector's own header has the driver's version and srcversion ($srcversion)" \
	[ "$(count_of "$r" "^module: acme_xa version 1\\.4\\.2 srcversion $srcversion text 0xffffffff[0-9a-f]{8}\$")" = 3 ]
check "stap: two bug reports (at the stall, at exit)" [ "$(count_of "$r" '^=== acme bug report v2 ===$')" = 2 ]
check "stap: the bug report's module line has the system's facts" has "$r" "^module: acme_xa version 1\\.4\\.2 srcversion $srcversion text 0xffffffff[0-9a-f]{8}\$"
check "stap: no fact left unset" lacks 'unknown (set by' "$out/$r"
check "stap: the bug report's parameters are the driver's" has "$r" '^parameters: .*stall_after_wraps=2$'
check "stap: the stall of command 129 triggered the first" has "$r" '^trigger: fw\.stall id=129 cpu=[01] at '
check "stap: the failed commands at exit" has "$r" '^failed_ids 129,130,259,260$'
check "stap: acmectl stats in the report (300 submitted)" has "$r" '^submitted=300$'
check "stap: the report ends" has "$r" '^=== end of acme-collect report ===$'

# --- SystemTap 5.6 and later have no kernel.mark(): the events, with
# perf, and why
mkdir -p /tmp/stap-5.6
cat >/tmp/stap-5.6/stap <<'STAP'
#!/bin/sh
echo "semantic error: while resolving probe point: identifier 'kernel' at <input>:1:7" >&2
exit 1
STAP
chmod +x /tmp/stap-5.6/stap
reload
run perf env PATH="/tmp/stap-5.6:$PATH" "$collect" -o "$out/perf.txt" -- "${workload[@]}"
r=perf.txt
check "perf (SystemTap without kernel.mark()): acme-collect exits 0" ran perf 0
check "perf: the report says the method" has "$r" '^method: perf$'
check "perf: and why not SystemTap" has "$r" '^note: stap: not used: stap finds no kernel\.mark\("acme_cmd_submit"\)'
check "perf: 300 submits counted" has "$r" '^markers:acme_cmd_submit 300$'
check "perf: 2 stalls counted" has "$r" '^markers:acme_fw_stall 2$'
check "perf: the command's own output in its section" has "$r" '^failed_ids=129,130,259,260$'
check "perf: the driver's kernel log lines (the stall of 129)" has "$r" '\] acme_xa: firmware stalled on command 129 '
check "perf: no other kernel log lines" lacks 'Command line:' "$out/$r"
check "perf: the stall of command 129" has "$r" 'markers:acme_fw_stall: id 129 ring_pos 128 wraps 2$'
check "perf: the timeout of command 129 (ETIMEDOUT, -110)" has "$r" 'markers:acme_cmd_complete: id 129 status -110 '
check "perf: the command's exit status (1: commands failed) in the report" has "$r" '^command: exit status 1$'
check "perf: the report ends" has "$r" '^=== end of acme-collect report ===$'

# --- A stock SystemTap 5.1 (without the project's stap fix) finds the
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
r=stock.txt
check "stock SystemTap 5.1 (its build fails): acme-collect exits 0" ran stock 0
check "stock: it tried the build, then used perf" has "$r" '^method: perf$'
check "stock: and says why not SystemTap, with SystemTap's error" \
	has "$r" "^note: stap: not used: SystemTap could not compile acme-bugreport\\.stp \\(.*duplicate label 'deref_fault'"
check "stock: 300 submits counted" has "$r" '^markers:acme_cmd_submit 300$'

# --- bpftrace
reload
run bpftrace "$collect" --method bpftrace -o "$out/bpftrace.txt" -- "${workload[@]}"
r=bpftrace.txt
check "bpftrace: acme-collect exits 0" ran bpftrace 0
check "bpftrace: the report says the method" has "$r" '^method: bpftrace$'
check "bpftrace: 300 submits counted" has "$r" '^@events\[tracepoint:markers:acme_cmd_submit\]: 300$'
check "bpftrace: the stall of command 129" has "$r" ' fw_stall id=129 ring_pos=128 wraps=2$'
check "bpftrace: the failures by status (4 x ETIMEDOUT)" has "$r" '^@failed_status\[-110\]: 4$'

# --- No command: it stops by itself after -t seconds, and names its file
mkdir -p /tmp/default && cd /tmp/default && run timed "$collect" --method perf -t 2
ls /tmp/default >"$out/timed.files"
cd /tmp || echo "# cannot enter /tmp: the checks below fail"
check "-t 2 without a command: exits 0" ran timed 0
check "-t 2: written to acme-report-<host>-<date>.txt" grep -Eqx 'acme-report-.+-[0-9]{8}-[0-9]{6}\.txt' "$out/timed.files"

# --- Refusals: a clear error, nothing written
# refused NAME STATUS MESSAGE: run NAME exited STATUS, said MESSAGE on
# stderr and left no report
refused() {
	ran "$1" "$2" && grep -Eq -- "$3" "$out/$1.stderr" && [ ! -e "$out/$1.txt" ] && [ ! -e "$out/$1.txt.partial" ]
}
run bad-t0 "$collect" -t 0 -o "$out/bad-t0.txt"
check "-t 0: usage error (2), says why, no report" refused bad-t0 2 '-t 0: must be 1\.\.86400'
run bad-tabc "$collect" -t abc -o "$out/bad-tabc.txt"
check "-t abc: usage error (2), says why, no report" refused bad-tabc 2 "-t takes whole seconds, not 'abc'"
run bad-thuge "$collect" -t 99999999999999999999 -o "$out/bad-thuge.txt"
check "-t 99999999999999999999: usage error (2), no report" refused bad-thuge 2 '-t takes whole seconds'
run bad-method "$collect" --method dtrace -o "$out/bad-method.txt"
check "--method dtrace: usage error (2), says why, no report" refused bad-method 2 "--method is auto, stap, perf or bpftrace, not 'dtrace'"
run bad-module "$collect" --module /nonexistent.ko -o "$out/bad-module.txt"
check "--module of a missing file: exits 1, says why, no report" refused bad-module 1 '--module /nonexistent\.ko: cannot read it'
run bad-output "$collect" --method perf -o /nonexistent/dir/report.txt -- true
check "-o in a missing directory: exits 1 before tracing, says why" refused bad-output 1 'cannot write /nonexistent/dir/report\.txt\.partial'

# The kernel refuses the markers: say so, write nothing
echo deny >/sys/module/markers/parameters/proprietary
run deny "$collect" --method perf -o "$out/deny.txt" -- true
echo allow >/sys/module/markers/parameters/proprietary
check "markers.proprietary=deny: exits 1, says the kernel blocks the markers and how to allow them, no report" \
	refused deny 1 'blocks the acme_xa markers \(policy\): this machine runs markers\.proprietary=deny; .*echo allow'

rmmod acme_xa
run unloaded "$collect" -o "$out/unloaded.txt" -- true
check "the driver not loaded: exits 1, says so, no report" refused unloaded 1 'the acme_xa driver is not loaded'
exit 0
