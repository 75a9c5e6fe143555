#!/bin/bash
# The kernel's own ftrace selftests (tools/testing/selftests/ftrace of the
# tree we boot: ftracetest, every case of test.d, with the one the series
# adds) in the guest, with the Acme driver installed. The guest checks the
# results itself and prints KTAP (tests/events/guest/ftracetest.sh); a
# case that does not pass is skipped only where tests/ftrace/expected says
# what it reports and why. Any kernel report fails it. The markers' own
# cases run in tests/events/61-markers-ftracetest.sh. The suite's
# "Meta-selftest: Checkbashisms" case reads scripts, not the kernel: it
# runs here on the host, natively, with what it finds checked against
# tests/ftrace/bashisms.
# The suite took 762 s alone in a guest of the main kernel (time under
# TCG), and more than 2100 s beside another guest on the debug kernel
# (KASAN, lockdep), where a case runs several times slower: the guest's
# time limit is the flavour's.
# timeout: 9000
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

share=$scratch/share
mkdir -p "$share"
cp tests/ftrace/expected "$share/expected"

# "Meta-selftest: Checkbashisms", as test.d/selftest/bashisms.tc runs it:
# ftracetest, test.d/functions and every case, with the build root's
# checkbashisms (the guest's)
ft=$kbuild/tools/testing/selftests/ftrace
mapfile -t scripts < <(echo "$ft/ftracetest"; echo "$ft/test.d/functions"; find "$ft/test.d" -name '*.tc' | sort)
build/root/usr/bin/checkbashisms "${scripts[@]}" >"$scratch/bashisms" 2>&1 || true
sed 's/^/# /' "$scratch/bashisms"
found=$(sed -n "s|^possible bashism in $ft/\(.*\) line [0-9]* .*|\1|p" "$scratch/bashisms" | sort -u)
known=$(grep -v '^#' tests/ftrace/bashisms | cut -f1 | sort -u)
unreadable=$(grep -c '^cannot open' "$scratch/bashisms" || true)
check "checkbashisms read the ${#scripts[@]} scripts of the ftrace selftests, as test.d/selftest/bashisms.tc does, on the host ($unreadable unreadable)" \
	test "$(("${#scripts[@]}" > 50 && unreadable == 0))" = 1
for file in $(comm -23 <(echo "$found") <(echo "$known")); do
	not_ok "checkbashisms finds a bashism in $file, which tests/ftrace/bashisms does not list"
done
for file in $known; do
	check "checkbashisms finds in $file what tests/ftrace/bashisms says ($(grep -F "$file" tests/ftrace/bashisms | cut -f2))" \
		grep -qxF "$file" <<<"$found"
done

guest_timeout=2100
[ "${KM_FLAVOUR:-main}" = main ] || guest_timeout=8400
guest_status=0
"$vm" run --share "$share" --timeout "$guest_timeout" -- bash -c "$(guest_half ftracetest)" ftracetest "$kbuild" stock \
	>"$scratch/out" 2>&1 || guest_status=$?
guest_ktap "$scratch/out"
check "the guest ran ftracetest to the end, with no kernel report (exit $guest_status)" [ "$guest_status" = 0 ]
finish
