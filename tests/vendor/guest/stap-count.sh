#!/bin/bash
# The guest half of tests/vendor/30-stap-count.sh (run there as
# bash -c "$(guest_half stap-count)" stap-count COMMANDS THREADS PROBE...):
# the counting script acme_count.ko (in /mnt/host) runs under staprun
# while acmectl submits COMMANDS commands from THREADS threads, and is
# checked against acmectl's count and latencies; then the driver's
# counters; then native stap -L in the guest, checked for each PROBE
# (kernel.mark("NAME").format("FORMAT"), one per acme marker of the
# host's Module.markers). Checks itself and prints KTAP, plan first;
# scratch files go to /tmp.
set -u
commands=$1 threads=$2
shift 2
echo "1..$((9 + $#))"
# kv FILE KEY: the value of the line KEY=VALUE of FILE
kv() { sed -n "s/^$2=//p" "$1"; }
same_count() { [[ $1 =~ ^[0-9]+$ ]] && [ "$1" = "$2" ]; }
above() { [[ $1 =~ ^[0-9]+$ ]] && [ "$1" -gt "$2" ]; }
cd /mnt/host || echo "# cannot enter /mnt/host: the checks below fail"
modprobe acme_xa || echo "# modprobe acme_xa failed: the checks below fail"

staprun -c "acmectl run --count $commands --threads $threads --seed 3" acme_count.ko >/tmp/count 2>/tmp/count.err
echo "# staprun acme_count.ko: exit $?"
sed 's/^/# count: /' /tmp/count /tmp/count.err
c=/tmp/count
check "acmectl ran $commands commands under the stap script" [ "$(kv $c completed)" = "$commands" ]
check "stap counted exactly $commands acme_cmd_submit hits" [ "$(kv $c stap_submits)" = "$commands" ]
check "stap counted exactly $commands acme_cmd_complete hits" [ "$(kv $c stap_completes)" = "$commands" ]
check "no completion had an error status" [ "$(kv $c stap_errors)" = 0 ]
check "the queue depth seen at submit went above 1 with $threads threads ($(kv $c stap_depth_max))" \
	above "$(kv $c stap_depth_max)" 1
# The marker's latency is the one WAIT hands to acmectl: the extremes agree
check "min latency from the marker = acmectl's ($(kv $c stap_latency_min_ns) ns)" \
	same_count "$(kv $c stap_latency_min_ns)" "$(kv $c latency_min_ns)"
check "max latency from the marker = acmectl's ($(kv $c stap_latency_max_ns) ns)" \
	same_count "$(kv $c stap_latency_max_ns)" "$(kv $c latency_max_ns)"

acmectl stats >/tmp/stats 2>&1
sed 's/^/# stats: /' /tmp/stats
check "the driver's stats agree: submitted=$(kv /tmp/stats submitted)" [ "$(kv /tmp/stats submitted)" = "$commands" ]
check "the driver's stats agree: completed=$(kv /tmp/stats completed)" [ "$(kv /tmp/stats completed)" = "$commands" ]
rmmod acme_xa
modprobe acme_xa

stap -L 'kernel.mark("acme_*")' >/tmp/native 2>/tmp/native.err
sed 's/^/# native: /' /tmp/native /tmp/native.err
for probe in "$@"; do
	name=${probe#kernel.mark(\"}
	check "native stap -L in the guest lists ${name%%\"*}" grep -qF "$probe" /tmp/native
done
