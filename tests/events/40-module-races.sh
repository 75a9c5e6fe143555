#!/bin/bash
# Enabling the events of a module that is coming and going: the proprietary
# driver is loaded and unloaded in a loop while ftrace enables and disables
# its event and perf opens it; an enable file held open across the unload
# refuses writes afterwards, a format file held open refuses reads (the
# event's memory is gone with the module), and so do a trigger file and
# a filter file; opens of the event's files race the unload in a loop
# (KM_STRESS=full: 60 s, else 15 s); then the module is loaded once more
# and its event counts exactly. No kernel report (the guest fails on any),
# no stale event.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

# An open whose path walk found the file before the unload reaches
# ->open() after it; under KASAN that window showed as a use-after-free
# within about 30 s of this loop.
if [ "${KM_STRESS:-}" = full ]; then race_seconds=60; else race_seconds=15; fi

guest_status=0
# shellcheck disable=SC2016 # expanded by the guest's shell
"$vm" run -- env RACE_SECONDS=$race_seconds bash -c '
	E=/sys/kernel/tracing/events/markers/acme_cmd_submit
	echo "== cycles"
	(
		# Each round a load of a module that was not there (modprobe of a
		# loaded module does nothing and exits 0) and its unload: perf
		# may hold the module, then rmmod tries again until it lets go
		loaded() { grep -q "^acme_xa " /proc/modules; }
		loads=0 unloads=0
		for _ in $(seq 40); do
			! loaded && modprobe acme_xa && loaded && loads=$((loads + 1))
			acmectl run --count 5 >/dev/null 2>&1
			for _ in $(seq 600); do
				rmmod acme_xa 2>/dev/null && break
				sleep 0.05
			done
			loaded || unloads=$((unloads + 1))
		done
		echo "loads: $loads"
		echo "unloads: $unloads"
	) &
	cycler=$!
	enables=0 perf_runs=0
	while kill -0 $cycler 2>/dev/null; do
		echo 1 2>/dev/null >$E/enable && enables=$((enables + 1))
		echo 0 2>/dev/null >$E/enable
		perf stat -e markers:acme_cmd_submit -a -- sleep 0.02 >/dev/null 2>&1 && perf_runs=$((perf_runs + 1))
	done
	wait $cycler
	echo "enables during cycles: $enables"
	echo "perf runs during cycles: $perf_runs"
	rmmod acme_xa 2>/dev/null
	echo "== held open"
	modprobe acme_xa
	exec 3>$E/enable
	rmmod acme_xa && echo "rmmod with the enable file open: ok"
	if echo 1 >&3; then echo "write after unload: accepted"; else echo "write after unload: refused"; fi
	exec 3>&-
	echo "stale acme events: $(grep -c "^markers:acme_" /sys/kernel/tracing/available_events)"
	echo "== format held open"
	modprobe acme_xa
	exec 4<$E/format
	rmmod acme_xa && echo "rmmod with the format file open: ok"
	if cat <&4 >/tmp/format.late 2>/tmp/format.err; then
		echo "format read after unload: $(wc -l </tmp/format.late) lines"
	else
		echo "format read after unload: refused, $(sed "s/.*: //" /tmp/format.err)"
	fi
	exec 4<&-
	echo "== trigger and filter held open"
	modprobe acme_xa
	exec 5<$E/trigger 6>$E/filter
	rmmod acme_xa && echo "rmmod with the trigger and filter files open: ok"
	if cat <&5 >/dev/null 2>/tmp/trigger.err; then
		echo "trigger read after unload: accepted"
	else
		echo "trigger read after unload: refused, $(sed "s/.*: //" /tmp/trigger.err)"
	fi
	if echo "opcode == 1" >&6 2>/tmp/filter.err; then
		echo "filter write after unload: accepted"
	else
		echo "filter write after unload: refused, $(sed "s/.*: //" /tmp/filter.err)"
	fi
	exec 5<&- 6>&-
	echo "== opens racing the unload"
	modprobe acme_xa
	opener() {
		local end=$((SECONDS + RACE_SECONDS)) opens=0 refused=0
		while [ $SECONDS -lt $end ]; do
			# an empty file (hist, with no trigger) reads nothing
			if { read -r _ || true; } <"$E/$1" 2>/dev/null; then
				opens=$((opens + 1))
			else
				refused=$((refused + 1))
			fi
		done
		echo "race opens of $1: $opens"
		echo "race refusals of $1: $refused"
	}
	for f in format enable trigger hist; do opener $f & done
	reloads=0
	end=$((SECONDS + RACE_SECONDS))
	while [ $SECONDS -lt $end ]; do
		rmmod acme_xa && modprobe acme_xa && reloads=$((reloads + 1))
	done
	wait
	echo "race reloads: $reloads"
	rmmod acme_xa
	echo "== again"
	modprobe acme_xa
	echo "enabled after reload: $(cat $E/enable)"
	echo 1 >$E/enable
	echo >/sys/kernel/tracing/trace
	acmectl run --count 33 >/dev/null
	echo "submits recorded: $(grep -c "acme_cmd_submit: id" /sys/kernel/tracing/trace)"
	echo 0 >$E/enable
	rmmod acme_xa && echo "final rmmod: ok"
	echo "== done"' >"$scratch/out" 2>&1 || guest_status=$?
sed 's/^/# /' "$scratch/out"
o=$scratch/out
has() { grep -qxF -- "$1" "$o"; }
n_of() { sed -n "s/^$1: //p" "$o"; }

check "the module was loaded 40 times while tracers came and went, each time after an unload ($(n_of loads))" has 'loads: 40'
check "... and unloaded after each load ($(n_of unloads) times)" has 'unloads: 40'
check "ftrace enabled its event during the cycles ($(n_of 'enables during cycles') times)" \
	[ "$(n_of 'enables during cycles')" -ge 1 ]
check "perf opened its event during the cycles ($(n_of 'perf runs during cycles') times)" \
	[ "$(n_of 'perf runs during cycles')" -ge 1 ]
check "the module unloads while its enable file is open" has 'rmmod with the enable file open: ok'
check "... and a write to that file afterwards is refused" has 'write after unload: refused'
check "... and no acme event is left in available_events" has 'stale acme events: 0'
check "the module unloads while its format file is open" has 'rmmod with the format file open: ok'
check "... and a read of that file afterwards is refused ($(n_of 'format read after unload'))" \
	has 'format read after unload: refused, No such device'
check "the module unloads while its trigger and filter files are open" \
	has 'rmmod with the trigger and filter files open: ok'
check "... and a read of the trigger file afterwards is refused ($(n_of 'trigger read after unload'))" \
	has 'trigger read after unload: refused, No such device'
check "... and a write to the filter file afterwards is refused ($(n_of 'filter write after unload'))" \
	has 'filter write after unload: refused, No such device'
check "the module was unloaded and loaded again while its files were opened ($(n_of 'race reloads') times)" \
	[ "$(n_of 'race reloads')" -ge 1 ]
for f in format enable trigger hist; do
	check "... and its $f file was opened in between ($(n_of "race opens of $f") opens, $(n_of "race refusals of $f") refused)" \
		[ "$(n_of "race opens of $f")" -ge 1 ]
done
figure "open races: $(n_of 'race reloads') unloads and reloads in ${race_seconds} s against opens of 4 files of the event"
check "loaded again, the event is there and disabled" has 'enabled after reload: 0'
check "... and records exactly the 33 submits" has 'submits recorded: 33'
check "... and the module unloads" has 'final rmmod: ok'
check "the guest run finished" has '== done'
check "... with no kernel report (guest exit $guest_status)" [ "$guest_status" = 0 ]
finish
