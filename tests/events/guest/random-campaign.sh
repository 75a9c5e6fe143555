#!/bin/bash
# In the guest: the generator of tests/events/70-random-campaign.sh.
#   random-campaign.sh SEED OPS
# /mnt/host holds the test modules and, when the host could compile it,
# km_campaign.ko (a SystemTap module on acme_cmd_submit, acme_irq and
# test_prop_args).
#
# A PRNG seeded with SEED (an LCG in shell arithmetic: the same seed gives
# the same operations on any machine) draws OPS operations from a weighted
# table and does them one after the other: loads and unloads of the
# modules that own marker events (the twins that share markers:test_twin,
# acme_xa, markers_events, markers_prop in even seeds) and of a stock module
# with trace events (trace-events-sample), two unloads at once, an unload
# as another module loads, a twin's exit() firing while it goes; firings
# and a background load; enable, disable, filters and triggers (traceon,
# traceoff, stacktrace, enable_event/disable_event, which put their target
# in soft mode, hist, a variable ts0 and its consumers on another event,
# onmatch actions into the synthetic event km_lat) on marker events, a
# stock module's event, sched:sched_switch and km_lat, at the top level or
# in an instance; event files held open across what follows; policy
# flips; probes held by markers_churn; perf record/stat, bpftrace and
# SystemTap sessions started in the background and stopped later.
#
# Each draw depends on the seed only, never on what an earlier operation
# did, so a seed replays the same operations. An operation that fails
# (EBUSY, EINVAL, ENOENT because its module is gone) is expected: its
# result is logged and the campaign goes on; only the kernel's reports
# (guest-image/vm fails the run on any) and hangs are failures. Each
# operation is logged before it runs, as "# op N: WHAT" on stdout and as
# "km-campaign: seed S op N: WHAT" on the kernel's console, so a crash or
# a hang shows the last one; its result follows as "#   ok" or
# "#   failed (STATUS): ERROR".
#
# Then it cleans up (tracers stopped, triggers, filters, enables, the
# instance and km_lat removed, every module unloaded) and checks itself,
# KTAP with its plan first: nothing left enabled or triggered, no module
# left, the markers' events and listing as at boot, and a fresh twin and
# acme_xa count exactly. Its last line: "# campaign: seed S: N of OPS ops
# ran ...".
#
# No "set -e": failing operations are the point.
set -u
seed=$1 ops=$2
T=/sys/kernel/tracing
I=$T/instances/km_campaign
L=/sys/kernel/debug/markers/list
P=/sys/module/markers/parameters/proprietary
M=/mnt/host

# --- the PRNG: x' = (1103515245 x + 12345) mod 2^31, bits 30..8 out ---
rng=$(((seed ^ 0x2545f491) & 0x7fffffff))
# rnd N: R becomes a number in 0..N-1 (a global, so no subshell loses the state)
rnd() {
	rng=$(((rng * 1103515245 + 12345) & 0x7fffffff))
	R=$(((rng >> 8) % $1))
}
rnd 2 && rnd 2 && rnd 2

# --- what the operations act on ---
modules=(markers_twin_a markers_twin_b acme_xa markers_events trace_events_sample markers_churn)
# Events as SYSTEM/NAME, each with a field for filters and hist keys
events=(markers/test_twin markers/acme_cmd_submit markers/acme_cmd_complete markers/acme_irq
	markers/test_ev_noargs markers/test_ev_mac markers/fs_open markers/module_load
	sample-trace/foo_bar sched/sched_switch synthetic/km_lat)
keys=(n opcode id pending common_pid common_pid dfd taints bar prev_pid lat)
# Even seeds add a proprietary module (taint P: on the debug kernel
# lockdep is off for the rest of such a boot, so odd seeds keep it on)
prop=$(((seed + 1) % 2))
if [ "$prop" = 1 ]; then
	modules+=(markers_prop)
	events+=(markers/test_prop_args)
	keys+=(u)
fi
probe_names=(test_twin acme_cmd_submit fs_open test_ev_noargs test_prop_args)
event_files=(format enable trigger filter hist id)

# The weighted table of operations: KIND:WEIGHT, each kind an op_KIND
table=(load:16 unload:8 unload2:3 swap:2 held_exit:1 fire:10 bg_load:2
	enable:8 disable:4 enable_sys:1 filter:5 trigger:12 untrigger:5 truncate:1
	synth:2 instance:2 fd:4 policy:3 churn:2 perf:4 bpftrace:2 stap:2 read:4)
