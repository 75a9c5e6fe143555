#!/bin/bash
# In the guest: ftracetest (from the kernel tree at $1) on either the
# kernel's own ftrace selftests ($2 = stock: its test.d) or the markers'
# cases in the same form ($2 = markers: /mnt/host/markers/*.tc, test
# modules in /mnt/host/modules), with acme_xa installed.
# Checks itself and prints KTAP, its plan first: one result per case run
# (a case flagged "instance" runs twice), PASS and XFAIL passing, FAIL,
# UNRESOLVED and UNDEFINED failing, but where /mnt/host/expected names
# the case, the result it gives and why: then it is skipped, with why.
# With the markers' cases, checkbashisms also checks them, and the
# selftest the series adds, on their own.
set -u
kdir=$1
suite=$2
ft=$kdir/tools/testing/selftests/ftrace
# The stock suite's "Meta-selftest: Checkbashisms" case reads scripts and
# no kernel: it runs on the host, natively (tests/events/60-ftracetest.sh),
# and not here, where it took 97 s of TCG time.
case $suite in
stock) dir=$ft/test.d; not_here=$dir/selftest/bashisms.tc ;;
markers) dir=/mnt/host/markers; not_here= ;;
*) echo "usage: ftracetest.sh KERNEL-TREE stock|markers" >&2; exit 2 ;;
esac
cases=$(find "$dir" -name '*.tc' | grep -vxF "${not_here:-/}" | sort)
runs=0
for tc in $cases; do
	runs=$((runs + 1))
	! grep -q '^#[ \t]*flags:.*instance' "$tc" || runs=$((runs + 1))
done
extra=1
[ "$suite" = stock ] || extra=2
echo "1..$((runs + extra))"
# loopback, for the cases that ping 127.0.0.1 (a machine has it up)
ip link set lo up
export MARKERS_TEST_MODULES=/mnt/host/modules
start=$(date +%s)
# As it runs, so that a guest stopped at its time limit shows the case
# it was in
# shellcheck disable=SC2086 # one case per word
(cd "$ft" && ./ftracetest -v -l /tmp/ftracetest-logs $cases) 2>&1 | tee /tmp/ftracetest.out | sed 's/^/# /'
status=${PIPESTATUS[0]}
echo "# ftracetest exited $status after $(($(date +%s) - start)) s (time under TCG)"
# One KTAP result per "[N] description<TAB>[RESULT]" line
awk -F'\t' -v expected=/mnt/host/expected '
	BEGIN {
		while ((getline line < expected) > 0)
			if (line !~ /^#/ && split(line, f, "\t") == 3) { want[f[1]] = f[2]; why[f[1]] = f[3] }
	}
	/^\[[0-9]+\].*\t\[[A-Z]+\]$/ {
		desc = $1; sub(/^\[[0-9]+\] */, "", desc); gsub(/  +/, " ", desc)
		res = $NF; gsub(/[][]/, "", res)
		plain = desc; sub(/^\(instance\) */, "", plain)
		n++
		if (res == "PASS" || res == "XFAIL") print "ok " n " - " desc
		else if (res == "UNTESTED") print "ok " n " - " desc " # SKIP untested"
		else if ((plain in want) && res == want[plain]) print "ok " n " - " desc " # SKIP " res ": " why[plain]
		else if (plain in want) print "not ok " n " - " desc ": " res ", where tests/ftrace/expected says " want[plain]
		else print "not ok " n " - " desc ": " res
	}
	END { print "# " n + 0 " cases reported" > "/tmp/ftracetest.count" }' /tmp/ftracetest.out
if [ "$suite" = markers ]; then
	own=$(find /mnt/host/markers -name '*.tc'; echo "$ft/test.d/trigger/inter-event/trigger-hist-var-module.tc")
	# shellcheck disable=SC2086 # one file per word
	if checkbashisms $own >/tmp/bashisms 2>&1; then
		echo "ok $((runs + 2)) - checkbashisms finds nothing in the markers' cases and the series' selftest"
	else
		sed 's/^/# /' /tmp/bashisms
		echo "not ok $((runs + 2)) - checkbashisms finds bashisms in the markers' cases or the series' selftest"
	fi
fi
reported=$(sed -n 's/^# \([0-9]*\) cases reported$/\1/p' /tmp/ftracetest.count)
if [ "$reported" = "$runs" ]; then
	echo "ok $((runs + 1)) - ftracetest reported every one of the $runs case runs"
else
	echo "not ok $((runs + 1)) - ftracetest reported $reported of the $runs case runs"
fi
