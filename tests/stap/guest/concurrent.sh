#!/bin/bash
# The guest half of tests/stap/30-concurrent.sh: two SystemTap sessions on
# the same markers at once. Session one (count_one.ko) runs in the
# background; session two (count_two.ko) runs the workload once both are
# connected (acme_cmd_submit on with 2 probes). Checks, each right after
# what it checks, the markers list during (on, 2 probes), that each
# session saw every one of COMMANDS submits and completions, and the list
# after (off, no probe). Checks itself and prints KTAP, plan first;
# scratch files go to /tmp.
#   concurrent.sh COMMANDS    (in /mnt/host: count_one.ko, count_two.ko)
set -u
commands=$1
echo "1..4"
cd /mnt/host || echo "# cannot enter /mnt/host: the checks below fail"
modprobe acme_xa || echo "# acme_xa does not load: the checks below fail"
# What runs under session two, once both are connected
cat >/tmp/during.sh <<DURING
for i in \$(seq 300); do
	grep -qP '^acme_cmd_submit\t.*\ton\t2\$' /sys/kernel/debug/markers/list && break
	sleep 0.1
done
grep -P '^acme_cmd_submit\t' /sys/kernel/debug/markers/list >/tmp/list.during
acmectl run --count $commands --threads 2 >/dev/null
DURING
: >/tmp/list.during
staprun count_one.ko >/tmp/one.out 2>&1 &
one=$!
staprun -c "bash /tmp/during.sh" count_two.ko >/tmp/two.out 2>&1
echo "# staprun count_two.ko: exit $?"
sed 's/^/# list during: /' /tmp/list.during
check "while both run, acme_cmd_submit is on with 2 probes" grep -qP '\ton\t2$' /tmp/list.during
kill -INT "$one"
wait "$one"
echo "# staprun count_one.ko: exit $?"
sed 's/^/# one: /' /tmp/one.out
check "session one saw all $commands submits and completions" grep -qx "submits=$commands completes=$commands" /tmp/one.out
sed 's/^/# two: /' /tmp/two.out
check "session two saw all $commands submits and completions" grep -qx "submits=$commands completes=$commands" /tmp/two.out
grep -P '^acme_cmd_submit\t' /sys/kernel/debug/markers/list >/tmp/list.after
sed 's/^/# list after: /' /tmp/list.after
check "after both ended the marker is off with no probe" grep -qP '\toff\t0$' /tmp/list.after