kinds=() cum=() total=0
for entry in "${table[@]}"; do
	kinds+=("${entry%%:*}")
	total=$((total + ${entry##*:}))
	cum+=("$total")
done

# --- logging ---
start=$SECONDS
n=0 ops_ok=0 ops_failed=0
declare -A kinds_run=()
# begin KIND WHAT: the operation, logged before it runs
begin() {
	n=$((n + 1))
	kinds_run[$1]=1
	shift
	echo "# op $n: $* (at $((SECONDS - start)) s)"
	echo "km-campaign: seed $seed op $n: $*" >/dev/kmsg
}
# note TEXT: what an operation found
note() { echo "#   $*"; }
# try CMD...: run CMD (a command or one of the functions below), log its
# result: "ok", or its status and the last line of its errors
try() {
	local err status=0
	err=$("$@" 2>&1 >/dev/null) || status=$?
	if [ "$status" = 0 ]; then
		ops_ok=$((ops_ok + 1))
		note ok
	else
		ops_failed=$((ops_failed + 1))
		note "failed ($status): $(printf '%s\n' "$err" | tail -n 1 | sed 's/^environment: line [0-9]*: //')"
	fi
	return 0
}
# put TEXT FILE: append TEXT to FILE (append: ">" on a trigger file
# would first clear its triggers)
put() { printf '%s\n' "$1" >>"$2"; }
# put_fd TEXT: write TEXT through the held file (fd 7), no new open
put_fd() { printf '%s\n' "$1" >&7; }
# truncate FILE: open it with O_TRUNC (a trigger file: clear every trigger)
truncate_file() { : >"$1"; }
loaded() { grep -q "^$1 " /proc/modules; }
# lacks_line PATTERN FILE: no line of FILE matches the extended PATTERN
lacks_line() { ! grep -qE "$1" "$2"; }
load_module() {
	case $1 in
	acme_xa) modprobe acme_xa ;;
	trace_events_sample) modprobe trace-events-sample ;;
	*) insmod "$M/$1.ko" "${@:2}" ;;
	esac
}
# base WHERE: the tracefs directory an event operation acts in: the top
# level (3 draws in 4) or the instance
base() { if [ "$1" = 3 ]; then echo "$I"; else echo "$T"; fi; }
where_name() { if [ "$1" = 3 ]; then echo "instance"; else echo "top"; fi; }

# --- background sessions: one slot each, started and stopped by ops ---
perf_pid="" bpf_pid="" stap_pid="" load_pid="" stuck=0 bg_runs=0
# stop_bg WHAT PID: SIGINT, again every 5 s (perf record misses a SIGINT
# that comes as it starts to poll, and polls on with no event to wake it),
# for up to 120 s; then SIGKILL, counted in "stuck". Logs how it ended.
stop_bg() {
	local what=$1 pid=$2 i status=0
	for i in $(seq 1200); do
		[ $((i % 50)) != 1 ] || kill -INT "$pid" 2>/dev/null
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		stuck=$((stuck + 1))
		note "$what did not stop in 120 s after SIGINT; killed"
		kill -KILL "$pid" 2>/dev/null
	fi
	wait "$pid" || status=$?
	note "$what ended (status $status) after ${i}00 ms: $(tail -n 2 "/tmp/$what.out" 2>/dev/null | tr '\n' ' ' | cut -c1-160)"
}
# A loop that fires every module's markers until /tmp/km_stop_load
background_load() {
	local i=0
	while [ ! -e /tmp/km_stop_load ]; do
		i=$((i + 1))
		for t in a b; do put 10 /sys/module/markers_twin_$t/parameters/fire 2>/dev/null; done
		put 2 /sys/module/markers_events/parameters/fire_shapes 2>/dev/null
		put 3 /sys/module/markers_prop/parameters/fire 2>/dev/null
		timeout 60 acmectl run --count 5 --threads 2 >/dev/null 2>&1
		[ "$i" -lt 2000 ] || break
	done
	echo "background load: $i rounds"
}

