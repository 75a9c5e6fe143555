#!/bin/bash
# A seeded randomized campaign on the marker events (issue 38): a
# generator in the guest (tests/events/guest/random-campaign.sh) draws a
# fixed number of operations from a weighted table, with a PRNG seeded
# per run, and does them one after the other in one guest boot per seed:
# loads and unloads of the modules that own marker events (the twins that
# share markers:test_twin, acme_xa, markers_events, markers_prop in even
# seeds) and of a stock module's events (trace-events-sample), concurrent
# unloads, a twin's exit() firing as it goes; enables, filters, triggers
# (traceon/traceoff, enable_event/disable_event and their soft mode, hist,
# a variable ts0 read by another event, onmatch actions into a synthetic
# event) at the top level and in an instance, event files held open,
# policy flips, probes held by markers_churn, perf, bpftrace and
# SystemTap sessions (a module cross-compiled here, run with staprun)
# started and stopped in the background. Failing operations are expected;
# the kernel must report nothing (BUG, WARNING, lockdep, KASAN, kmemleak:
# guest-image/vm fails the run) and nothing may hang. After each seed's
# cleanup the guest checks itself (KTAP): nothing enabled or triggered, no
# module left, no markers event without its module, the markers list as
# at boot, a fresh twin and acme_xa counting exactly.
#
# Scale: KM_STRESS=full (make check-debug) 3 seeds of 300 operations,
# else 2 seeds of 40 (make check: about a minute). make check's seeds
# are 1 and 2, always; check-debug's are the day's (YYYYMMDD01, 02, ...),
# so a day's runs repeat each other and each day explores new sequences;
# KM_SEED="S ..." runs those seeds instead, KM_OPS=N that many operations
# per seed. Each seed's figure ends with its replay command. A seed fixes
# the sequence of operations, not their timing (background tracers).
# timeout: 10800
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

[ -e "$mods/markers_twin_a.ko" ] || die "no test modules; run tests/modules/build"
if [ "${KM_STRESS:-}" = full ]; then
	scale=full seeds_default=3 ops_default=300
else
	scale=reduced seeds_default=2 ops_default=40
fi
ops=${KM_OPS:-$ops_default}
case $ops in '' | *[!0-9]* | 0) die "KM_OPS is a number of operations, not '$ops'" ;; esac
if [ -n "${KM_SEED:-}" ]; then
	read -r -a seeds <<<"${KM_SEED//,/ }"
elif [ "$scale" = reduced ]; then
	# make check's seeds are fixed: the same commit runs the same
	# operations on every machine and every day
	seeds=(1 2)
else
	day=$(date -u +%Y%m%d)
	seeds=()
	for i in $(seq "$seeds_default"); do seeds+=("$day$(printf %02d "$i")"); done
fi
for s in "${seeds[@]}"; do
	case $s in '' | *[!0-9]*) die "KM_SEED holds seeds (numbers), not '$s'" ;; esac
done
# How to replay a seed, on this kernel and at this scale
if [ "${KM_FLAVOUR:-main}" = debug ]; then
	replay_env="KM_STRESS=$scale" replay_cmd="tests/check-debug events/70-random-campaign"
else
	replay_env="KM_STRESS=$scale" replay_cmd="tests/run events/70-random-campaign"
fi
[ "$ops" = "$ops_default" ] || replay_env+=" KM_OPS=$ops"
echo "# seeds: ${seeds[*]} ($ops operations each, KM_STRESS=$scale, ${KM_FLAVOUR:-main} kernel $release)"

share=$scratch/share
mkdir -p "$share"
for m in markers_twin_a markers_twin_b markers_events markers_churn markers_prop; do
	cp "$mods/$m.ko" "$share/"
done
# The SystemTap session's module, cross-compiled for the guest's kernel
# (its markers must be in the view's Module.markers: acme_xa's and
# markers_prop's are, the twins' are not)
cat >"$share/km_campaign.stp" <<'STP'
global hits, all
probe kernel.mark("acme_cmd_submit"), kernel.mark("acme_irq"), kernel.mark("test_prop_args") {
	hits[$name]++
	all++
}
probe end {
	foreach (n in hits) printf("stap %s %d\n", n, hits[n])
	printf("stap: %d hits\n", all)
}
STP
(cd "$share" && "$vm" chroot -- stap -r "$kbuild" -p4 -m km_campaign km_campaign.stp) >"$scratch/stap.log" 2>&1 || true
if [ -s "$share/km_campaign.ko" ]; then
	ok "the SystemTap session's module compiles (stap -r -p4)"
else
	sed 's/^/# /' "$scratch/stap.log"
	not_ok "the SystemTap session's module compiles (stap -r -p4): the campaign runs without SystemTap sessions"
fi

# Seconds a seed may take: TCG, and KASAN with lockdep on the debug kernel
if [ "${KM_FLAVOUR:-main}" = debug ]; then per_op=8; else per_op=3; fi
guest_timeout=$((300 + ops * per_op))

# The host's checks of a seed's run: every operation logged and the guest's
# count of them; its exit status and its last line
ran_all() { [ "${last:-0}" = "$ops" ] && [ "$said" = "$ops of $ops ops ran" ]; }
ended_clean() { [ "$guest_status" = 0 ] && grep -qx "# campaign: seed $seed: done" "$out"; }

for seed in "${seeds[@]}"; do
	out=$scratch/out.$seed
	start=$(date +%s)
	guest_status=0
	"$vm" run --share "$share" --timeout "$guest_timeout" -- \
		bash -c "$(guest_half random-campaign)" random-campaign "$seed" "$ops" >"$out" 2>&1 || guest_status=$?
	took=$(($(date +%s) - start))
	guest_ktap "$out"
	last=$(sed -n 's/^# op \([0-9]*\): .*/\1/p' "$out" | tail -n 1)
	last_op=$(grep '^# op [0-9]*: ' "$out" | tail -n 1)
	said=$(sed -n "s/^# campaign: seed $seed: \([0-9]* of [0-9]* ops ran\).*/\1/p" "$out")
	check "seed $seed: the $ops operations ran to the end (last logged: ${last:-none}; the guest says: ${said:-nothing})" \
		ran_all
	check "seed $seed: the guest ran to its end, the kernel reported nothing (exit $guest_status)" \
		ended_clean
	if [ "$guest_status" != 0 ]; then
		echo "# seed $seed failed during or after: ${last_op:-no operation}"
		grep -o 'console log: [^)]*' "$out" | sed 's/^/# the guest'"'"'s /' || true
	fi
	figure "random campaign: seed $seed, $(sed -n "s/^# campaign: seed $seed: \(.*\)/\1/p" "$out" | head -n 1); guest $took s; replay: KM_SEED=$seed $replay_env $replay_cmd"
done
finish
