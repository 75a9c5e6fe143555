#!/bin/bash
# The SystemTap scripts when things go wrong (issue 11):
#   - @marker_args gives the marker's own arguments also in probes that
#     read $argN (the acme.* aliases), numbers and strings; where it
#     cannot work it is a compile-time error, and so is the old
#     marker_args() function that read past the arguments;
#   - a session stopped by an error (here a full array, forced with -E)
#     still prints each script's report or summary;
#   - acme-latency's periodic report under a 4-thread load: in order,
#     cumulative, no skipped probe, no abort;
#   - acme-top with more processes than SystemTap's default map size;
#   - a --setup command that fails stops the run, with its output;
#   - the acme tapset refuses, at compile time, a drop whose marker format
#     it does not know (a copy of the kernel tree whose Module.markers
#     says so).
# shellcheck disable=SC2016 # SystemTap's $argN and eval take single quotes
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

run=$project_dir/stap-scripts/run
scripts=$project_dir/stap-scripts
# shellcheck source=stap-scripts/examples/stall-fault.sh
. "$project_dir/stap-scripts/examples/stall-fault.sh"

# runs NAME EXPECTED-STATUS [run args...]: stdout+stderr to $scratch/NAME.out
runs() {
	local name=$1 want=$2 status=0
	shift 2
	"$run" "$@" >"$scratch/$name.out" 2>&1 || status=$?
	check "$name: exit $status (want $want)" [ "$status" = "$want" ]
	[ "$status" = "$want" ] || tail -n 30 "$scratch/$name.out" | sed 's/^/# /'
}

# --- 1. @marker_args --------------------------------------------------
runs marker-args 0 -e '
probe acme.cmd.submit { printf("submit %d|%s\n", id, @marker_args) }
probe acme.fw.state { printf("state %s|%s\n", new_state, @marker_args) }
probe kernel.mark("acme_cmd_complete") { printf("complete %d|%s\n", $arg1, @marker_args) }
probe kernel.mark("module_load") { printf("load %s\n", @marker_args) }' -- \
	'acmectl run --count 3 --opcodes write --sizes 4096; rmmod acme_xa; modprobe acme_xa'
o=$scratch/marker-args.out
sed 's/^/# /' "$o" | head -n 20
check "@marker_args in acme.cmd.submit (reads \$arg1..4): id 1 opcode 2 len 4096 depth 1" \
	grep -qx 'submit 1|id 1 opcode 2 len 4096 depth 1' "$o"
check "@marker_args in acme.cmd.submit: the 3rd command's own arguments" \
	grep -Eqx 'submit 3\|id 3 opcode 2 len 4096 depth [1-3]' "$o"
check "@marker_args in acme.fw.state (%s arguments): old ready new busy reason work" \
	grep -qx 'state busy|old ready new busy reason work' "$o"
check "@marker_args with \$arg1 in a raw kernel.mark() probe: %u %d %llu" \
	grep -Eqx 'complete 1\|id 1 status 0 latency_ns [1-9][0-9]*' "$o"
check "@marker_args of a core marker: %s and %#lx (taints 0x1001: P+O)" \
	grep -qx 'load name acme_xa taints 0x1001' "$o"
for wrong in 'probe begin { print(@marker_args) }|unresolved target-symbol expression: identifier .\$format.' \
	'probe acme.cmd.submit { print(marker_args()) }|unresolved function marker_args'; do
	status=0
	"$run" -e "${wrong%%|*}" -- true >"$scratch/wrong.out" 2>&1 || status=$?
	check "'${wrong%%|*}': a compile-time error (exit $status): ${wrong#*|}" \
		eval '[ "$status" = 3 ] && grep -Eq "${wrong#*|}" "$scratch/wrong.out"'
done

