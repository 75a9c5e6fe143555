#!/bin/bash
# The drop's bug report collector, acme-collect, in the guest as a customer
# runs it (tests/vendor/guest/collect.sh): with SystemTap's kernel.mark()
# (the bug report module Acme builds from the drop's own script and
# tapsets), without it (a SystemTap 5.6: perf on the trace events), with
# a SystemTap that cannot build the script (a stock 5.1: perf, and why),
# with bpftrace, stopping by itself after -t; and refusing bad arguments, a
# policy that blocks the markers and an unloaded driver, with no report.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=stap-scripts/examples/stall-fault.sh
. stap-scripts/examples/stall-fault.sh

drop=$project_dir/vendor-module/drop
[ -x "$drop/acme-collect" ] || die "no acme-collect in the drop; run 'make vendor'"
share=$scratch/share
mkdir -p "$share"

# Acme's build of the bug report module for this kernel, from the drop
compile=$project_dir/build/collect-compile.$$
rm -rf "$compile" && mkdir -p "$compile"
if (cd "$compile" && "$project_dir/guest-image/vm" chroot -- \
	stap -r "$kbuild" -p4 -m acme_collect -I "$drop/tapset" "$drop/acme-bugreport.stp") >"$scratch/compile.log" 2>&1; then
	cp "$compile/acme_collect.ko" "$share/"
fi
rm -rf "$compile"
check "the drop's acme-bugreport.stp and tapsets compile for our kernel" test -s "$share/acme_collect.ko"
[ -s "$share/acme_collect.ko" ] || sed 's/^/# /' "$scratch/compile.log" | tail -n 20

status=0
"$vm" run --share "$share" --timeout 600 -- bash -c "$(guest_half collect)" collect "$stall" >"$scratch/guest.log" 2>&1 || status=$?
check "the guest ran to the end (exit $status)" [ "$status" = 0 ]
[ "$status" = 0 ] || tail -n 30 "$scratch/guest.log" | sed 's/^/# /'

# ran NAME STATUS: run NAME exited STATUS (its stderr shown if not)
ran() {
	local got
	got=$(cat "$share/$1.status" 2>/dev/null) || got="(did not run)"
	[ "$got" = "$2" ] || { sed 's/^/#   /' "$share/$1.stderr" 2>/dev/null | tail -n 10; return 1; }
}
has() { grep -Eq -- "$2" "$share/$1"; }
count_of() { grep -Ec -- "$2" "$share/$1"; }
srcversion=$(objcopy -O binary --only-section=.modinfo "$drop/acme_xa.ko" /dev/stdout | tr '\0' '\n' | sed -n 's/^srcversion=//p')

# --- SystemTap: the full bug report, facts read from the system --------
r=stap.txt
check "stap: acme-collect exits 0" ran stap 0
check "stap: says where the report is and to send it" has stap.stderr 'wrote /mnt/host/stap\.txt \(method: stap\); send this file to Acme support$'
check "stap: the report says the method" has "$r" '^method: stap$'
check "stap: kernel release and taint P+O" has "$r" "^kernel: release $release taint 4097$"
check "stap: the policy" has "$r" '^policy: markers.proprietary=allow$'
check "stap: the collector's own header has the driver's version and srcversion ($srcversion)" \
	[ "$(count_of "$r" "^module: acme_xa version 1\.4\.2 srcversion $srcversion text 0xffffffff[0-9a-f]{8}$")" = 3 ]
check "stap: two bug reports (at the stall, at exit)" [ "$(count_of "$r" '^=== acme bug report v2 ===$')" = 2 ]
check "stap: the bug report's module line has the system's facts" has "$r" "^module: acme_xa version 1\.4\.2 srcversion $srcversion text 0xffffffff[0-9a-f]{8}$"
check "stap: no fact left unset" lacks 'unknown (set by' "$share/$r"
check "stap: the bug report's parameters are the driver's" has "$r" '^parameters: .*stall_after_wraps=2$'
check "stap: the stall of command 129 triggered the first" has "$r" '^trigger: fw\.stall id=129 cpu=[01] at '
check "stap: the failed commands at exit" has "$r" '^failed_ids 129,130,259,260$'
check "stap: acmectl stats in the report (300 submitted)" has "$r" '^submitted=300$'
check "stap: the report ends" has "$r" '^=== end of acme-collect report ===$'

