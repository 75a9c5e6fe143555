#!/bin/bash
# The runner's contract: the command's exit status comes back; a panic, a
# kernel WARNING and a timeout fail the run and are shown, and are logged
# to VM_REPORT_LOG (these deliberate ones to a log of their own, so that
# finish's check of this test's runs stays for the others); --share works.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

status=0
"$vm" run -- sh -c 'exit 3' || status=$?
check "exit status 3 comes back (got $status)" [ "$status" = 3 ]

status=0
"$vm" run -- true || status=$?
check "exit status 0 comes back (got $status)" [ "$status" = 0 ]

status=0
expected=$scratch/expected-reports
out=$(VM_REPORT_LOG=$expected "$vm" run -- sh -c 'echo c > /proc/sysrq-trigger; sleep 30' 2>&1) || status=$?
printf '%s\n' "$out" | tail -n 15
check "a panic fails the run (got $status)" [ "$status" = 125 ]
check "the panic is shown" grep -q 'Kernel panic' <<<"$out"

status=0
out=$(VM_REPORT_LOG=$expected "$vm" run -- sh -c 'echo "WARNING: CPU: 0 PID: 1 at test/injected.c:1 injected" > /dev/kmsg; echo still-running' 2>&1) || status=$?
check "a kernel WARNING fails the run (got $status)" [ "$status" = 125 ]
check "the WARNING is shown" grep -q 'injected' <<<"$out"

status=0
out=$(VM_REPORT_LOG=$expected "$vm" run --timeout 25 -- sleep 600 2>&1) || status=$?
check "a hung command times out (got $status)" [ "$status" = 124 ]
check "the timeout is reported" grep -q 'timeout' <<<"$out"
sed 's/^/# report log: /' "$expected"
check "the panic, the WARNING and the timeout are logged, one run line each" \
	[ "$(grep -c '^run ' "$expected")" = 3 ]
check "... the panic as a kernel report, exit 125" grep -q '^run status=125 report=kernel .*sysrq-trigger' "$expected"
check "... the WARNING as a kernel report, exit 125" grep -q '^run status=125 report=kernel .*injected' "$expected"
check "... the timeout as one, exit 124" grep -q '^run status=124 report=timeout .*sleep 600' "$expected"
check "the WARNING's line is in the report log" grep -q '^report-line .*injected' "$expected"

echo "from the host" >"$scratch/greeting"
out=$("$vm" run --share "$scratch" -- sh -c 'cat /mnt/host/greeting; echo back > /mnt/host/reply; uname -r') || true
check "--share DIR is /mnt/host in the guest" grep -qx 'from the host' <<<"$out"
check "the guest writes to /mnt/host" grep -qx back "$scratch/reply"
finish
