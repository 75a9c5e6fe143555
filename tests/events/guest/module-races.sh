#!/bin/bash
# In the guest (env RACE_SECONDS=N): acme_xa loaded and unloaded in a loop
# while ftrace and perf use its event; its event files held open across an
# unload; opens of them racing unloads for N seconds; then one more load
# that must count exactly. Checks itself and prints KTAP, plan first; what
# it counted goes out as plain "what: value" lines ("loads: 40", "write
# after unload: refused", "race opens of FILE: N", "race reloads: N", the
# line the host's figure reads, ...).
set -u
E=/sys/kernel/tracing/events/markers/acme_cmd_submit
# at_least_1 N: N is a number above 0
at_least_1() { [[ $1 =~ ^[1-9][0-9]*$ ]]; }
# value WHAT FILE: the value of the line "WHAT: value" in FILE
value() { sed -n "s/^$1: //p" "$2"; }
echo "1..20"
if [ -z "${RACE_SECONDS:-}" ]; then
	echo "RACE_SECONDS is not set: racing for 15 s"
	RACE_SECONDS=15
fi

# cycles
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
) >/tmp/cycles.out &
cycler=$!
enables=0 perf_runs=0
while kill -0 $cycler 2>/dev/null; do
	echo 1 2>/dev/null >$E/enable && enables=$((enables + 1))
	echo 0 2>/dev/null >$E/enable
	perf stat -e markers:acme_cmd_submit -a -- sleep 0.02 >/dev/null 2>&1 && perf_runs=$((perf_runs + 1))
done
wait $cycler
cat /tmp/cycles.out
loads=$(value loads /tmp/cycles.out)
unloads=$(value unloads /tmp/cycles.out)
check "the module was loaded 40 times while tracers came and went, each time after an unload ($loads)" [ "$loads" = 40 ]
check "... and unloaded after each load ($unloads times)" [ "$unloads" = 40 ]
echo "enables during cycles: $enables"
check "ftrace enabled its event during the cycles ($enables times)" at_least_1 "$enables"
echo "perf runs during cycles: $perf_runs"
check "perf opened its event during the cycles ($perf_runs times)" at_least_1 "$perf_runs"
rmmod acme_xa 2>/dev/null

# held open
modprobe acme_xa
exec 3>$E/enable
check "the module unloads while its enable file is open" rmmod acme_xa
if echo 1 >&3; then result=accepted; else result=refused; fi
echo "write after unload: $result"
check "... and a write to that file afterwards is refused" [ "$result" = refused ]
exec 3>&-
stale=$(grep -c "^markers:acme_" /sys/kernel/tracing/available_events)
echo "stale acme events: $stale"
check "... and no acme event is left in available_events" [ "$stale" = 0 ]

# format held open
modprobe acme_xa
exec 4<$E/format
check "the module unloads while its format file is open" rmmod acme_xa
if cat <&4 >/tmp/format.late 2>/tmp/format.err; then
	result="$(wc -l </tmp/format.late) lines"
else
	result="refused, $(sed "s/.*: //" /tmp/format.err)"
fi
echo "format read after unload: $result"
check "... and a read of that file afterwards is refused ($result)" [ "$result" = "refused, No such device" ]
exec 4<&-

# trigger and filter held open
modprobe acme_xa
exec 5<$E/trigger 6>$E/filter
check "the module unloads while its trigger and filter files are open" rmmod acme_xa
if cat <&5 >/dev/null 2>/tmp/trigger.err; then
	result=accepted
else
	result="refused, $(sed "s/.*: //" /tmp/trigger.err)"
fi
echo "trigger read after unload: $result"
check "... and a read of the trigger file afterwards is refused ($result)" [ "$result" = "refused, No such device" ]
if echo "opcode == 1" >&6 2>/tmp/filter.err; then
	result=accepted
else
	result="refused, $(sed "s/.*: //" /tmp/filter.err)"
fi
echo "filter write after unload: $result"
check "... and a write to the filter file afterwards is refused ($result)" [ "$result" = "refused, No such device" ]
exec 5<&- 6>&-

# opens racing the unload
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
for f in format enable trigger hist; do opener $f >/tmp/race.$f & done
reloads=0
end=$((SECONDS + RACE_SECONDS))
while [ $SECONDS -lt $end ]; do
	rmmod acme_xa && modprobe acme_xa && reloads=$((reloads + 1))
done
wait
echo "race reloads: $reloads"
check "the module was unloaded and loaded again while its files were opened ($reloads times)" at_least_1 "$reloads"
for f in format enable trigger hist; do
	cat /tmp/race.$f
	opens=$(value "race opens of $f" /tmp/race.$f)
	refusals=$(value "race refusals of $f" /tmp/race.$f)
	check "... and its $f file was opened in between ($opens opens, $refusals refused)" at_least_1 "$opens"
done
rmmod acme_xa

# again
modprobe acme_xa
enabled=$(cat $E/enable)
echo "enabled after reload: $enabled"
check "loaded again, the event is there and disabled" [ "$enabled" = 0 ]
echo 1 >$E/enable
echo >/sys/kernel/tracing/trace
acmectl run --count 33 >/dev/null
submits=$(grep -c "acme_cmd_submit: id" /sys/kernel/tracing/trace)
echo "submits recorded: $submits"
check "... and records exactly the 33 submits" [ "$submits" = 33 ]
echo 0 >$E/enable
check "... and the module unloads" rmmod acme_xa
