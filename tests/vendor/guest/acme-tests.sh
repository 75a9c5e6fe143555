#!/bin/bash
# The guest half of tests/vendor/20-guest.sh (run there as
# bash -c "$(guest_half acme-tests)" acme-tests): runs as root in a fresh
# QEMU guest, with the drop and the test helpers in $DIR (/mnt/host).
# Prints KTAP: its plan first (the results each part gives when it
# passes, from the environment and what this kernel has), then one result
# per check (ok, not_ok: tests/ktap.sh, which guest_half puts in front of
# this text); ends with "# N passed, N failed".
#
# Environment (set by tests/vendor/20-guest.sh):
#   EXPECT_TAINT   /proc/sys/kernel/tainted once acme_xa is loaded (4097: P+O)
#   FORCED         1: also test acme_xa_forced.ko (insmod -f)
#   QUICK          1: skip the slow parts (fault determinism runs)
#   INSTALLED      1: the image has the drop installed; load it with modprobe
#   BAD_INPUT_CASES  the cases of acme-bad-input (6.1's harness cannot list them)
#
# "A && ok ... || not_ok ..." is safe here (ok never fails); the insmod
# cycles' inner script expands its own variables.
# shellcheck disable=SC2015,SC2016
set -u
DIR=${DIR:-/mnt/host}
KO=$DIR/acme_xa.ko
CTL=$DIR/acmectl
EXPECT_TAINT=${EXPECT_TAINT:-4097}
FORCED=${FORCED:-1}
QUICK=${QUICK:-0}
INSTALLED=${INSTALLED:-0}
BAD_INPUT_CASES=${BAD_INPUT_CASES:?the number of acme-bad-input cases}
LOG=/sys/kernel/debug/acme_probe/log
TMP=$(mktemp -d)

