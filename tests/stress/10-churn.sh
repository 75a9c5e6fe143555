#!/bin/bash
# Probes come and go while markers fire on every vCPU: the vendor
# workload (acmectl run, 2 threads, back to back) and a loop opening one
# file (the core marker fs_open) run throughout, while the markers_churn
# module registers and unregisters a counting probe on acme_cmd_submit,
# acme_cmd_complete, fs_open and module_load, cycle after cycle (at least
# 1000 with KM_STRESS=full, else 200, and on until the last SystemTap
# session ends), and SystemTap sessions of one script, compiled once,
# are started and stopped one after the other (full: 20, else 5), each
# around an acmectl run of its own. Checked: every churn cycle done, none
# of its registrations failed and each saw its own marker fire once;
# every session counted exactly its own command's submits; the probes
# held for the whole run counted exactly every command run (the
# workload's and the sessions') and every open of the loop's file; the
# marker listing at the end is the one of before.
# shellcheck disable=SC2016 # expanded by eval
# shellcheck source=tests/stress/lib.sh
. "$(dirname "$0")/lib.sh"

[ -e "$mods/markers_churn.ko" ] || die "no test modules; run tests/modules/build"
if [ "${KM_STRESS:-}" = full ]; then cycles=1000 sessions=20 timeout=7200; else cycles=200 sessions=5 timeout=1800; fi
session_commands=300 chunk=50

share=$scratch/share
mkdir -p "$share"
cp "$mods/markers_churn.ko" "$share/"
cat >"$share/km_churn_count.stp" <<'STP'
global submits, own
probe kernel.mark("acme_cmd_submit") {
	submits++
	if (pid() == target()) own++
}
probe end { printf("session: submits=%d own=%d\n", submits, own) }
STP
(cd "$share" && "$vm" chroot -- stap -r "$kbuild" -p4 -m km_churn_count km_churn_count.stp) >"$scratch/compile.log" 2>&1 || true
if [ -s "$share/km_churn_count.ko" ]; then ok "the session's script compiles (once)"; else
	not_ok "the session's script compiles (once)"; sed 's/^/# /' "$scratch/compile.log"; finish
fi

start=$(date +%s)
guest_status=0
"$vm" run --share "$share" --timeout "$timeout" -- bash -c "$(stress_guest_half churn)" churn "$cycles" "$sessions" "$session_commands" "$chunk" >"$scratch/out" 2>&1 || guest_status=$?
took=$(($(date +%s) - start))
sed 's/^/# /' "$scratch/out"
asked=$(kv 'churn asked' asked)
ran=$(($(kv vendor ran) + $(kv sessions ran)))

check "the churn asked for at least $cycles cycles ($asked), every write accepted (failed: $(kv 'churn asked' failed_writes))" \
	eval 'at_least "$asked" "$cycles" && [ "$(kv "churn asked" failed_writes)" = 0 ]'
check "... and did them all ($(kv churn cycles) of $asked)" same_nonzero "$(kv churn cycles)" "$asked"
check "... with no failed registration or unregistration ($(kv churn failures))" [ "$(kv churn failures)" = 0 ]
check "... each cycle's probe saw its own marker fire once ($(kv churn tick_hits) of $(kv churn cycles))" \
	same_nonzero "$(kv churn tick_hits)" "$(kv churn cycles)"
check "$sessions SystemTap sessions started and ended cleanly ($(kv sessions ended))" [ "$(kv sessions ended)" = "$sessions" ]
check "... each counted exactly its own $session_commands submits ($(kv sessions exact) of $sessions)" \
	[ "$(kv sessions exact)" = "$sessions" ]
check "the vendor workload ran throughout ($(kv vendor runs) runs, $(kv vendor ran) commands), no run failed ($(kv vendor failed_runs))" \
	eval 'at_least "$(kv vendor runs)" 1 && [ "$(kv vendor failed_runs)" = 0 ]'
check "the probe held on acme_cmd_submit counted every command run ($(kv held acme_cmd_submit) of $ran)" \
	same_nonzero "$(kv held acme_cmd_submit)" "$ran"
check "... the one on acme_cmd_complete too ($(kv held acme_cmd_complete))" same_nonzero "$(kv held acme_cmd_complete)" "$ran"
check "the sessions saw no more submits than there were ($(kv sessions submits_seen) <= $ran)" \
	eval 'at_least "$(kv sessions submits_seen)" "$(kv sessions ran)" && [ "$(kv sessions submits_seen)" -le "$ran" ]'
check "the churn's probes were connected to live markers: they counted hits ($(kv churn hits))" \
	at_least "$(kv churn hits)" 1
check "the fs_open probe counted every open of the loop ($(kv fs_open opens) of $(kv core opens))" \
	same_nonzero "$(kv fs_open opens)" "$(kv core opens)"
check "the listing at the end is the one before" has 'listing: unchanged'
check "the modules unload" has 'unloaded: ok'
check "the guest run finished" has '== done'
check "... with no kernel report (guest exit $guest_status)" [ "$guest_status" = 0 ]
figure "churn: $(kv churn cycles) register/unregister cycles of $asked asked, failures $(kv churn failures), ticks $(kv churn tick_hits); $(kv sessions ended) of $sessions stap sessions exact $(kv sessions exact); submits expected $ran counted $(kv held acme_cmd_submit); core opens $(kv core opens) counted $(kv fs_open opens); in $took s"
finish
