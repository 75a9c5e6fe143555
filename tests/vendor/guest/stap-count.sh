#!/bin/bash
# The guest half of tests/vendor/30-stap-count.sh (run there as
# bash -c "$(guest_half stap-count)" stap-count COMMANDS THREADS): the
# counting script acme_count.ko (in /mnt/host) runs under staprun while
# acmectl submits COMMANDS commands from THREADS threads; then the
# driver's counters, and what native stap -L in the guest lists. Each
# part under a "== NAME" heading for the host half; "== done" at the end.
commands=$1 threads=$2
cd /mnt/host || exit 1
modprobe acme_xa || exit 1
echo '== count'
staprun -c "acmectl run --count $commands --threads $threads --seed 3" acme_count.ko
echo '== stats'
acmectl stats
rmmod acme_xa
modprobe acme_xa
echo '== stap -L native'
stap -L 'kernel.mark("acme_*")'
echo '== done'