# --- the operations: each draws all it needs first, then logs, then acts ---
op_load() {
	rnd ${#modules[@]}; local m=${modules[R]}
	begin load "load $m"
	try load_module "$m"
}
op_unload() {
	rnd ${#modules[@]}; local m=${modules[R]}
	begin unload "unload $m"
	try rmmod "$m"
}
op_unload2() {
	rnd ${#modules[@]}; local m1=${modules[R]}
	rnd ${#modules[@]}; local m2=${modules[R]} p1 p2 s1=0 s2=0
	begin unload2 "unload $m1 and $m2 at once"
	rmmod "$m1" 2>/tmp/rmmod1.err & p1=$!
	rmmod "$m2" 2>/tmp/rmmod2.err & p2=$!
	wait "$p1" || s1=$?
	wait "$p2" || s2=$?
	note "$m1: $s1 $(cat /tmp/rmmod1.err); $m2: $s2 $(cat /tmp/rmmod2.err)"
}
op_swap() {
	rnd ${#modules[@]}; local m1=${modules[R]}
	rnd ${#modules[@]}; local m2=${modules[R]} p s=0
	begin swap "unload $m1 as $m2 loads"
	rmmod "$m1" 2>/tmp/rmmod1.err & p=$!
	try load_module "$m2"
	wait "$p" || s=$?
	note "rmmod $m1: $s $(cat /tmp/rmmod1.err)"
}
# A twin's exit() fires test_twin until released (hold_exit), while the
# other twin unloads, fires or loads
op_held_exit() {
	rnd 2; local x=${modules[R]} y=${modules[1 - R]}
	rnd 3; local what=$R before waited p s=0
	local actions=("unloads" "fires" "loads")
	begin held_exit "$x's exit() fires test_twin while it goes and $y ${actions[what]}"
	if ! loaded "$x"; then
		note "$x is not loaded"
		return 0
	fi
	put 1 "/sys/module/$x/parameters/hold_exit"
	before=$(dmesg | grep -c "$x: exit() fires test_twin")
	rmmod "$x" 2>/tmp/rmmod1.err & p=$!
	for waited in $(seq 100); do
		[ "$(dmesg | grep -c "$x: exit() fires test_twin")" = "$before" ] || break
		sleep 0.1
	done
	note "exit() firing after ${waited}00 ms"
	case $what in
	0) try rmmod "$y" ;;
	1) try put 20 "/sys/module/$y/parameters/fire" ;;
	2) try load_module "$y" ;;
	esac
	sleep 0.2
	put 1 "/sys/module/$x/parameters/release_exit" 2>/dev/null
	wait "$p" || s=$?
	note "rmmod $x: $s $(cat /tmp/rmmod1.err)"
	# Still loaded (pinned, busy): its next unload must not hold
	! loaded "$x" || put 0 "/sys/module/$x/parameters/hold_exit"
}
op_fire() {
	rnd 5; local t=$R
	rnd 40; local times=$((R + 1))
	case $t in
	0 | 1) begin fire "fire test_twin $times times in ${modules[t]}"
		try put "$times" "/sys/module/${modules[t]}/parameters/fire" ;;
	2) begin fire "acmectl run --count $times"
		try timeout 60 acmectl run --count "$times" ;;
	3) begin fire "fire markers_events' format-shape markers $times times"
		try put "$times" /sys/module/markers_events/parameters/fire_shapes ;;
	4) begin fire "fire markers_prop's markers $times times"
		try put "$times" /sys/module/markers_prop/parameters/fire ;;
	esac
}
op_bg_load() {
	if [ -n "$load_pid" ]; then
		begin bg_load "stop the background load"
		touch /tmp/km_stop_load
		wait "$load_pid"
		load_pid=""
		note "$(cat /tmp/load.out)"
	else
		begin bg_load "start a background load (twins, acmectl, markers_events, markers_prop)"
		rm -f /tmp/km_stop_load
		background_load >/tmp/load.out 2>&1 7>&- &
		load_pid=$!
	fi
}
op_enable() {
	rnd ${#events[@]}; local e=${events[R]}
	rnd 4; local w=$R
	begin enable "enable $e ($(where_name $w))"
	try put 1 "$(base $w)/events/$e/enable"
}
op_disable() {
	rnd ${#events[@]}; local e=${events[R]}
	rnd 4; local w=$R
	begin disable "disable $e ($(where_name $w))"
	try put 0 "$(base $w)/events/$e/enable"
}
op_enable_sys() {
	rnd 2; local v=$R
	begin enable_sys "write $v to events/markers/enable"
	try put "$v" "$T/events/markers/enable"
}
op_filter() {
	rnd ${#events[@]}; local i=$R
	rnd 4; local w=$R
	rnd 5; local form=$R
	rnd 10; local k=$R f
	local e=${events[i]} key=${keys[i]}
	case $form in
	0) f="$key < $k" ;;
	1) f="$key == $k || common_pid > 1" ;;
	2) f="0" ;;
	3) f="no_such_field == 1" ;;
	4) f="$key >= $k && $key < $((k + 5))" ;;
	esac
	begin filter "filter '$f' on $e ($(where_name $w))"
	try put "$f" "$(base $w)/events/$e/filter"
}
op_trigger() {
	rnd ${#events[@]}; local i=$R
	rnd 4; local w=$R
	rnd 10; local t=$R
	rnd 10; local k=$R
	rnd ${#events[@]}; local e2=${events[R]}
	local e=${events[i]} key=${keys[i]} s2 trig
	s2=${e2/\//.}
	case $t in
	0) trig="traceon if $key < $k" ;;
	1) trig="traceoff:1" ;;
	2) trig="stacktrace:2" ;;
	3) trig="enable_event:${e2/\//:}" ;;
	4) trig="disable_event:${e2/\//:}:3" ;;
	5) trig="hist:keys=$key" ;;
	6) trig="hist:keys=$key:vals=hitcount if $key >= $k" ;;
	7) trig="hist:keys=common_pid:ts0=common_timestamp.usecs" ;;
	8) trig="hist:keys=common_pid:lat=common_timestamp.usecs-$s2.\$ts0" ;;
	9) trig="hist:keys=common_pid:lat=common_timestamp.usecs-$s2.\$ts0:onmatch($s2).trace(km_lat,\$lat,common_pid)" ;;
	esac
	begin trigger "trigger '$trig' on $e ($(where_name $w))"
	try put "$trig" "$(base $w)/events/$e/trigger"
}
# remove_spec LINE: what to write after "!" to remove the trigger that a
# trigger file lists as LINE. A hist trigger keeps its filter, which must
# match; a variable read by its full name, written "sys.event.$var", is
# listed as "$sys.event.var", which the parser refuses (stock 6.1,
# expr_field_str()): written back the way it was given.
remove_spec() {
	local line=${1%% \[*}
	# shellcheck disable=SC2016 # $var is the trigger's, not the shell's
	local unlisted='s/\$([A-Za-z0-9_]+)\.([A-Za-z0-9_]+)\.([A-Za-z0-9_]+)/\1.\2.$\3/g'
	case $line in
	hist:*) printf '%s\n' "$line" | sed -E "$unlisted" ;;
	enable_event:* | disable_event:*) printf '%s\n' "$line" | cut -d: -f1-3 ;;
	*) printf '%s\n' "${line%%:*}" ;;
	esac
}
op_untrigger() {
	rnd ${#events[@]}; local e=${events[R]}
	rnd 4; local w=$R
	rnd 4; local which=$R f lines
	f=$(base $w)/events/$e/trigger
	begin untrigger "remove a trigger of $e ($(where_name $w)): number $((which + 1)) listed, counted round"
	# (no process substitution: the guest has no /dev/fd)
	grep -v '^#' "$f" >/tmp/trigger.lines 2>/dev/null
	mapfile -t lines </tmp/trigger.lines
	if [ ${#lines[@]} = 0 ]; then
		note "none listed"
		return 0
	fi
	local spec
	spec=$(remove_spec "${lines[which % ${#lines[@]}]}")
	note "writing '!$spec'"
	try put "!$spec" "$f"
}
op_truncate() {
	rnd ${#events[@]}; local e=${events[R]}
	rnd 4; local w=$R
	begin truncate "open $e's trigger file with O_TRUNC ($(where_name $w)): every trigger goes"
	try truncate_file "$(base $w)/events/$e/trigger"
}
op_synth() {
	rnd 3; local what=$R
	case $what in
	0) begin synth "create the synthetic event km_lat"
		try put "km_lat u64 lat; int pid" "$T/synthetic_events" ;;
	1) begin synth "delete the synthetic event km_lat"
		try put "!km_lat" "$T/synthetic_events" ;;
	2) begin synth "read synthetic_events"
		note "$(tr '\n' ' ' <"$T/synthetic_events")" ;;
	esac
}
op_instance() {
	rnd 2; local what=$R
	if [ "$what" = 0 ]; then
		begin instance "mkdir the instance"
		try mkdir "$I"
	else
		begin instance "rmdir the instance"
		try rmdir "$I"
	fi
}
# One event file held open (fd 7) across the ops that follow
fd_path="" fd_mode=""
op_fd() {
	rnd 3; local what=$R
	rnd ${#events[@]}; local e=${events[R]}
	rnd 4; local w=$R
	rnd ${#event_files[@]}; local file=${event_files[R]} path
	path=$(base $w)/events/$e/$file
	case $what in
	0) begin fd "hold $path open"
		[ -z "$fd_path" ] || exec 7>&-
		fd_path=""
		case $file in
		format | hist | id) exec 7<"$path" && fd_path=$path fd_mode=r ;;
		*) exec 7>>"$path" && fd_path=$path fd_mode=w ;;
		esac 2>/tmp/fd.err
		if [ -n "$fd_path" ]; then note ok; else note "failed: $(cat /tmp/fd.err)"; fi ;;
	1) begin fd "use the held file (${fd_path:-none})"
		if [ -z "$fd_path" ]; then
			note "none held"
		elif [ "$fd_mode" = r ]; then
			try cat <&7
		else
			case $fd_path in
			*/enable) try put_fd 0 ;;
			*/trigger) try put_fd "traceon" ;;
			*) try put_fd "common_pid > 0" ;;
			esac
		fi ;;
	2) begin fd "close the held file (${fd_path:-none})"
		[ -z "$fd_path" ] || exec 7>&-
		fd_path="" ;;
	esac
}
op_policy() {
	rnd 2; local v
	if [ "$R" = 0 ]; then v=allow; else v=deny; fi
	begin policy "markers.proprietary=$v"
	try put "$v" "$P"
}
op_churn() {
	rnd ${#probe_names[@]}; local name=${probe_names[R]}
	rnd 2; local what=$R
	if [ "$what" = 0 ]; then
		begin churn "markers_churn holds a probe on $name"
		try put "$name" /sys/module/markers_churn/parameters/hold
	else
		begin churn "markers_churn releases its probe on $name"
		try put "$name" /sys/module/markers_churn/parameters/release
	fi
}
op_perf() {
	rnd 3; local mode=$R
	rnd ${#events[@]}; local i=$R
	rnd 10; local k=$R
	local e=${events[i]/\//:} key=${keys[i]}
	if [ -n "$perf_pid" ]; then
		begin perf "stop perf"
		stop_bg perf "$perf_pid"
		perf_pid=""
		rm -f /tmp/perf.data
		return 0
	fi
	bg_runs=$((bg_runs + 1))
	case $mode in
	0) begin perf "start perf record -a -e $e"
		perf record -q -a -e "$e" -o /tmp/perf.data >/tmp/perf.out 2>&1 7>&- & ;;
	1) begin perf "start perf record -a -e $e --filter '$key < $k'"
		perf record -q -a -e "$e" --filter "$key < $k" -o /tmp/perf.data >/tmp/perf.out 2>&1 7>&- & ;;
	2) begin perf "start perf stat -a -e 'markers:*'"
		perf stat -a -x, -e 'markers:*' >/tmp/perf.out 2>&1 7>&- & ;;
	esac
	perf_pid=$!
}
op_bpftrace() {
	rnd ${#events[@]}; local i=$R
	local e=${events[i]/\//:} key=${keys[i]} what
	if [ -n "$bpf_pid" ]; then
		begin bpftrace "stop bpftrace"
		stop_bg bpftrace "$bpf_pid"
		bpf_pid=""
		return 0
	fi
	bg_runs=$((bg_runs + 1))
	# No string field (bpftrace 0.23 and __data_loc): the key, or comm
	if [ "$key" = common_pid ]; then what="comm"; else what="args->$key"; fi
	begin bpftrace "start bpftrace on tracepoint:$e, @[$what] = count()"
	bpftrace -e "tracepoint:$e { @[$what] = count(); }" >/tmp/bpftrace.out 2>&1 7>&- &
	bpf_pid=$!
}
op_stap() {
	if [ -n "$stap_pid" ]; then
		begin stap "stop the SystemTap session"
		stop_bg stap "$stap_pid"
		stap_pid=""
	elif [ -e "$M/km_campaign.ko" ]; then
		bg_runs=$((bg_runs + 1))
		begin stap "start a SystemTap session (km_campaign.ko: acme_cmd_submit, acme_irq, test_prop_args)"
		# A staprun stopped as it inserted the module may leave it behind
		if loaded km_campaign; then
			note "an earlier session's module is still loaded; removing it"
			try rmmod km_campaign
		fi
		staprun "$M/km_campaign.ko" >/tmp/stap.out 2>&1 7>&- &
		stap_pid=$!
	else
		begin stap "no SystemTap session: the host compiled no km_campaign.ko"
	fi
}
op_read() {
	rnd 8; local what=$R
	rnd ${#events[@]}; local e=${events[R]}
	case $what in
	0) begin read "read the trace"; note "$(wc -l <$T/trace) lines" ;;
	1) begin read "read $e's hist"; note "$(grep -c hitcount "$T/events/$e/hist" 2>&1)" ;;
	2) begin read "read the markers list"; note "$(wc -l <$L) markers" ;;
	3) begin read "read available_events"; note "$(grep -c '^markers:' $T/available_events) markers events" ;;
	4) begin read "read set_event"; note "$(tr '\n' ' ' <$T/set_event | cut -c1-200)" ;;
	5) begin read "read trace_pipe for 1 s"; note "$(timeout 1 cat $T/trace_pipe | wc -l) lines" ;;
	6) begin read "clear the trace"; try truncate_file $T/trace ;;
	7) begin read "tracing_on=1"; try put 1 $T/tracing_on ;;
	esac
}