# A --setup that fails stops the run before the script, saying so
runs setup-fails 4 --setup 'echo preparing; false' -e 'probe begin { println("started") exit() }' -- true
check "a failing --setup: named, its output shown, the script not started" \
	sh -c 'grep -q "run: --setup failed: echo preparing; false" "$1" && grep -qx preparing "$1" && ! grep -qx started "$1"' \
	- "$scratch/setup-fails.out"

# --- 2. a session that dies of an error still reports ------------------
# A 9th submit overflows an 8-entry array: SystemTap stops the session,
# end probes do not run, error probes do.
abort=(-E 'global issue11_fill[8] probe acme.cmd.submit { issue11_fill[id] = 1 }')
# shellcheck disable=SC2034 # used in the eval'd checks
overflow='ERROR: Array overflow, check size limit \(8\)'
runs abort-errors 1 --params "$stall" "$scripts/acme-errors.stp" "${abort[@]}" -- 'acmectl run --count 300'
check "acme-errors aborted by the overflow prints its summary" \
	eval 'grep -Eq "$overflow" "$scratch/abort-errors.out" &&
		grep -qx -- "--- acme errors summary ---" "$scratch/abort-errors.out" &&
		grep -qx -- "--- end of summary ---" "$scratch/abort-errors.out"'
runs abort-bugreport 1 --params "$stall" "$scripts/acme-bugreport.stp" "${abort[@]}" -- 'acmectl run --count 300'
check "acme-bugreport aborted by the overflow prints the report at exit" \
	eval 'grep -Eq "$overflow" "$scratch/abort-bugreport.out" &&
		grep -Eq "^trigger: exit id=- cpu=- at [0-9.]+ s$" "$scratch/abort-bugreport.out" &&
		grep -qx "=== end of report ===" "$scratch/abort-bugreport.out"'
check "... with the 9 submits recorded before it" \
	grep -qx 'submitted 9' "$scratch/abort-bugreport.out"
runs abort-latency 1 "$scripts/acme-latency.stp" "${abort[@]}" -- 'acmectl run --count 300'
check "acme-latency aborted by the overflow prints its report" \
	eval 'grep -Eq "$overflow" "$scratch/abort-latency.out" &&
		grep -q "^acme command latency (ns), at exit" "$scratch/abort-latency.out"'
runs abort-top 1 "$scripts/acme-top.stp" "${abort[@]}" -- 'acmectl run --count 300'
check "acme-top aborted by the overflow prints the totals" \
	eval 'grep -Eq "$overflow" "$scratch/abort-top.out" &&
		grep -Eq "^all processes +[0-9]+ " "$scratch/abort-top.out"'
runs abort-markers-all 1 "$scripts/markers-all.stp" "${abort[@]}" -- 'acmectl run --count 300'
check "markers-all aborted by the overflow prints the markers that fired" \
	eval 'grep -Eq "$overflow" "$scratch/abort-markers-all.out" &&
		grep -Eq "^acme_xa +[0-9]+  acme_cmd_submit " "$scratch/abort-markers-all.out"'

# --- 3. acme-latency -G interval=1 on a busy device --------------------
runs latency-busy 0 "$scripts/acme-latency.stp" -G interval=1 -- \
	'acmectl run --count 4000 --threads 4 --sizes 512,4096,65536,262144 >/dev/null; sleep 2.5'
