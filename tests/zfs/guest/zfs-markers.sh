#!/bin/bash
# In the guest: OpenZFS (zfs.ko, CDDL, with the markers backend) on a pool
# in a file, traced through its markers by every tracer. For each tracer
# the same workload (writes and zpool syncs), with the pool's last synced
# txg (its txgs kstat) before and after ("txgs: BEFORE AFTER") and the txg
# of every zfs_txg__synced event the tracer saw ("synced N"); the host
# half checks the two agree. Then zfs_set__error for a failing zfs
# create, the policy knob, and zfs.ko force-loaded. Prints each part
# under a "== PART" line; "== done" at the end. SystemTap's modules
# (txg.ko, seterr.ko) come compiled in /mnt/host, with the pool's set-up
# (zfs/example-pool.sh), which makes the pool tank.
cd /mnt/host || exit 1
T=/sys/kernel/debug/tracing
E=$T/events/markers
knob=/sys/module/markers/parameters/proprietary
list=/sys/kernel/debug/markers/list
pool=tank
# the txg the pool synced last: state C (committed) in its txgs kstat
last_synced() { awk '$3 == "C" { t = $1 } END { print t + 0 }' "/proc/spl/kstat/zfs/$pool/txgs"; }
workload() {
	local i
	for i in 1 2 3 4 5 6; do
		dd if=/dev/urandom of="/$pool/data/f$i" bs=64k count=8 status=none
		zpool sync "$pool"
	done
}
# traced CMD...: CMD, between the pool's last synced txg before and after
# the workload it runs
traced() {
	local before
	zpool sync "$pool"
	before=$(last_synced)
	"$@"
	zpool sync "$pool"
	echo "txgs: $before $(last_synced)"
}

# perf and bpftrace run the workload as their command
{
	echo "pool=$pool"
	declare -f last_synced workload traced
	echo "traced workload"
} >/tmp/traced-workload.sh

echo "== load"
modprobe zfs
echo "zfs taint: $(cat /sys/module/zfs/taint)"
echo "spl taint: $(cat /sys/module/spl/taint)"
echo "kernel tainted: $(cat /proc/sys/kernel/tainted)"
awk -F'\t' '$2 == "zfs" || $2 == "spl" { print "marker", $1, $2, $4 }' $list | sort
bpftrace -l 'tracepoint:markers:zfs_*' | sed 's/^/listed /' | sort

echo "== pool"
sh /mnt/host/example-pool.sh
zpool list -H -o name,health "$pool"

echo "== stap"
staprun -o /tmp/stap.out txg.ko &
stap=$!
for _ in $(seq 100); do grep -q "^zfs_txg__synced	.*	on	" $list && break; sleep 0.2; done
traced workload
kill -INT $stap
wait $stap
cat /tmp/stap.out

echo "== ftrace"
zpool sync "$pool"
echo "txg > $(last_synced)" >$E/zfs_txg__synced/filter
echo 1 >$E/zfs_txg__synced/enable
echo >$T/trace
traced workload
echo 0 >$E/zfs_txg__synced/enable
echo 0 >$E/zfs_txg__synced/filter
grep -o "zfs_txg__synced: txg [0-9]*" $T/trace | sed "s/.* txg /synced /"

echo "== perf"
perf record -q -a -e markers:zfs_txg__synced -o /tmp/perf.data -- bash /tmp/traced-workload.sh
perf script -i /tmp/perf.data -F trace 2>/dev/null | sed -n "s/^ *txg \([0-9]*\).*/synced \1/p"

echo "== bpftrace"
bpftrace -e 'tracepoint:markers:zfs_txg__synced { printf("synced %llu\n", args->txg); }' \
	-c "/bin/bash /tmp/traced-workload.sh" 2>/dev/null |
	grep -E "^(synced|txgs:) "

echo "== set_error"
# zfs create of a dataset that exists is refused by libzfs, before any
# ioctl: the kernel says nothing. A rename onto it is refused by the
# kernel, with EEXIST; the marker names the function, file and line of
# the SET_ERROR that refused it. (The pool's set-up made tank/other.)
# One SystemTap session per command, so that an error is credited to
# the command that made it.
# seterr_session NAME CMD...: CMD under seterr.ko, once its probe is on;
# CMD's output as "zfs NAME says: ", the probe's as "NAME: set_error ..."
seterr_session() {
	local name=$1 attached=no stap
	shift
	staprun -o "/tmp/seterr-$name.out" seterr.ko &
	stap=$!
	for _ in $(seq 100); do
		if grep -q "^zfs_set__error	.*	on	" $list; then attached=yes; break; fi
		sleep 0.2
	done
	echo "$name: stap attached: $attached"
	"$@" 2>&1 | sed "s/^/zfs $name says: /"
	kill -INT $stap
	wait $stap
	sed "s/^/$name: /" "/tmp/seterr-$name.out"
}
seterr_session create zfs create "$pool/data"
seterr_session rename zfs rename "$pool/other" "$pool/data"
echo "error == 17" >$E/zfs_set__error/filter
echo 1 >$E/zfs_set__error/enable
echo >$T/trace
zfs rename "$pool/other" "$pool/data" 2>/dev/null || true
echo 0 >$E/zfs_set__error/enable
echo 0 >$E/zfs_set__error/filter
grep -o "zfs_set__error: .*" $T/trace | sed "s/^/ftrace /"

echo "== deny"
echo deny >$knob
echo 1 >$E/zfs_txg__synced/enable && echo "enable under deny: ok"
echo "enabled under deny: $(cat $E/zfs_txg__synced/enable)"
echo 0 >$E/zfs_txg__synced/enable
awk -F'\t' '$1 == "zfs_txg__synced" { print "listed under deny:", $4, $6 }' $list
staprun -o /tmp/stap.out txg.ko &
stap=$!
# Blocked, the marker lists the probes it keeps waiting (its 5th and
# 7th columns): SystemTap's probe is registered
waiting=
for _ in $(seq 100); do
	waiting=$(awk -F'\t' '$1 == "zfs_txg__synced" && $5 > 0 { print $7 }' $list)
	[ -z "$waiting" ] || break
	sleep 0.2
done
if [ -n "$waiting" ]; then echo "probe waiting under deny: yes ($waiting)"; else echo "probe waiting under deny: no"; fi
traced workload
kill -INT $stap
wait $stap
sed "s/^/under deny: /" /tmp/stap.out
echo allow >$knob

echo "== forced"
zpool destroy "$pool"
rmmod zfs spl
modprobe -f zfs 2>&1 | sed "s/^/modprobe says: /"
echo "forced zfs taint: $(cat /sys/module/zfs/taint)"
awk -F'\t' '$1 == "zfs_txg__synced" { print "listed forced:", $4, $6 }' $list
echo "forced events: $(find $E -maxdepth 1 -name "zfs_*" | wc -l)"
echo "== done"