# --- the campaign ---
echo "# campaign: seed $seed, $ops ops, proprietary module: $([ "$prop" = 1 ] && echo yes || echo no)"
# events/markers and the markers' lines of available_events
markers_events() { ls $T/events/markers; grep '^markers:' $T/available_events | sort; }
markers_events >/tmp/events.boot
cp $L /tmp/list.boot
while [ "$n" -lt "$ops" ]; do
	rnd "$total"
	for k in "${!cum[@]}"; do
		[ "$R" -ge "${cum[k]}" ] || break
	done
	"op_${kinds[k]}"
done
took=$((SECONDS - start))
echo "# campaign: seed $seed: $n of $ops ops ran in $took s ($ops_ok actions succeeded, $ops_failed failed, ${#kinds_run[@]} of ${#kinds[@]} kinds)"
echo "# kinds not drawn: $(for k in "${kinds[@]}"; do [ -n "${kinds_run[$k]:-}" ] || printf '%s ' "$k"; done)"

# --- cleanup ---
echo "km-campaign: seed $seed: cleanup" >/dev/kmsg
echo "# cleanup"
[ -z "$fd_path" ] || exec 7>&-
[ -z "$load_pid" ] || { touch /tmp/km_stop_load; wait "$load_pid"; }
[ -z "$perf_pid" ] || stop_bg perf "$perf_pid"
[ -z "$bpf_pid" ] || stop_bg bpftrace "$bpf_pid"
[ -z "$stap_pid" ] || stop_bg stap "$stap_pid"
put allow $P
if loaded markers_churn; then
	while read -r name _; do
		put "$name" /sys/module/markers_churn/parameters/release
	done </sys/module/markers_churn/parameters/held
