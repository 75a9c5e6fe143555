#!/bin/bash
# The guest side of 'make bench': in one boot, every method of the
# benchmark, RUNS runs of each. Result lines
# (bench/tools/benchstat's input) are appended to /mnt/host/raw; the rest
# of the output is progress.
#
#   guest.sh ITERATIONS TRACED_ITERATIONS RUNS [no-timings]
#                                        everything: the methods without a
#                                        tracer run ITERATIONS per run (they
#                                        are fast: more iterations even out
#                                        the emulator's noise), the traced
#                                        ones TRACED_ITERATIONS; no-timings
#                                        leaves out the tracers' start-up
#                                        and exit times (under instruction
#                                        counting the guest's seconds are
#                                        instructions, not time)
#   guest.sh loops ITERATIONS RUNS SESSION METHOD:LOOP...
#                                        RUNS rounds named SESSION-1,
#                                        SESSION-2, ..., each running every
#                                        LOOP once, results under METHOD;
#                                        then a profile of each LOOP (what a
#                                        tracer session runs)
set -eu
host=/mnt/host
raw=$host/raw
run_file=/sys/kernel/debug/markers_bench/run
# The CPU every timed loop runs on. A tracer's cost can differ by CPU:
# libbpf attaches bpftrace's tracepoint programs through one perf event,
# on CPU 0, and bpftrace 0.23's programs return 1, so on CPU 0 alone each
# event also goes through perf's sample path (perf_tp_event), three to
# seven times the cost of the rest, for a marker and a tracepoint alike.
# Loops left to the scheduler landed on either CPU, which mixed both
# costs into the rounds. CPU 1 times what the event itself costs.
bench_cpu=1

# One timed run: the module times the loop and reports
# "loop iterations ns cpu" (cpu -1: the run moved between CPUs)
one_run() {
	local method=$1 loop=$2 iterations=$3 round=$4 got_loop got_iterations ns cpu
	echo "$loop $iterations" >"$run_file"
	read -r got_loop got_iterations ns cpu <"$run_file"
	if [ "$got_loop" != "$loop" ] || [ "$got_iterations" != "$iterations" ]; then
		echo "bench: asked for '$loop $iterations', the module ran '$got_loop $got_iterations'" >&2
		exit 1
	fi
	if [ "$cpu" != "$bench_cpu" ]; then
		echo "bench: $method ran on CPU '$cpu', not on CPU $bench_cpu alone" >&2
		exit 1
	fi
	echo "run $method $iterations $ns $round" >>"$raw"
}

# Where the time of a method goes: perf samples (cpu-clock; TCG has no
# PMU) of one more run of its loop, with whatever tracer is attached.
# Under instruction counting the cpu-clock ticks in instructions, so the
# samples say where the instructions go. The loop runs with interrupts
# on for it (the timer that takes the samples is an interrupt); perf
# finds markers_bench.ko's symbols under /lib/modules (see below).
# profiled ITERATIONS: how many iterations the profile of a loop runs,
# at least 200000: at 4000 samples a second, the quick bench's 2000
# iterations of a 10-instruction loop are 20 us of guest time, under one
# sample, so whether any sample fell in a loop was luck (a CI run had
# none in any row). A tracer counts these too.
profiled() { echo $(($1 > 200000 ? $1 : 200000)); }
profile() {
	local method=$1 loop=$2 iterations
	iterations=$(profiled "$3")
	echo N >/sys/kernel/debug/markers_bench/irqs_off
	perf record -q -e cpu-clock -F 4000 -a -o /tmp/profile.data -- \
		sh -c "echo $loop $iterations >$run_file" 2>/dev/null
	echo Y >/sys/kernel/debug/markers_bench/irqs_off
	{
		echo "note"
		echo "note where the time of $method goes (perf record -e cpu-clock, busy samples only):"
		perf report -i /tmp/profile.data --no-children --stdio --sort sym 2>/dev/null |
			grep -E '^ +[0-9.]+%' | grep -v -E 'idle' |
			awk '{ pct[NR] = $1 + 0; total += $1; $1 = ""; what[NR] = $0 }
				END { for (i = 1; i <= NR && i <= 8; i++)
					printf "note     %5.1f%%%s\n", 100 * pct[i] / total, what[i] }'
	} >>"$raw"
}