o=$scratch/latency-busy.out
grep -E '^acme command latency|ERROR|WARNING' "$o" | sed 's/^/# /'
check "acme-latency busy: no error, no skipped probe" lacks 'ERROR\|WARNING' "$o"
# What the periodic report guarantees, not how far apart the reports are:
# they come in order, the at-exit one last; the counts are cumulative (an
# opcode's never goes down); the workload's last 2.5 s are a sleep, two
# ticks of the 1 s timer at least, so a periodic report comes after the
# load and counts its 4000 commands.
# periodic_reports FILE: prints what is wrong, fails if anything is
periodic_reports() {
	awk '
		/^acme command latency \(ns\), (periodic|at exit), / {
			if (at_exit) bad = bad " a report after the one at exit;"
			t = $0
			sub(/ s after the start.*/, "", t)
			sub(/.*, /, "", t)
			if (n && t + 0 <= last) bad = bad " report " n + 1 " not after report " n ";"
			last = t + 0
			n++
			if ($5 == "periodic,") periodic++; else at_exit = 1
			next
		}
		/^(read|write|crypt) +[0-9]/ {
			if ($2 + 0 < count[$1]) bad = bad " the " $1 " count went down in report " n ";"
			count[$1] = $2 + 0
			if (!at_exit) sum[periodic] += $2
		}
		END {
			if (periodic < 2) bad = bad " " periodic + 0 " periodic reports;"
			else if (sum[periodic] != 4000) bad = bad " the last periodic report counts " sum[periodic] + 0 ";"
			if (!at_exit) bad = bad " no report at exit;"
			if (bad != "") print "periodic reports:" bad
			exit bad != ""
		}' "$1"
}
check "acme-latency busy: periodic reports in order, cumulative, the last after the load counting its 4000 commands ($(grep -c '^acme command latency (ns), periodic' "$o" || true) periodic)" \
	periodic_reports "$o"
check "acme-latency busy: the report at exit counts the 4000 commands" \
	eval '[ "$(awk "/at exit/ { e = 1 } e && /^(read|write|crypt) / { n += \$2 } END { print n + 0 }" "$o")" = 4000 ]'

# --- 4. acme-top with more processes than the default map size (2048) ---
runs top-many 0 "$scripts/acme-top.stp" -G interval=5 -- \
	'for i in $(seq 2200); do acmectl run --count 1 --sizes 512 >/dev/null || exit 1; done'
o=$scratch/top-many.out
tail -n 4 "$o" | sed 's/^/# /'
check "acme-top with 2200 processes: no error" lacks 'ERROR' "$o"
check "acme-top with 2200 processes: exact totals, 2200 commands" \
	grep -Eq '^all processes +2200 +1100 +0$' "$o"

# --- 6. a drop with another format fails to compile ---------------------
# A kernel tree whose Module.markers gives acme_cmd_submit a new first
# argument: $arg2 would be it, not the opcode.
fake=$project_dir/build/issue11-tree.$$
mkdir -p "$fake"
trap 'rm -rf "$scratch" "$fake"' EXIT
for f in "$kbuild"/* "$kbuild"/.config; do ln -s "$f" "$fake/${f##*/}"; done
rm "$fake/Module.markers"
sed 's/^\(acme_cmd_submit\t[^\t]*\t\)id %u /\1id %u flags %u /' "$kbuild/Module.markers" >"$fake/Module.markers"
check "the fake tree's acme_cmd_submit has the new format" \
	grep -qP '^acme_cmd_submit\t.*\tid %u flags %u opcode %u len %u depth %u$' "$fake/Module.markers"
status=0
(cd "$scratch" && "$vm" chroot -- stap -r "$fake" -p2 -I "$project_dir/stap-scripts/tapset" \
	-e 'probe acme.cmd.submit { printf("%d\n", opcode) }') >"$scratch/format.out" 2>&1 || status=$?
grep -E 'error|identifier' "$scratch/format.out" | head -n 4 | sed 's/^/# /'
check "acme.cmd.submit against an unknown format: a compile-time error (exit $status)" \
	eval '[ "$status" != 0 ] && grep -q "unresolved function.*_acme_xa_marker_format_unknown__acme_cmd_submit" "$scratch/format.out"'
status=0
(cd "$scratch" && "$vm" chroot -- stap -r "$kbuild" -p2 -I "$project_dir/stap-scripts/tapset" \
	-e 'probe acme.cmd.submit { printf("%d\n", opcode) }') >"$scratch/format-ok.out" 2>&1 || status=$?
check "... and against the drop's own format it compiles (exit $status)" [ "$status" = 0 ]
finish
