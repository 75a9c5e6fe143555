#!/bin/bash
# The runner's contract: the command's exit status comes back; a panic, a
# kernel WARNING and a timeout fail the run and are shown, and are logged
# to VM_REPORT_LOG (these deliberate ones to a log of their own, so that
# finish's check of this test's runs stays for the others); the shares
# work, read-only where asked, the checkout read-only, and a share the
# guest cannot mount stops the run; the command's stdout and stderr stay
# apart.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

status=0
"$vm" run -- sh -c 'exit 3' || status=$?
check "exit status 3 comes back (got $status)" [ "$status" = 3 ]

status=0
"$vm" run -- true || status=$?
check "exit status 0 comes back (got $status)" [ "$status" = 0 ]

# The command's stdout and stderr, apart
status=0
"$vm" run -- sh -c 'echo to-stdout; echo to-stderr >&2; echo more-stdout' \
	>"$scratch/stdout" 2>"$scratch/stderr" || status=$?
check "a command writing to stdout and stderr runs (exit $status)" [ "$status" = 0 ]
check "... its stdout comes to stdout, all of it and only it" [ "$(cat "$scratch/stdout")" = $'to-stdout\nmore-stdout' ]
check "... its stderr to stderr" grep -qx to-stderr "$scratch/stderr"

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

# Several shares at once, read-only and writable, and the checkout
mkdir "$scratch/in" "$scratch/out"
echo input >"$scratch/in/file"
status=0
out=$("$vm" run --rodir "/mnt/in=$scratch/in" --rwdir "/mnt/out=$scratch/out" -- sh -c '
	cat /mnt/in/file
	touch /mnt/in/new 2>/dev/null && echo in-writable
	echo output >/mnt/out/file
	head -n 1 '"$project_dir"'/README.md
	touch '"$project_dir"'/guest-was-here 2>/dev/null && echo checkout-writable
	echo end') || status=$?
printf '%s\n' "$out" | sed 's/^/# guest: /'
check "with two shares the command runs (exit $status)" [ "$status" = 0 ]
check "--rodir GUEST=HOST: the guest reads HOST at GUEST" grep -qx input <<<"$out"
check "... and cannot write there" [ ! -e "$scratch/in/new" ]
check "--rwdir GUEST=HOST: the guest writes to HOST" grep -qx output "$scratch/out/file"
check "the checkout is readable at its host path" grep -qxF "$(head -n 1 README.md)" <<<"$out"
check "... and read-only" [ ! -e "$project_dir/guest-was-here" ]
status=0
out=$("$vm" run --rodir "relative=$scratch/in" -- true 2>&1) || status=$?
check "a guest path that is not absolute is refused, saying why (exit $status)" \
	grep -q 'the guest path must be absolute' <<<"$out"
status=0
out=$("$vm" run --rwdir "/mnt/x=$scratch/missing" -- true 2>&1) || status=$?
check "a host directory that does not exist is refused (exit $status)" \
	grep -q 'is not a directory' <<<"$out"
# A host directory the guest cannot mount (a share whose tag QEMU does not
# have): the command does not run, and the run fails saying so
status=0
VM_APPEND="vm.mount=no_such_tag,ro,/mnt/nothing" VM_REPORT_LOG=$scratch/mount-reports \
	"$vm" run -- echo the-command-ran >"$scratch/stdout" 2>"$scratch/stderr" || status=$?
check "a share the guest cannot mount fails the run (exit $status)" [ "$status" = 125 ]
check "... saying which" grep -q 'could not mount the host.s directories at /mnt/nothing' "$scratch/stderr"
check "... and the command does not run" lacks the-command-ran "$scratch/stdout"
finish