# Interleaved rounds, so that a slow moment of the host hits every method
# of the round alike rather than all runs of one; each round starts one
# method further on, so that no method always runs right after the same
# other one (the emulator's state after a run is part of the next). The
# round is named in every run line: benchstat divides the methods of one
# round by each other (paired ratios), as the host's noise is shared
# within a round. Then one profiled run of each loop: every loop runs
# RUNS + 1 times in a session.
loops() {
	local iterations=$1 runs=$2 session=$3 round pair
	shift 3
	# Only the loops: the tracers' own processes stay free to run anywhere
	taskset -p -c "$bench_cpu" $$ >/dev/null
	for round in $(seq "$runs"); do
		for pair in "$@"; do
			one_run "${pair%%:*}" "${pair#*:}" "$iterations" "$session-$round"
		done
		echo "bench: round $round of $runs: $*" >&2
		set -- "${@:2}" "$1"
	done
	for pair in "$@"; do
		profile "${pair%%:*}" "${pair#*:}" "$iterations"
	done
}

if [ "${1:-}" = loops ]; then
	shift
	loops "$@"
	exit 0
fi

iterations=$1
traced=$2
runs=$3
timings=${4:-timings}
# Under instruction counting the guest boots on one CPU (QEMU 7.2 hangs
# bringing up the second at boot with -icount); the second comes online
# here, and the loops run on it as on any other boot.
for cpu in /sys/devices/system/cpu/cpu[1-9]*/online; do
	[ "$(cat "$cpu")" = 1 ] || echo 1 >"$cpu"
