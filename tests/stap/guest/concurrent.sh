#!/bin/bash
# The guest half of tests/stap/30-concurrent.sh: two SystemTap sessions on
# the same markers at once. Session one (count_one.ko) runs in the
# background; session two (count_two.ko) runs the workload once both are
# connected (acme_cmd_submit on with 2 probes). Prints the markers list
# during and after, and what each session printed, in "== " sections.
#   concurrent.sh COMMANDS    (in /mnt/host: count_one.ko, count_two.ko)
set -u
commands=$1
cd /mnt/host || exit 1
modprobe acme_xa || exit 1
# What runs under session two, once both are connected
cat >/tmp/during.sh <<DURING
for i in \$(seq 300); do
	grep -qP '^acme_cmd_submit\t.*\ton\t2\$' /sys/kernel/debug/markers/list && break
	sleep 0.1
done
grep -P '^acme_cmd_submit\t' /sys/kernel/debug/markers/list >/tmp/list.during
acmectl run --count $commands --threads 2 >/dev/null
DURING
staprun count_one.ko >/tmp/one.out 2>&1 &
one=$!
staprun -c "bash /tmp/during.sh" count_two.ko >/tmp/two.out 2>&1
kill -INT "$one"
wait "$one"
echo "== list during"; cat /tmp/list.during
echo "== one"; cat /tmp/one.out
echo "== two"; cat /tmp/two.out
echo "== list after"; grep -P "^acme_cmd_submit\t" /sys/kernel/debug/markers/list
echo "== done"
