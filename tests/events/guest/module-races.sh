#!/bin/bash
# In the guest (env RACE_SECONDS=N): acme_xa loaded and unloaded in a loop
# while ftrace and perf use its event; its event files held open across an
# unload; opens of them racing unloads for N seconds; then one more load
# that must count exactly. Prints "what: value" lines ("loads: 40", "write
# after unload: refused", "race opens of FILE: N", ...) under "== PART"
# lines; "== done" at the end.
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
echo "== done"