done
# Each loop of a tracer session runs RUNS timed runs and one profiled run
expected=$((traced * runs + $(profiled "$traced")))
# The command a tracer session runs (bpftrace -c wants an absolute path)
self="/bin/bash $host/guest.sh loops $traced $runs"
T=/sys/kernel/tracing
mountpoint -q $T || mount -t tracefs tracefs $T
# Where perf looks for a module's symbols (it searches /lib/modules of
# the running kernel for NAME.ko): without this, profiles show bare
# addresses for the functions of the bench module and the SystemTap
# sessions, which load from there too.
modules=/lib/modules/$(uname -r)/extra
mkdir -p "$modules"
cp "$host"/*.ko "$modules/"
insmod "$modules/markers_bench.ko"
label() { echo "label $*" >>"$raw"; }
note() { echo "note $*" >>"$raw"; }

echo "== bad input: refused, nothing run"
for bad in "nosuch 10" "baseline 0" "baseline 1000000001" "baseline -1" "baseline" \
	"baseline 18446744073709551616" "baseline 10abc" "$(printf 'baseline %070d' 1)"; do
	if printf '%s' "$bad" >"$run_file" 2>/dev/null; then
		echo "bench: accepted bad input '$bad'"
	else
		echo "bench: refused bad input '$bad'"
	fi
done

echo "== an off marker does not evaluate its arguments"
# evaluated_by LOOP: how often the marker's argument ran in one run of LOOP
evaluated_by() {
	local before
	before=$(cat /sys/kernel/debug/markers_bench/evaluated)
	echo "$1 $iterations" >"$run_file"
	echo $(($(cat /sys/kernel/debug/markers_bench/evaluated) - before))
}
note
note "arguments of a marker that is off: evaluated $(evaluated_by marker-args) times in $iterations iterations"
note "the same marker with an empty probe: evaluated $(evaluated_by marker-args-probe) times in $iterations iterations"

echo "== no tracer: baseline, NOP, marker and tracepoint off, and with empty probes"
label baseline 'the loop, no instrumentation point'
label nop5 'the loop with a 5-byte NOP (the physical floor)'
label marker-off 'trace_mark(), no probe: a NOP'
label tracepoint-off 'a TRACE_EVENT tracepoint, no probe: a NOP'
label marker-probe 'trace_mark() + an empty in-kernel probe'
label tracepoint-probe 'the tracepoint + an empty in-kernel probe'
label callee 'the loop calling a small noinline function that holds no site'
label callee-marker-off 'the same function holding an off trace_mark(): what the site costs its function'
label callee-tracepoint-off 'the same function holding an off tracepoint'
bash "$host/guest.sh" loops "$iterations" "$runs" notracer baseline:baseline nop5:nop5 marker-off:marker \
	tracepoint-off:tracepoint marker-probe:marker-probe tracepoint-probe:tracepoint-probe \
	callee:callee callee-marker-off:callee-marker callee-tracepoint-off:callee-tracepoint

echo "== two runs of one loop agree"
# Under instruction counting two runs of one loop count the same
# instructions, give or take what the other CPU runs meanwhile (the
# clock counts the instructions of both: a tick of the other CPU during
# a run put one 1.02 % above the other in a CI run); the bench's test
# holds them to 1 %. What the other CPU runs only adds, so each of the
# two is the least of three runs. A fixed size, as make check's quick
# runs are too short to say anything.
two_runs() { # LOOP: the clock's count for each of two runs, on one line
	taskset -p -c "$bench_cpu" "$BASHPID" >/dev/null
	for _ in 1 2; do
		for _ in 1 2 3; do
			echo "$1 100000" >"$run_file"
			awk '{ print $3 }' "$run_file"
		done | sort -n | head -n 1
	done | paste -s -d ' '
}
for loop in baseline marker marker-probe tracepoint-probe; do
	ab=$(two_runs "$loop")
	a=${ab% *} b=${ab#* }
	note "two runs of $loop, 100000 iterations each, the least of 3: $a and $b, $(awk -v a="$a" -v b="$b" \
		'BEGIN { d = a - b; if (d < 0) d = -d; printf "%.3f", 100 * d / (a < b ? a : b) }') % apart"
done

# A tracer's count: "count METHOD EXPECTED COUNTED"
count() { echo "count $1 $expected ${2:-missing}" >>"$raw"; }

# Every tracer session below attaches to the marker, the tracepoint and a
# kprobe on the kprobed loop's callee at once; each fires only in its own
# loop, so the session's rounds time all three side by side.
echo "== SystemTap: kernel.mark, kernel.trace and a kprobe in one session"
label stap-mark 'SystemTap kernel.mark("bench_marker") { n++ }'
label stap-trace 'SystemTap kernel.trace("bench_tracepoint") { n++ }'
label stap-kprobe 'SystemTap kprobe.module("markers_bench").function("bench_kprobed_work") { n++ }'
staprun -c "$self stap stap-mark:marker stap-trace:tracepoint stap-kprobe:kprobed" \
	"$modules/bench_stap_events.ko" >/tmp/stap.out
cat /tmp/stap.out
count stap-mark "$(sed -n 's/^marker \([0-9]*\)$/\1/p' /tmp/stap.out)"
count stap-trace "$(sed -n 's/^tracepoint \([0-9]*\)$/\1/p' /tmp/stap.out)"
count stap-kprobe "$(sed -n 's/^kprobe \([0-9]*\)$/\1/p' /tmp/stap.out)"

echo "== bpftrace: the marker's trace event, the tracepoint and a kprobe in one session"
label bpftrace-marker 'bpftrace tracepoint:markers:bench_marker { @n = count() }'
label bpftrace-tracepoint 'bpftrace tracepoint:markers_bench:bench_tracepoint { @n = count() }'
label bpftrace-kprobe 'bpftrace kprobe:bench_kprobed_work { @n = count() }'
bpftrace -e 'tracepoint:markers:bench_marker { @marker = count(); }
	tracepoint:markers_bench:bench_tracepoint { @tracepoint = count(); }
	kprobe:bench_kprobed_work { @kprobe = count(); }' \
	-c "$self bpftrace bpftrace-marker:marker bpftrace-tracepoint:tracepoint bpftrace-kprobe:kprobed" >/tmp/bt.out
cat /tmp/bt.out
count bpftrace-marker "$(sed -n 's/^@marker: //p' /tmp/bt.out)"
count bpftrace-tracepoint "$(sed -n 's/^@tracepoint: //p' /tmp/bt.out)"
count bpftrace-kprobe "$(sed -n 's/^@kprobe: //p' /tmp/bt.out)"

# perf and ftrace reach a kprobe through a kprobe event
echo 'p:bench_kprobes/bench_kprobed markers_bench:bench_kprobed_work' >>$T/kprobe_events

echo "== perf: counting the marker's trace event, the tracepoint and a kprobe in one session"
label perf-marker 'perf stat -e markers:bench_marker'
label perf-tracepoint 'perf stat -e markers_bench:bench_tracepoint'
label perf-kprobe 'perf stat -e bench_kprobes:bench_kprobed (a kprobe event on bench_kprobed_work)'
# shellcheck disable=SC2086 # $self is a command line
perf stat -x, -a -e markers:bench_marker,markers_bench:bench_tracepoint,bench_kprobes:bench_kprobed \
	-o /tmp/perf.out -- $self perf perf-marker:marker perf-tracepoint:tracepoint perf-kprobe:kprobed
cat /tmp/perf.out
count perf-marker "$(sed -n 's/^\([0-9]*\),,markers:bench_marker.*/\1/p' /tmp/perf.out)"
count perf-tracepoint "$(sed -n 's/^\([0-9]*\),,markers_bench:bench_tracepoint.*/\1/p' /tmp/perf.out)"
count perf-kprobe "$(sed -n 's/^\([0-9]*\),,bench_kprobes:bench_kprobed.*/\1/p' /tmp/perf.out)"

