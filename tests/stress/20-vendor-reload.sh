#!/bin/bash
# The vendor module comes and goes under one SystemTap session: the
# session starts with acme_xa not loaded and stays attached while the
# module is loaded, runs a fixed number of commands and is unloaded,
# over and over (KM_STRESS=full: 100 times; else 20). Each load, the
# markers reconnect to the session's probes (listed on, 1 probe); at the
# end the session counted exactly the commands of all the loads, every
# load and unload of acme_xa (the core markers module_load and
# module_unload), and the markers are gone with the module.
# shellcheck disable=SC2016 # $arg1 is SystemTap's; $vars in the workload are the guest's
# shellcheck source=tests/stress/lib.sh
. "$(dirname "$0")/lib.sh"

if [ "${KM_STRESS:-}" = full ]; then cycles=100 timeout=7200; else cycles=20 timeout=1800; fi
commands=50

cat >"$scratch/reload.stp" <<'STP'
global submits, completes, loads, unloads
probe kernel.mark("acme_cmd_submit") { submits++ }
probe kernel.mark("acme_cmd_complete") { completes++ }
probe kernel.mark("module_load") { if ($arg1 == "acme_xa") loads++ }
probe kernel.mark("module_unload") { if ($arg1 == "acme_xa") unloads++ }
probe end { printf("stap: submits=%d completes=%d loads=%d unloads=%d\n", submits, completes, loads, unloads) }
STP

# The workload, in the guest, once the session is attached: every cycle
# loads the module, looks at its submit marker in the list, runs exactly
# $commands commands (their own count added up as acmectl reports it) and
# unloads it.
workload='L=/sys/kernel/debug/markers/list
loads=0 unloads=0 reconnected=0 ran=0 failed_runs=0
for _ in $(seq '$cycles'); do
	modprobe acme_xa || break
	loads=$((loads + 1))
	grep -qP "^acme_cmd_submit\tacme_xa\t.*\ton\t1\$" $L && reconnected=$((reconnected + 1))
	if out=$(acmectl run --count '$commands' --threads 2); then
		ran=$((ran + $(printf "%s\n" "$out" | sed -n "s/^completed=//p")))
	else
		failed_runs=$((failed_runs + 1))
	fi
	rmmod acme_xa && unloads=$((unloads + 1))
done
echo "cycles: loads=$loads unloads=$unloads reconnected=$reconnected ran=$ran failed_runs=$failed_runs"
echo "listed after: $(grep -c "^acme_" $L)"'

start=$(date +%s)
status=0
"$project_dir/stap-scripts/run" --no-driver --timeout "$timeout" "$scratch/reload.stp" -- "$workload" \
	>"$scratch/out" 2>"$scratch/err" || status=$?
took=$(($(date +%s) - start))
sed 's/^/# /' "$scratch/out" "$scratch/err"
stress_outputs+=("$scratch/err")
expected=$((cycles * commands))

check "the session ran and ended cleanly (exit $status, $took s)" [ "$status" = 0 ]
check "acme_xa was loaded $cycles times ($(kv cycles loads))" [ "$(kv cycles loads)" = "$cycles" ]
check "... and unloaded $cycles times ($(kv cycles unloads))" [ "$(kv cycles unloads)" = "$cycles" ]
check "each load, acme_cmd_submit was on with the session's probe ($(kv cycles reconnected) of $cycles)" \
	[ "$(kv cycles reconnected)" = "$cycles" ]
check "every workload ran all its commands ($(kv cycles ran) of $expected, failed runs: $(kv cycles failed_runs))" \
	[ "$(kv cycles ran)/$(kv cycles failed_runs)" = "$expected/0" ]
check "the session counted every submit ($(kv stap submits) of $expected)" [ "$(kv stap submits)" = "$expected" ]
check "... and every completion ($(kv stap completes) of $expected)" [ "$(kv stap completes)" = "$expected" ]
check "... and every load and unload of acme_xa through the core markers ($(kv stap loads), $(kv stap unloads))" \
	[ "$(kv stap loads)/$(kv stap unloads)" = "$cycles/$cycles" ]
check "no acme marker is listed once the module is gone" has 'listed after: 0'
figure "vendor reload: $(kv cycles loads) loads and unloads under one stap session, reconnected $(kv cycles reconnected), submits expected $expected counted $(kv stap submits), completions counted $(kv stap completes), in $took s"
finish