# --- no kernel.mark(): perf on the events, and why ----------------------
r=perf.txt
check "perf (SystemTap without kernel.mark()): acme-collect exits 0" ran perf 0
check "perf: the report says the method" has "$r" '^method: perf$'
check "perf: and why not SystemTap" has "$r" '^note: stap: not used: stap finds no kernel\.mark\("acme_cmd_submit"\)'
check "perf: 300 submits counted" has "$r" '^markers:acme_cmd_submit 300$'
check "perf: 2 stalls counted" has "$r" '^markers:acme_fw_stall 2$'
check "perf: the command's own output in its section" has "$r" '^failed_ids=129,130,259,260$'
check "perf: the driver's kernel log lines (the stall of 129)" has "$r" '\] acme_xa: firmware stalled on command 129 '
check "perf: no other kernel log lines" lacks 'Command line:' "$share/$r"
check "perf: the stall of command 129" has "$r" 'markers:acme_fw_stall: id 129 ring_pos 128 wraps 2$'
check "perf: the timeout of command 129 (ETIMEDOUT, -110)" has "$r" 'markers:acme_cmd_complete: id 129 status -110 '
check "perf: the command's exit status (1: commands failed) in the report" has "$r" '^command: exit status 1$'
check "perf: the report ends" has "$r" '^=== end of acme-collect report ===$'

# --- a stock SystemTap 5.1: finds the markers, cannot build the script --
r=stock.txt
check "stock SystemTap 5.1 (its build fails): acme-collect exits 0" ran stock 0
check "stock: it tried the build, then used perf" has "$r" '^method: perf$'
check "stock: and says why not SystemTap, with SystemTap's error" \
	has "$r" "^note: stap: not used: SystemTap could not compile acme-bugreport\\.stp \\(.*duplicate label 'deref_fault'"
check "stock: 300 submits counted" has "$r" '^markers:acme_cmd_submit 300$'

# --- bpftrace -----------------------------------------------------------
r=bpftrace.txt
check "bpftrace: acme-collect exits 0" ran bpftrace 0
check "bpftrace: the report says the method" has "$r" '^method: bpftrace$'
check "bpftrace: 300 submits counted" has "$r" '^@events\[tracepoint:markers:acme_cmd_submit\]: 300$'
check "bpftrace: the stall of command 129" has "$r" ' fw_stall id=129 ring_pos=128 wraps=2$'
check "bpftrace: the failures by status (4 x ETIMEDOUT)" has "$r" '^@failed_status\[-110\]: 4$'

# --- stops by itself; its own file name ---------------------------------
check "-t 2 without a command: exits 0" ran timed 0
check "-t 2: written to acme-report-<host>-<date>.txt" grep -Eqx 'acme-report-.+-[0-9]{8}-[0-9]{6}\.txt' "$share/timed.files"

# --- refusals: a clear error, nothing written ---------------------------
refused() { # NAME STATUS MESSAGE
	ran "$1" "$2" && grep -Eq -- "$3" "$share/$1.stderr" && [ ! -e "$share/$1.txt" ] && [ ! -e "$share/$1.txt.partial" ]
}
check "-t 0: usage error (2), says why, no report" refused bad-t0 2 '-t 0: must be 1\.\.86400'
check "-t abc: usage error (2), says why, no report" refused bad-tabc 2 "-t takes whole seconds, not 'abc'"
check "-t 99999999999999999999: usage error (2), no report" refused bad-thuge 2 '-t takes whole seconds'
check "--method dtrace: usage error (2), says why, no report" refused bad-method 2 "--method is auto, stap, perf or bpftrace, not 'dtrace'"
check "--module of a missing file: exits 1, says why, no report" refused bad-module 1 '--module /nonexistent\.ko: cannot read it'
check "-o in a missing directory: exits 1 before tracing, says why" refused bad-output 1 'cannot write /nonexistent/dir/report\.txt\.partial'
check "markers.proprietary=deny: exits 1, says the kernel blocks the markers and how to allow them, no report" \
	refused deny 1 'blocks the acme_xa markers \(policy\): this machine runs markers\.proprietary=deny; .*echo allow'
check "the driver not loaded: exits 1, says so, no report" refused unloaded 1 'the acme_xa driver is not loaded'
finish