echo "== ftrace: each event recorded into a ring buffer of its own, in one session"
label ftrace-marker 'ftrace: events/markers/bench_marker enabled'
label ftrace-tracepoint 'ftrace: events/markers_bench/bench_tracepoint enabled'
label ftrace-kprobe 'ftrace: events/bench_kprobes/bench_kprobed enabled (a kprobe event)'
# One trace instance per event: each instance's buffer counts its own
# event (entries + overrun, summed over the CPUs), and recording into an
# instance costs what recording into the top-level buffer does.
ftrace_events="ftrace-marker:markers/bench_marker ftrace-tracepoint:markers_bench/bench_tracepoint
	ftrace-kprobe:bench_kprobes/bench_kprobed"
for pair in $ftrace_events; do
	mkdir "$T/instances/${pair%%:*}"
	echo 1 >"$T/instances/${pair%%:*}/events/${pair#*:}/enable"
done
bash "$host/guest.sh" loops "$traced" "$runs" ftrace \
	ftrace-marker:marker ftrace-tracepoint:tracepoint ftrace-kprobe:kprobed
for pair in $ftrace_events; do
	echo 0 >"$T/instances/${pair%%:*}/events/${pair#*:}/enable"
	count "${pair%%:*}" "$(cat "$T/instances/${pair%%:*}"/per_cpu/cpu*/stats |
		awk '/^entries:|^overrun:/ { n += $2 } END { print n }')"
	rmdir "$T/instances/${pair%%:*}"
done
echo '-:bench_kprobes/bench_kprobed' >>$T/kprobe_events

# median_of_3 CMD...: CMD prints a time in nanoseconds; the median of
# three runs of it, in seconds
median_of_3() {
	for _ in 1 2 3; do "$@"; done | sort -n | sed -n 2p | awk '{ printf "%.2f\n", $1 / 1e9 }'
}
# elapsed_ns CMD...: how long CMD took, in nanoseconds
elapsed_ns() {
	local start
	start=$(date +%s%N)
	"$@"
	echo $(($(date +%s%N) - start))
}

if [ "$timings" = timings ]; then
	echo "== start-up and exit of the tracers"
	bpftrace_once() {
		bpftrace -e 'tracepoint:markers:bench_marker { @n = count(); }' -c /bin/true >/dev/null 2>&1
	}
	echo "time bpftrace-startup $(median_of_3 elapsed_ns bpftrace_once) bpftrace start, attach to markers:bench_marker, run /bin/true, exit (median of 3)" >>"$raw"
	# With job control, staprun gets a process group of its own and SIGINT
	# as at a terminal (a plain background job ignores it).
	stap_all_markers_exit() {
		local stap start
		set -m
		staprun "$host/bench_stap_all.ko" >/tmp/stap_all.out 2>&1 &
		stap=$!
		set +m
		for _ in $(seq 300); do
			grep -q '^ready$' /tmp/stap_all.out && break
			sleep 0.1
		done
		start=$(date +%s%N)
		kill -INT "$stap"
		wait "$stap" || true
		echo $(($(date +%s%N) - start))
	}
	echo "time stap-exit $(median_of_3 stap_all_markers_exit) SystemTap session on kernel.mark(\"*\") ($(grep -c . /sys/kernel/debug/markers/list) markers): Ctrl-C to exit (median of 3)" >>"$raw"
fi
# Written last, of the runs recorded: one_run records a run only after the
# module said it ran on CPU $bench_cpu, and stops the session otherwise
note
note "every timed run ran on CPU $bench_cpu alone ($(grep -c '^run ' "$raw") runs; taskset, and the module reports the CPU of each run)"
echo "== done"
