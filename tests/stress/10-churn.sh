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
# marker listing at the end is the one of before. The guest checks itself
# and prints KTAP (tests/stress/guest/churn.sh).
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
guest_ktap "$scratch/out"
check "the guest ran to the end, with no kernel report (exit $guest_status)" [ "$guest_status" = 0 ]
asked=$(kv 'churn asked' asked)
ran=$(($(kv vendor ran) + $(kv sessions ran)))
figure "churn: $(kv churn cycles) register/unregister cycles of $asked asked, failures $(kv churn failures), ticks $(kv churn tick_hits); $(kv sessions ended) of $sessions stap sessions exact $(kv sessions exact); submits expected $ran counted $(kv held acme_cmd_submit); core opens $(kv core opens) counted $(kv fs_open opens); in $took s"
finish
