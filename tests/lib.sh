# Helpers for test scripts. Source it; it sets -eu and cds to the checkout.
# shellcheck shell=bash
set -eu
# The test's own directory, where its guest halves live (guest/NAME.sh)
test_dir=$(cd "$(dirname "$0")" && pwd)
cd "$test_dir/../.."
project_dir=$PWD
# shellcheck disable=SC2034 # for the tests that source this
vm=$project_dir/guest-image/vm
# KM_FLAVOUR=debug (make check-debug) runs the same tests on the debug
# kernel: its tree, its guest image and the test modules built for it.
case ${KM_FLAVOUR:-main} in
main) flavour_suffix= ;;
debug) flavour_suffix=-debug ;;
*) echo "not ok - KM_FLAVOUR must be main or debug, not '$KM_FLAVOUR'"; exit 1 ;;
esac
# (no build/ yet: the host tests that need no kernel still run)
kbuild=$(readlink -f "build/linux$flavour_suffix") || kbuild=$project_dir/build/linux$flavour_suffix
# shellcheck disable=SC2034 # for the tests that source this
mods=$project_dir/build/test-modules$flavour_suffix
export VM_KBUILD=$kbuild VM_IMAGE=$project_dir/build/guest$flavour_suffix.img
if [ -n "$flavour_suffix" ]; then
	# Under KASAN and lockdep, TCG runs the ACPI interpreter so slowly
	# that the PCI routing method (_PRT) hits its 30 s loop timeout, four
	# times per boot (measured: 2 of a boot's 3.5 minutes); the BIOS's
	# routing table does the same job.
	export VM_APPEND="${VM_APPEND:+$VM_APPEND }pci=noacpi"
	# KASAN clears its shadow and kmemleak scans the struct pages in
	# proportion to memory: 1 GiB boots in half the time of 2 GiB
	export VM_MEM=${VM_MEM:-1024}
fi
# shellcheck disable=SC2034
release=$(cat "$kbuild/include/config/kernel.release" 2>/dev/null || echo unknown)

# die MESSAGE: stop the test script, reporting why.
die() {
	echo "not ok - $*"
	exit 1
}

# ok, not_ok, skip, check: the result lines (tests/ktap.sh)
# shellcheck source=tests/ktap.sh
. tests/ktap.sh
# figure TEXT: a figure of the run (cycles done, events expected and
# counted, faults injected), which tests/run passes on to the summary.
figure() { echo "# figure: $*"; }