# The plan: each part's results when it passes, in the order below. A part
# that fails early may give fewer; the plan not met is then one more
# failure, never a pass.
plan=0
# planned N [CMD...]: N results more, if CMD (a test) holds or is not given
planned() {
	local n=$1
	shift
	if [ $# = 0 ] || "$@"; then plan=$((plan + n)); fi
}
planned 3 [ "$INSTALLED" = 1 ]                  # modprobe, the drop's module, its acmectl
planned 1 [ "$INSTALLED" != 1 ]                 # insmod
planned 6                                       # taint, device, markers listed, connectable, info
planned 6                                       # workloads and acmectl's exit codes
planned 1 [ -r /proc/lockdep ]                  # lockdep knows the driver's locks
planned $((2 * (BAD_INPUT_CASES + 1) + 1 + 2))  # bad input, 64- and 32-bit; stats; acmectl32
planned $((1 + 4 + 4 + 14 + 4))                 # reset, unload busy, cycles, parameters, markers
planned 5 [ "$QUICK" != 1 ]                     # deterministic faults
planned $((2 + 3))                              # killed run, failed state
planned 3 [ $((EXPECT_TAINT & 1)) = 1 ]         # the policy
planned 1 [ $((EXPECT_TAINT & 1)) = 0 ]         # ... skipped: not proprietary
planned 7 [ "$FORCED" = 1 ]                     # the force-loaded twin
planned 1 [ -w /sys/kernel/debug/kmemleak ]     # kmemleak
planned 1                                       # rmmod acme_probe
planned 1 [ -r /proc/lockdep_stats ]            # lockdep still on
echo "1..$plan"

# check DESCRIPTION CMD...: ok when CMD succeeds; CMD's output is shown
# only when it fails (the ktap.sh check lets it through)
check() {
	local d=$1
	shift
	if "$@" >"$TMP/out" 2>&1; then ok "$d"; else
		not_ok "$d"
		sed 's/^/#   /' "$TMP/out" | tail -n 20
	fi
}
loaded() { grep -q '^acme_xa ' /proc/modules; }
unload() { ! loaded || rmmod acme_xa; }
kv() { sed -n "s/^$1=//p" "$2"; } # kv KEY FILE
clear_log() { echo clear >"$LOG"; }
# The fault events of the probe log, without what depends on timing: the
# waits, the latencies, and whether the firmware was idle when it stalled
events() {
	grep -E '^acme_(fw_stall|cmd_timeout|cmd_retry|reset|cmd_error|rejected) |^acme_cmd_complete .* status -|^acme_fw_state .*(stalled|resetting|failed)' "$LOG" |
		sed -E -e 's/waited_ms [0-9]+/waited_ms N/' -e 's/latency_ns [0-9]+/latency_ns N/' \
			-e 's/old (busy|ready) new stalled/old busy-or-ready new stalled/'
}

echo "# kernel $(uname -r), $(nproc) CPUs"
# The names of the lock classes, one per class (so with repeats): a line is
# "KEY [OPS: n] [FD: n BD: n USAGE]: NAME", OPS only with DEBUG_LOCKDEP
lockdep_names() { sed -En 's/^[0-9a-f]+( [A-Z]+: *[0-9]+)* ?[-+.?]*: //p' /proc/lockdep | sort; }
[ ! -r /proc/lockdep ] || lockdep_names >"$TMP/classes.before"

# --- load, taint, markers ---------------------------------------------
if [ "$INSTALLED" = 1 ]; then
	# The image has the drop installed: modprobe finds it, and it is the
	# very binary of this drop
	check "modprobe acme_xa (the drop installed in the image)" modprobe acme_xa
	installed=$(modinfo -n acme_xa 2>/dev/null || echo none)
	if [ -r "$installed" ] && cmp -s "$installed" "$KO"; then ok "modinfo -n acme_xa: $installed, the drop's binary"; else
		not_ok "installed module '$installed' is not the drop's acme_xa.ko"
	fi
	command -v acmectl >/dev/null && cmp -s "$(command -v acmectl)" "$CTL" &&
		ok "acmectl of the drop on PATH: $(command -v acmectl)" || not_ok "acmectl on PATH: '$(command -v acmectl)'"
else
	check "insmod acme_xa.ko" insmod "$KO"
fi
taint=$(cat /proc/sys/kernel/tainted)
if [ "$taint" = "$EXPECT_TAINT" ]; then ok "tainted is $taint"; else not_ok "tainted is $taint, expected $EXPECT_TAINT"; fi
check "/dev/acme_xa0 is a character device" test -c /dev/acme_xa0
grep -P '^acme_[a-z_]+\tacme_xa\t' /sys/kernel/debug/markers/list >"$TMP/list"
cut -f1,2,3 "$TMP/list" | sort >"$TMP/list.sorted"
sort "$DIR/Module.markers" >"$TMP/expected" 2>/dev/null || true
if [ -s "$TMP/expected" ] && cmp -s "$TMP/list.sorted" "$TMP/expected"; then
	ok "the markers list has the $(wc -l <"$TMP/list") markers of Module.markers"
else
	not_ok "the markers list differs from Module.markers"
	diff "$TMP/list.sorted" "$TMP/expected" | sed 's/^/#   /'
fi
if [ "$(cut -f4 "$TMP/list" | sort -u)" = off ]; then ok "all of them connectable (off)"; else not_ok "marker states: $(cut -f4 "$TMP/list" | sort -u | tr '\n' ' ')"; fi
check "acmectl info" "$CTL" info
grep -q '^driver_version=1.4.2$' "$TMP/out" && grep -q '^fw_state=ready$' "$TMP/out" &&
	ok "info: driver 1.4.2, firmware ready" || not_ok "info: $(tr '\n' ' ' <"$TMP/out")"

# --- workloads --------------------------------------------------------
if "$CTL" run --count 2000 --opcodes read,write,crypt --sizes 512,4096,65536 --threads 4 --seed 7 >"$TMP/run" 2>&1; then
	ok "run 2000 commands, 4 threads: $(kv completed "$TMP/run") completed, latency min/avg/max $(kv latency_min_ns "$TMP/run")/$(kv latency_avg_ns "$TMP/run")/$(kv latency_max_ns "$TMP/run") ns, $(kv elapsed_ms "$TMP/run") ms"
else
	not_ok "run 2000 commands, 4 threads"; sed 's/^/#   /' "$TMP/run"
fi
if "$CTL" run --count 500 --threads 2 --window 200 --nonblock --sizes 1048576 --opcodes crypt >"$TMP/run" 2>&1; then
	ok "run 500 x 1 MiB crypt, O_NONBLOCK, window 200: EAGAIN $(kv ring_full_eagain "$TMP/run") times, all completed"
else
	not_ok "run with O_NONBLOCK back-pressure"; sed 's/^/#   /' "$TMP/run"
fi
# lockdep, where the kernel has it, knows the driver's locks: the lock
# classes that came with the module (/proc/lockdep hashes the key addresses,
# so compare the names with those before the load)
if [ -r /proc/lockdep ]; then
	lockdep_names >"$TMP/classes.after"
	classes=$(comm -13 "$TMP/classes.before" "$TMP/classes.after" | tr '\n' ' ')
	echo "$classes" | grep -q '&dev->lock' && echo "$classes" | grep -q '&af->wq' &&
		ok "lockdep tracks the driver's locks (new classes: $classes)" || not_ok "lockdep: new lock classes: '$classes'"
fi
"$CTL" run --count 5 --threads 1 >/dev/null; rc=$?
[ $rc = 0 ] && ok "run exits 0 when all complete" || not_ok "run exit $rc"
"$CTL" run --threads 1 >/dev/null 2>&1; rc=$?
[ $rc = 2 ] && ok "run without --count: usage error, exit 2" || not_ok "run without --count: exit $rc"
"$CTL" frobnicate >/dev/null 2>&1; rc=$?
[ $rc = 2 ] && ok "unknown command: exit 2" || not_ok "unknown command: exit $rc"
"$CTL" --device /dev/nonexistent stats >/dev/null 2>&1; rc=$?
[ $rc = 1 ] && ok "missing device: exit 1" || not_ok "missing device: exit $rc"

# --- bad input --------------------------------------------------------
# bad_input PROGRAM: run the kselftest acme-bad-input (tests/vendor/selftest)
# and report each of its cases ("ok N acme.NAME" in its KTAP) as a check
# here, a failed one with its log; then one check that it ran to its end:
# as many results as its plan, exit 0 exactly when all passed.
bad_input() {
	local prog=$1 name line plan="" results=0 failed=0 status=0
	name=$(basename "$prog")
	if [ ! -x "$prog" ]; then
		not_ok "$name: missing from $(dirname "$prog")"
		return
	fi
	"$prog" >"$TMP/bad" 2>&1 || status=$?
	: >"$TMP/bad.case"
	while IFS= read -r line; do
		if [[ $line =~ ^1\.\.([0-9]+)$ ]]; then
			plan=${BASH_REMATCH[1]}
		elif [[ $line =~ ^(not )?ok\ [0-9]+\ (.*)$ ]]; then
			results=$((results + 1))
			if [ -z "${BASH_REMATCH[1]}" ]; then ok "$name: ${BASH_REMATCH[2]}"; else
				failed=$((failed + 1))
				not_ok "$name: ${BASH_REMATCH[2]}"
				sed 's/^/#   /' "$TMP/bad.case"
			fi
			: >"$TMP/bad.case"
		else
			printf '%s\n' "$line" >>"$TMP/bad.case"
		fi
	done <"$TMP/bad"
	# its exit status agrees with its results: 0 when none failed, else not
	local agrees=0
	if [ "$failed" = 0 ]; then [ "$status" != 0 ] || agrees=1; else [ "$status" = 0 ] || agrees=1; fi
	if [ -n "$plan" ] && [ "$results" = "$plan" ] && [ "$agrees" = 1 ]; then
		ok "$name ran to its end: $results of 1..$plan cases, $failed failed, exit $status"
	else
		not_ok "$name did not run to its end: $results results of plan '${plan:-none}', $failed failed, exit $status"
		tail -n 20 "$TMP/bad" | sed 's/^/#   /'
	fi
}
bad_input "$DIR/acme-bad-input"
"$CTL" stats >"$TMP/stats"
[ "$(kv in_flight "$TMP/stats")" = 0 ] && [ "$(kv fw_state "$TMP/stats")" = ready ] && [ "$(kv errors "$TMP/stats")" = 0 ] &&
	ok "after all that: in_flight 0, ready, no errors (rejected $(kv rejected "$TMP/stats"), cancelled $(kv cancelled "$TMP/stats"))" ||
	not_ok "stats after acme-bad-input: $(tr '\n' ' ' <"$TMP/stats")"

# 32-bit callers (compat_ioctl)
if [ ! -x "$DIR/acmectl32" ]; then
	not_ok "no 32-bit acmectl: the compat_ioctl path is untested (make acmectl32 needs gcc-multilib)"
else
	check "32-bit acmectl: run 300 commands" "$DIR/acmectl32" run --count 300 --threads 2
	check "32-bit acmectl: stats and info" bash -c "'$DIR/acmectl32' stats && '$DIR/acmectl32' info"
fi
# the bad input from a 32-bit caller
bad_input "$DIR/acme-bad-input32"

# --- reset under load -------------------------------------------------
# 3000 x 64 KiB crypt: ~1.2 s of firmware time
"$CTL" run --count 3000 --threads 2 --opcodes crypt --sizes 65536 >"$TMP/run" 2>&1 &
runpid=$!
resets=0
for _ in 1 2 3 4 5; do sleep 0.2; "$CTL" reset >/dev/null && resets=$((resets + 1)); done
wait $runpid; rc=$?
[ $rc = 0 ] && [ $resets = 5 ] && ok "5 RESETs during a run: the run still completes all 3000 ($(kv completed "$TMP/run"))" ||
	not_ok "RESET under load: run exit $rc, $resets resets ok; $(tr '\n' ' ' <"$TMP/run")"

# --- unloading while busy ---------------------------------------------
exec 3</dev/acme_xa0
if rmmod acme_xa 2>"$TMP/err"; then not_ok "rmmod with the device open succeeded"; else ok "rmmod with the device open refused: $(cat "$TMP/err")"; fi
exec 3<&-
# 1000 x 1 MiB crypt: ~6 s of firmware time, so that a debug kernel's slow
# acmectl stats still sees it busy; rmmod once it is, and only then
"$CTL" run --count 1000 --threads 2 --opcodes crypt --sizes 1048576 >/dev/null 2>&1 &
runpid=$!
busy=no
for _ in $(seq 100); do
	"$CTL" stats >"$TMP/stats" && [ "$(kv in_flight "$TMP/stats")" != 0 ] && busy=yes && break
	sleep 0.1
done
if [ $busy = no ]; then
	not_ok "rmmod during a run: never saw the run busy in 10 s"
elif rmmod acme_xa 2>/dev/null; then
	not_ok "rmmod during a run succeeded"
else
	ok "rmmod during a run refused"
fi
wait $runpid && ok "that run completed" || not_ok "the run during rmmod failed"
"$CTL" submit --count 64 --opcode crypt --size 1048576 >/dev/null
check "rmmod right after closing with 64 x 1 MiB in flight" rmmod acme_xa
# Each cycle leaves 8 commands cancelled in the ring for the unload to free.
# The guest boots with slub_debug=U,kmalloc-*, so SLUB records where each
# live kmalloc object was allocated. An object allocated by the driver
# names acme_xa as its site, or a bare address once that code is gone
# (acme_init after the load, all of it after the unload); none may be left.
# KASAN keeps freed objects in a quarantine, where SLUB still counts them as
# allocated; shrinking a cache hands its quarantined objects back first.
driver_objects() {
	for shrink in /sys/kernel/slab/kmalloc-*/shrink; do echo 1 >"$shrink" 2>/dev/null || true; done
	cat /sys/kernel/debug/slab/kmalloc-*/alloc_traces 2>/dev/null |
		awk '$1 ~ /^[0-9]+$/ && ($2 ~ /^0x/ || /\[acme_xa\]/) { n += $1 } END { print n + 0 }'
}
before=$(driver_objects)
insmod "$KO"
loaded_objects=$(driver_objects)
rmmod acme_xa
[ "$loaded_objects" -gt 0 ] && ok "SLUB tracking sees the loaded driver's objects ($loaded_objects)" ||
	not_ok "SLUB tracking sees no object of the loaded driver: is the guest booted with slub_debug=U,kmalloc-*?"
check "20 insmod/run/rmmod cycles" bash -c '
	for i in $(seq 20); do
		insmod '"$KO"' || exit 1
		'"$CTL"' run --count 20 --threads 2 >/dev/null || { echo "run $i failed"; exit 1; }
		'"$CTL"' submit --count 8 --size 65536 >/dev/null || exit 1
		rmmod acme_xa || exit 1
	done'
after=$(driver_objects)
[ "$before" = 0 ] && [ "$after" = 0 ] && ok "no object allocated by the driver is alive after the unloads (0 before the cycles, 0 after)" ||
	not_ok "objects allocated by the driver still alive: $before before the cycles, $after after"
leftovers=$(
	! grep -q '^acme_xa ' /proc/modules || echo "in /proc/modules"
	[ ! -e /sys/module/acme_xa ] || echo "/sys/module/acme_xa"
	[ ! -e /dev/acme_xa0 ] || echo "/dev/acme_xa0"
	! grep -q "$(printf '\tacme_xa\t')" /sys/kernel/debug/markers/list || echo "markers listed"
)
[ -z "$leftovers" ] && ok "after the cycles: no module, no /sys/module/acme_xa, no device node, no markers listed" ||
	not_ok "left behind: $leftovers"

# --- module parameters ------------------------------------------------
insmod "$DIR/acme_probe.ko" && ok "insmod acme_probe.ko (test helper: logs the markers)" || not_ok "insmod acme_probe.ko"
for p in error_rate=1001 error_rate=-1 error_rate=abc error_rate=99999999999999999999 error_seed=0 \
	stall_after_wraps=1000001 cmd_timeout_ms=0 cmd_timeout_ms=9 cmd_timeout_ms=60001 \
	max_retries=17 reset_after_failures=1001 max_retries=; do
	clear_log
	dmesg -C
	if insmod "$KO" "$p" 2>"$TMP/err"; then
		not_ok "insmod acme_xa $p was accepted"; rmmod acme_xa
		continue
	fi
	name=${p%%=*}
	# kmod's insmod says "Invalid parameters" for EINVAL
	if grep -Eq 'Invalid (argument|parameters)' "$TMP/err" && ! loaded && dmesg | grep -q "acme_xa: parameter $name" &&
		grep -q "^acme_rejected what $name why" "$LOG"; then
		ok "insmod acme_xa $p: EINVAL, '$(dmesg | grep -o "parameter $name.*" | head -n 1)', $(grep "^acme_rejected" "$LOG" | head -n 1)"
	else
		not_ok "insmod acme_xa $p: $(cat "$TMP/err"); dmesg: $(dmesg | grep acme_xa | tail -n 2 | tr '\n' ' '); log: $(head -n 3 "$LOG" | tr '\n' ' ')"
	fi
done
check "insmod acme_xa with every parameter at its limit" insmod "$KO" error_rate=1000 error_seed=18446744073709551615 \
	stall_after_wraps=1000000 cmd_timeout_ms=60000 max_retries=16 reset_after_failures=1000
unload

# --- the markers fire, with their arguments ---------------------------
insmod "$KO"
clear_log
"$CTL" run --count 10 --threads 1 --opcodes write --sizes 4096 >/dev/null
n_sub=$(grep -c '^acme_cmd_submit id [0-9]* opcode 2 len 4096 depth [0-9]*$' "$LOG")
n_done=$(grep -c '^acme_cmd_complete id [0-9]* status 0 latency_ns [0-9]*$' "$LOG")
n_irq=$(grep -c '^acme_irq pending [1-9][0-9]*$' "$LOG")
[ "$n_sub" = 10 ] && [ "$n_done" = 10 ] && [ "$n_irq" -ge 1 ] &&
	ok "markers with a probe: 10 acme_cmd_submit, 10 acme_cmd_complete, $n_irq acme_irq, arguments decoded" ||
	not_ok "markers: submit $n_sub, complete $n_done, irq $n_irq; $(head -n 4 "$LOG" | tr '\n' '|')"
on=$(grep -cP '^acme_[a-z_]+\tacme_xa\t.*\ton\t1$' /sys/kernel/debug/markers/list)
[ "$on" = 12 ] && ok "all 12 acme markers on with 1 probe" || not_ok "$on acme markers on"
"$DIR/acme-bad-input" >/dev/null 2>&1
grep -q '^acme_rejected what ioctl why unknown command value 21505$' "$LOG" &&
	grep -q '^acme_rejected what submit why bad opcode value 4294967295$' "$LOG" &&
	grep -q '^acme_ring_full depth 64$' "$LOG" && grep -q '^acme_cmd_cancel id [0-9]*$' "$LOG" &&
	ok "acme-bad-input fires acme_rejected (e.g. $(grep -m1 'bad length' "$LOG")), acme_ring_full, acme_cmd_cancel" ||
	not_ok "acme-bad-input markers: $(grep -c acme_rejected "$LOG") acme_rejected"
"$CTL" reset >/dev/null
grep -q '^acme_reset reason ioctl failures 0$' "$LOG" && grep -q '^acme_fw_state old resetting new ready reason reset_done$' "$LOG" &&
	ok "RESET fires acme_reset and acme_fw_state" || not_ok "RESET markers"
unload

# --- deterministic faults ---------------------------------------------
fault_run() { # fault_run TAG PARAMS... : load, run, unload; events in $TMP/TAG.*
	local tag=$1
	shift
	clear_log
	insmod "$KO" "$@" || return 1
	"$CTL" run --count "$COUNT" --threads 4 --window 24 --seed "$SEED" >"$TMP/$tag.run" 2>&1
	echo "exit=$?" >>"$TMP/$tag.run"
	"$CTL" stats >"$TMP/$tag.stats"
	unload || return 1
	events >"$TMP/$tag.events"
}
if [ "$QUICK" != 1 ]; then
	# A short timeout is fine: the watchdog lets the firmware catch up with
	# the clock first, so a starved guest cannot time out a healthy command
	COUNT=400 SEED=1
	# STALL: the stall fault's module parameters (the host half passes
	# stap-scripts/examples/stall-fault.sh's)
	: "${STALL:?the stall fault module parameters}"
	# shellcheck disable=SC2086
	fault_run stall1 $STALL && fault_run stall2 $STALL
	f1=$(kv failed_ids "$TMP/stall1.run")
	if [ "$f1" = "129,130,259,260,389,390" ]; then
		ok "stall ($STALL): failed ids $f1, $(kv timeouts "$TMP/stall1.stats") timeouts, $(kv retries "$TMP/stall1.stats") retries, $(kv resets "$TMP/stall1.stats") resets"
	else
		not_ok "stall: failed ids '$f1'"; sed 's/^/#   /' "$TMP/stall1.run"
	fi
	if cmp -s "$TMP/stall1.events" "$TMP/stall2.events" && [ "$f1" = "$(kv failed_ids "$TMP/stall2.run")" ]; then
		ok "stall, second run: the same $(wc -l <"$TMP/stall1.events") fault events at the same ids"
	else
		not_ok "stall: the two runs differ"; diff "$TMP/stall1.events" "$TMP/stall2.events" | head -n 20 | sed 's/^/#   /'
	fi
	grep -q '^acme_fw_stall id 129 ring_pos 128 wraps 2$' "$TMP/stall1.events" &&
		[ "$(grep -c '^acme_cmd_timeout id 129 ' "$TMP/stall1.events")" = 3 ] &&
		grep -q '^acme_cmd_retry id 129 attempt 3$' "$TMP/stall1.events" &&
		grep -q '^acme_reset reason failures failures 2$' "$TMP/stall1.events" &&
		ok "stall markers: acme_fw_stall id 129, 3 x acme_cmd_timeout id 129, acme_cmd_retry attempt 3, acme_reset failures 2" ||
		not_ok "stall markers: $(head -n 8 "$TMP/stall1.events" | tr '\n' '|')"

	COUNT=1000 SEED=3
	ERR="error_rate=150 error_seed=12345 max_retries=1 reset_after_failures=5"
	# shellcheck disable=SC2086
	fault_run err1 $ERR && fault_run err2 $ERR
	e1=$(grep -c '^acme_cmd_error' "$TMP/err1.events")
	if [ "$e1" -gt 0 ] && cmp -s "$TMP/err1.events" "$TMP/err2.events" &&
		[ "$(kv failed_ids "$TMP/err1.run")" = "$(kv failed_ids "$TMP/err2.run")" ]; then
		ok "errors ($ERR): twice the same $e1 firmware errors, $(kv retries "$TMP/err1.stats") retries, failed ids $(kv failed_ids "$TMP/err1.run"), $(kv resets "$TMP/err1.stats") resets"
	else
		not_ok "errors: $e1 errors; runs differ"; diff "$TMP/err1.events" "$TMP/err2.events" | head -n 20 | sed 's/^/#   /'
	fi
	# shellcheck disable=SC2086
	e3=0
	fault_run err3 error_rate=150 error_seed=54321 max_retries=1 reset_after_failures=5 &&
		e3=$(grep -c '^acme_cmd_error' "$TMP/err3.events")
	# Other errors, not none: a run that failed or saw no error differs too
	if [ "$e3" -gt 0 ] && ! cmp -s "$TMP/err1.events" "$TMP/err3.events"; then
		ok "another error_seed gives other errors ($e3 errors)"
	else
		not_ok "another error_seed: $e3 errors, or the same ones as error_seed=12345"
	fi
fi

# Killed while waiting on a stalled device; unload with the firmware hung
# and orphaned commands in the ring
insmod "$KO" stall_after_wraps=1 cmd_timeout_ms=5000 reset_after_failures=0
"$CTL" run --count 300 --threads 4 --window 24 >/dev/null 2>&1 &
runpid=$!
# Kill it once it is blocked, whatever the time that takes: the firmware
# stalled and the ring full (in_flight = ring_depth), so its threads wait
# in SUBMIT (no room) and in WAIT (no completion). The loop's bound only
# ends a wait for something that does not come.
blocked=no
for _ in $(seq 600); do
	"$CTL" stats >"$TMP/stats" && [ "$(kv fw_state "$TMP/stats")" = stalled ] &&
		[ "$(kv in_flight "$TMP/stats")" = "$(kv ring_depth "$TMP/stats")" ] && blocked=yes && break
	kill -0 $runpid 2>/dev/null || break
	sleep 0.1
done
kill -TERM $runpid
wait $runpid; rc=$?
"$CTL" stats >"$TMP/stats2"
[ $blocked = yes ] && [ $rc = 143 ] && [ "$(kv cancelled "$TMP/stats2")" -gt 0 ] &&
	ok "a run killed in blocked SUBMITs and WAITs on a stalled device: $(kv in_flight "$TMP/stats") in flight, $(kv cancelled "$TMP/stats2") cancelled" ||
	not_ok "killed run: blocked $blocked, exit $rc; $(tr '\n' ' ' <"$TMP/stats"); after: $(tr '\n' ' ' <"$TMP/stats2")"
start=$(date +%s%N)
check "rmmod with the firmware stalled and orphans in the ring" rmmod acme_xa
echo "#   rmmod took $((($(date +%s%N) - start) / 1000000)) ms"

# The failed state: every command fails, automatic resets run out
insmod "$KO" error_rate=1000 max_retries=0 reset_after_failures=1 cmd_timeout_ms=100
"$CTL" run --count 10 --threads 1 --window 1 >"$TMP/run" 2>&1; rc=$?
"$CTL" stats >"$TMP/stats"
[ $rc = 1 ] && [ "$(kv fw_state "$TMP/stats")" = failed ] && [ "$(kv resets "$TMP/stats")" = 3 ] &&
	ok "error_rate=1000: run exits 1, $(kv errors "$TMP/run") errors, 3 automatic resets, then fw_state failed" ||
	not_ok "failed state: run exit $rc, $(tr '\n' ' ' <"$TMP/stats")"
"$CTL" submit >/dev/null 2>"$TMP/err"; rc=$?
[ $rc = 1 ] && grep -q 'Input/output error' "$TMP/err" && ok "SUBMIT on a failed device: EIO" || not_ok "SUBMIT on a failed device: exit $rc $(cat "$TMP/err")"
"$CTL" reset >"$TMP/out" && [ "$(kv fw_state "$TMP/out")" = ready ] && ok "acmectl reset recovers it: ready" || not_ok "reset from failed: $(cat "$TMP/out")"
unload

# --- the markers policy (for a proprietary module) ----------------------
# acme_probe stays loaded: its probes wait on every acme marker
insmod "$KO"
# Whether the module under test is proprietary is the runner's to say
# (EXPECT_TAINT: 4097 P+O for the drop, 4096 O for the debug kernel's GPL
# build), not what got loaded
if [ $((EXPECT_TAINT & 1)) = 0 ]; then
	ok "markers.proprietary=deny/allow # SKIP the module under test is not proprietary (EXPECT_TAINT=$EXPECT_TAINT): the policy does not apply to it"
elif ! grep -q '^acme_xa .*(P' /proc/modules; then
	not_ok "markers policy: acme_xa is not loaded as a proprietary module: '$(grep '^acme_xa ' /proc/modules)'"
else
	echo deny >/sys/module/markers/parameters/proprietary
	# blocked by the policy, and acme_probe's probe listed as waiting
	b=$(grep -cP '^acme_[a-z_]+\tacme_xa\t.*\tblocked\t1\tpolicy\tacme_probe_fn \[acme_probe\]$' /sys/kernel/debug/markers/list)
	clear_log
	"$CTL" run --count 100 >/dev/null
	denied=$(grep -c '^acme_' "$LOG")
	echo allow >/sys/module/markers/parameters/proprietary
	a=$(grep -cP '^acme_[a-z_]+\tacme_xa\t.*\ton\t1$' /sys/kernel/debug/markers/list)
	[ "$b" = 12 ] && [ "$a" = 12 ] && ok "markers.proprietary=deny blocks the 12 markers (policy), allow connects them again" ||
		not_ok "policy: $b blocked, $a on"
	[ "$denied" = 0 ] && ok "under deny, 100 commands fire no marker" || not_ok "under deny, $denied marker hits"
	clear_log
	"$CTL" run --count 100 >/dev/null
	[ "$(grep -c '^acme_cmd_submit ' "$LOG")" = 100 ] && ok "after allow, 100 commands fire 100 acme_cmd_submit" ||
		not_ok "after allow: $(grep -c '^acme_cmd_submit ' "$LOG") acme_cmd_submit hits"
fi
unload

# --- the force-loaded variant ------------------------------------------
if [ "$FORCED" = 1 ]; then
	if insmod "$DIR/acme_xa_forced.ko" 2>"$TMP/err"; then
		not_ok "acme_xa_forced.ko loaded without -f"; rmmod acme_xa
	else
		ok "insmod acme_xa_forced.ko without -f refused: $(cat "$TMP/err")"
	fi
	check "insmod -f acme_xa_forced.ko" insmod -f "$DIR/acme_xa_forced.ko"
	taint=$(cat /proc/sys/kernel/tainted)
	mflags=$(sed -n 's/^acme_xa .*(\([A-Z]*\))$/\1/p' /proc/modules)
	[ $((taint & 2)) = 2 ] && [ "$(echo "$mflags" | grep -o '[POF]' | sort | tr -d '\n')" = FOP ] &&
		ok "tainted $taint (F), the module's taints ($mflags)" || not_ok "forced: tainted $taint; $(grep acme_xa /proc/modules)"
	blocked=$(grep -cP '^acme_[a-z_]+\tacme_xa\t.*\tblocked\t1\tforced\tacme_probe_fn \[acme_probe\]$' /sys/kernel/debug/markers/list)
	[ "$blocked" = 12 ] && ok "its 12 markers listed blocked (forced), a probe waiting on each" || not_ok "$blocked markers blocked forced"
	clear_log
	check "acmectl run on the forced module" "$CTL" run --count 200 --threads 2
	hits=$(grep -c '^acme_' "$LOG")
	[ "$hits" = 0 ] && ok "nothing fires from the forced module (200 commands, 0 marker hits)" || not_ok "forced module: $hits marker hits"
	check "rmmod the forced module" rmmod acme_xa
fi

# kmemleak, where the kernel has it
if [ -w /sys/kernel/debug/kmemleak ]; then
	echo scan >/sys/kernel/debug/kmemleak; sleep 6; echo scan >/sys/kernel/debug/kmemleak
	leaks=$(grep -c 'unreferenced object' /sys/kernel/debug/kmemleak)
	[ "$leaks" = 0 ] && ok "kmemleak: no leak" || { not_ok "kmemleak: $leaks leaks"; head -n 40 /sys/kernel/debug/kmemleak | sed 's/^/#   /'; }
fi

check "the probes unregister: rmmod acme_probe" rmmod acme_probe

# lockdep, where the kernel has it: still on (a report turns it off)
if [ -r /proc/lockdep_stats ]; then
	grep -q 'debug_locks: *1' /proc/lockdep_stats &&
		ok "lockdep still on after all this: no lock problem reported" ||
		not_ok "lockdep: $(grep debug_locks /proc/lockdep_stats)"
fi

rm -rf "$TMP"
# shellcheck disable=SC2154 # counted by tests/ktap.sh, in front of this text
echo "# $ktap_passed passed, $ktap_failed failed"