fi
# clear_triggers DIR: remove the triggers of every event under DIR (the
# top level or the instance): those with actions first (they read
# variables), then the rest, in passes, since a variable's definition
# goes only after its readers. The last pass logs what it could not remove.
clear_triggers() {
	local dir=$1 pass line spec file err
	for pass in 1 2 3 4; do
		grep -H -v '^#' "$dir"/events/*/*/trigger >/tmp/triggers 2>/dev/null
		[ -s /tmp/triggers ] || return 0
		{ grep ':on[a-z]*(' /tmp/triggers; grep -v ':on[a-z]*(' /tmp/triggers; } >/tmp/triggers.ordered
		while IFS= read -r line; do
			spec=$(remove_spec "${line#*/trigger:}")
			file=${line%%/trigger:*}/trigger
			err=$(put "!$spec" "$file" 2>&1) ||
				[ "$pass" != 4 ] || echo "# cleanup: '!$spec' >> $file: ${err##*: }"
		done </tmp/triggers.ordered
	done
}
# The instance's and the top level's triggers, enables, filters
for dir in $I $T; do
	[ -d "$dir" ] || continue
	clear_triggers "$dir"
	put 0 "$dir/events/enable"
	for e in "${events[@]}"; do put 0 "$dir/events/$e/filter" 2>/dev/null; done
	put 1 "$dir/tracing_on"