# Exit with the number of failures reported (capped), for the runner. A
# test whose guests ran is also a check that the kernel reported nothing
# (BUG, WARNING, Oops, lockdep, KASAN, kmemleak: guest-image/vm writes a
# line per run to VM_REPORT_LOG, "run status=S report=R lockdep=L ..."),
# whether or not the test looked at the exit status of those runs. The
# runs' tally goes out as one line for the runner and check-debug:
#   # guest-runs: runs=N reports=N lockdep-on=N lockdep-off=N
finish() {
	local runs reports lockdep_on lockdep_off
	if [ -s "$VM_REPORT_LOG" ]; then
		read -r runs reports lockdep_on lockdep_off < <(awk '
			$1 == "run" { runs++ }
			$1 == "run" && $3 != "report=none" { reports++ }
			$1 == "run" && $4 == "lockdep=1" { on++ }
			$1 == "run" && $4 == "lockdep=0" { off++ }
			END { print runs + 0, reports + 0, on + 0, off + 0 }' "$VM_REPORT_LOG")
		echo "# guest-runs: runs=$runs reports=$reports lockdep-on=$lockdep_on lockdep-off=$lockdep_off"
		if [ "$reports" = 0 ]; then
			[ $((lockdep_on + lockdep_off)) = 0 ] ||
				figure "lockdep still on at the end of $lockdep_on of $runs guest runs (off in $lockdep_off: a proprietary or force-loaded module's taint turns it off)"
			ok "the kernel reported no problem in this test's $runs guest run(s)"
		else
			sed 's/^/# /' "$VM_REPORT_LOG"
			not_ok "the kernel reported a problem in $reports of this test's $runs guest run(s)"
		fi
	fi
	exit $((ktap_failed > 100 ? 100 : ktap_failed))
}

# guest_half NAME...: the text of this test's guest half: the result
# helpers of tests/ktap.sh, then the scripts guest/NAME.sh beside the test
# in that order (files of their own, which shellcheck reads). Run it as:
#   "$vm" run ... -- bash -c "$(guest_half NAME)" NAME ARGS...
guest_half() {
	local name file
	cat "$project_dir/tests/ktap.sh"
	for name; do
		file=$test_dir/guest/$name.sh
		[ -r "$file" ] || die "the guest half $file is missing"
		cat "$file"
	done
}

# guest_ktap FILE: pass on the results of a guest half that checks itself,
# and its other lines as comments (so a line "figure: ..." is one of the
# test's figures)
# and prints KTAP with its plan first ("1..N", then N results, "ok [N] -
# ..." or "not ok [N] - ..."), as results of this test, and fail if there is no
# plan before the first result or the results do not match it (a guest
# that died half-way, a case that reported twice).
guest_ktap() {
	local file=$1 plan results
	# Its other lines (diagnostics, what it ran) as comments
	grep -vE '^(not )?ok( [0-9]+)?( |$)|^1\.\.[0-9]+$' "$file" | sed 's/^/# /' || true
	plan=$(grep -m1 -E '^(1\.\.[0-9]+|(not )?ok( |$))' "$file" | sed -n 's/^1\.\.//p')
	results=$(grep -cE '^(not )?ok( [0-9]+)?( |$)' "$file" || true)
	while IFS= read -r line; do
		case $line in
		"not ok - "*) not_ok "${line#not ok - }" ;;
		*" # SKIP "*) line=${line#ok - } && skip "${line%% # SKIP *}" "${line#* # SKIP }" ;;
		*) ok "${line#ok - }" ;;
		esac
	done < <(grep -E '^(not )?ok( [0-9]+)?( |$)' "$file" | sed -E 's/^(not )?ok( [0-9]+)? ?(- )?/\1ok - /')
	if [ -z "$plan" ]; then
		not_ok "the guest printed its plan before its results ($results results, no plan)"
	else
		check "the guest's $results results are its plan of $plan" [ "$results" = "$plan" ]
	fi
}

# The scratch directory of a test, removed at exit.
scratch=$(mktemp -d /tmp/markers-test.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
export VM_REPORT_LOG=$scratch/vm-runs

# stap_mark_line NAME FORMAT: the line stap -L prints for marker NAME: its
# format, $name and $format, then an $argN per conversion of the format,
# typed as SystemTap types them: %s a string, any other conversion a long
# (%% none).
stap_mark_line() {
	local line rest=$2 conv n=0
	line="kernel.mark(\"$1\").format(\"$2\") \$name:string \$format:string"
	while [[ $rest =~ %[-+\ #0]*[0-9*]*(\.[0-9*]+)?(hh|h|ll|l|L|q|j|z|Z|t)?([a-zA-Z%]) ]]; do
		conv=${BASH_REMATCH[3]}
		rest=${rest#*"${BASH_REMATCH[0]}"}
		[ "$conv" != % ] || continue
		n=$((n + 1))
		if [ "$conv" = s ]; then line+=" \$arg$n:string"; else line+=" \$arg$n:long"; fi
	done
	printf '%s\n' "$line"
}
# same_count A B: A is a number and B is the same one (two lookups that
# both found nothing are not the same count)
same_count() { [[ $1 =~ ^[0-9]+$ ]] && [ "$1" = "$2" ]; }
# same_positive_count A B: the same, and more than 0: for two counts of
# one list, where 0 = 0 would mean that both lookups missed
same_positive_count() { [[ $1 =~ ^[1-9][0-9]*$ ]] && [ "$1" = "$2" ]; }