done
rmdir $I 2>/dev/null
put '!km_lat' $T/synthetic_events 2>/dev/null
for _ in $(seq 30); do
	left=()
	for m in "${modules[@]}" km_campaign; do
		loaded "$m" && ! rmmod "$m" 2>/dev/null && left+=("$m")
	done
	[ ${#left[@]} -gt 0 ] || break
	sleep 1
done
# What a module's going may have let go (a variable read by its events)
if grep -q -v '^#' $T/events/*/*/trigger 2>/dev/null; then
	echo "# cleanup: triggers left after the modules went; removing them again"
	clear_triggers $T
	put '!km_lat' $T/synthetic_events 2>/dev/null
fi
truncate_file $T/trace

# --- the checks ---
echo "1..10"
check "seed $seed: every background tracer ($bg_runs started) stopped within 120 s of SIGINT ($stuck did not)" [ "$stuck" = 0 ]
grep -H -v '^#' $T/events/*/*/trigger >/tmp/triggers.left 2>/dev/null
sed 's/^/# trigger left: /' /tmp/triggers.left
check "seed $seed: no trigger is left on any event" [ ! -s /tmp/triggers.left ]
grep -H -v '^0$' $T/events/*/*/enable >/tmp/enable.left 2>/dev/null
sed 's/^/# enable left: /' /tmp/enable.left
none_enabled() { [ ! -s /tmp/enable.left ] && [ -z "$(cat $T/set_event)" ]; }
check "seed $seed: every event's enable reads 0 (none enabled, none in soft mode) and set_event is empty" none_enabled
none_made() { [ ! -d $I ] && ! grep -q km_lat $T/synthetic_events; }
check "seed $seed: the instance and the synthetic event km_lat are gone" none_made
for m in "${modules[@]}" km_campaign; do
	! loaded "$m" || echo "# module left: $m"
done
check "seed $seed: every module the campaign loaded unloads at the end" \
	lacks_line '^(markers_|acme_xa|trace_events_sample|km_campaign) ' /proc/modules
markers_events >/tmp/events.end
diff /tmp/events.boot /tmp/events.end | sed 's/^/# markers events: /'
check "seed $seed: no markers event is left without its module (events/markers and available_events as at boot)" \
	cmp -s /tmp/events.boot /tmp/events.end
# (a copy: cmp takes debugfs's size of 0 for the file's)
cp $L /tmp/list.end
diff /tmp/list.boot /tmp/list.end | sed 's/^/# markers list: /'
check "seed $seed: the markers list is the one at boot (no probe left connected)" cmp -s /tmp/list.boot /tmp/list.end

# A fresh twin's event and acme_xa's after all that: exact counts
E=$T/events/markers/test_twin
insmod $M/markers_twin_a.ko && put 1 $E/enable && truncate_file $T/trace &&
	put 7 /sys/module/markers_twin_a/parameters/fire
twin=$(grep -c 'test_twin: twin 1 n' $T/trace)
check "seed $seed: a twin loaded afresh has its event, which records its 7 firings exactly ($twin)" [ "$twin" = 7 ]
put 0 $E/enable
rmmod markers_twin_a
check "seed $seed: ... and the event goes with it" [ ! -d $E ]
E=$T/events/markers/acme_cmd_submit
modprobe acme_xa && put 1 $E/enable && truncate_file $T/trace && acmectl run --count 10 >/dev/null
acme=$(grep -c 'acme_cmd_submit: id' $T/trace)
check "seed $seed: acme_xa loaded again records its 10 submits exactly ($acme)" [ "$acme" = 10 ]
put 0 $E/enable
rmmod acme_xa
echo "km-campaign: seed $seed: done" >/dev/kmsg
echo "# campaign: seed $seed: done"
