#!/bin/bash
# In the guest: OpenZFS (zfs.ko, CDDL, with the markers backend) on a pool
# in a file, traced through its markers by every tracer. For each tracer
# the same workload (writes and zpool syncs), and a check that the
# tracer saw one zfs_txg__synced for each txg the pool's txgs kstat says
# was synced meanwhile. Then zfs_set__error for a refused zfs create and
# rename, checked against the line of the built source it names
# (/mnt/zfs-src, read-only), the policy knob, and zfs.ko force-loaded.
# /mnt/host has SystemTap's modules (txg.ko, seterr.ko), the pool's
# set-up (example-pool.sh, which makes the pool tank) and the names of
# the markers of spl.ko and zfs.ko as markers-elf reads them (names).
# Checks itself and prints KTAP, plan first.
set -u
echo "1..26"
cd /mnt/host || echo "# cannot enter /mnt/host: the checks below fail"
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

# same_list A B: two lists of names, the same and not empty (two empty
# lists would say nothing)
same_list() { [ -s "$1" ] && cmp -s "$1" "$2"; }
# synced_exactly TRACER: in /tmp/TRACER.out, the txgs line of its workload
# and one "synced N" line for each txg the kstat says was synced between
# them, none twice; events of txgs outside the window (a timer's sync
# before or after) are left out
synced_exactly() {
	local before='' after='' want got
	read -r before after <<<"$(sed -n 's/^txgs: //p' "/tmp/$1.out")"
	[ -n "$after" ] && [ "$after" -gt "$before" ] || return 1
	want=$(seq $((before + 1)) "$after")
	got=$(sed -n 's/^synced //p' "/tmp/$1.out" | awk -v b="$before" -v a="$after" '$1 > b && $1 <= a' | sort -n)
	echo "figure: $1: txgs $((before + 1))..$after synced, $(grep -c . <<<"$got") events in that range"
	[ "$got" = "$want" ]
}

modprobe zfs || echo "# zfs does not load: the checks below fail"
echo "# kernel tainted: $(cat /proc/sys/kernel/tainted), spl: $(cat /sys/module/spl/taint)"
check "zfs.ko taints the kernel P (proprietary licence): $(cat /sys/module/zfs/taint)" grep -q P /sys/module/zfs/taint
awk -F'\t' '$2 == "zfs" || $2 == "spl" { print $1 }' $list | sort -u >/tmp/connected
check "the kernel lists every marker of spl.ko and zfs.ko ($(wc -l <names))" same_list names /tmp/connected
awk -F'\t' '($2 == "zfs" || $2 == "spl") && $4 == "blocked"' $list >/tmp/blocked
check "... none of them blocked" [ ! -s /tmp/blocked ]
bpftrace -l 'tracepoint:markers:zfs_*' | sed -n 's/^tracepoint:markers://p' | sort -u >/tmp/listed
check "bpftrace -l 'tracepoint:markers:zfs_*' lists an event for every one of them" same_list names /tmp/listed

sh /mnt/host/example-pool.sh
check "a pool in a file: ONLINE" [ "$(zpool list -H -o health "$pool")" = ONLINE ]

# on_within MARKER: MARKER is listed on (a probe attached) within 20 s
on_within() {
	for _ in $(seq 100); do
		grep -q "^$1	.*	on	" $list && return 0
		sleep 0.2
	done
	return 1
}
staprun -o /tmp/stap.session txg.ko &
stap=$!
on_within zfs_txg__synced || echo "# SystemTap's probe is not on after 20 s"
traced workload >/tmp/stap.out
kill -INT $stap
wait $stap
cat /tmp/stap.session >>/tmp/stap.out
check "stap: the session ran to its end ($(grep '^stap events' /tmp/stap.out))" grep -qE '^stap events [1-9][0-9]*$' /tmp/stap.out

zpool sync "$pool"
echo "txg > $(last_synced)" >$E/zfs_txg__synced/filter
echo 1 >$E/zfs_txg__synced/enable
echo >$T/trace
traced workload >/tmp/ftrace.out
echo 0 >$E/zfs_txg__synced/enable
echo 0 >$E/zfs_txg__synced/filter
grep -o "zfs_txg__synced: txg [0-9]*" $T/trace | sed "s/.* txg /synced /" >>/tmp/ftrace.out

perf record -q -a -e markers:zfs_txg__synced -o /tmp/perf.data -- bash /tmp/traced-workload.sh >/tmp/perf.out
perf script -i /tmp/perf.data -F trace 2>/dev/null | sed -n "s/^ *txg \([0-9]*\).*/synced \1/p" >>/tmp/perf.out

bpftrace -e 'tracepoint:markers:zfs_txg__synced { printf("synced %llu\n", args->txg); }' \
	-c "/bin/bash /tmp/traced-workload.sh" 2>/dev/null | grep -E "^(synced|txgs:) " >/tmp/bpftrace.out
for tracer in stap ftrace perf bpftrace; do
	check "$tracer: one zfs_txg__synced per txg the kstat synced, each once" synced_exactly "$tracer"
done

# zfs create of a dataset that exists is refused by libzfs, before any
# ioctl: the kernel says nothing. A rename onto it is refused by the
# kernel, with EEXIST; the marker names the function, file and line of
# the SET_ERROR that refused it. (The pool's set-up made tank/other.)
# One SystemTap session per command, so that an error is credited to
# the command that made it.
# seterr_session NAME CMD...: CMD under seterr.ko, once its probe is on;
# what CMD said in /tmp/NAME.says, what the probe saw in /tmp/NAME.seterr
seterr_session() {
	local name=$1 stap
	shift
	staprun -o "/tmp/$name.seterr" seterr.ko &
	stap=$!
	if on_within zfs_set__error; then echo "$name: stap attached" >"/tmp/$name.attached"; fi
	"$@" >"/tmp/$name.says" 2>&1
	kill -INT $stap
	wait $stap
	sed "s/^/# $name: /" "/tmp/$name.says" "/tmp/$name.seterr"
}
seterr_session create zfs create "$pool/data"
seterr_session rename zfs rename "$pool/other" "$pool/data"
check "zfs create of a dataset that exists is refused" grep -q 'already exists' /tmp/create.says
check "zfs rename onto it is refused" grep -q 'already exists' /tmp/rename.says
create_by_libzfs() { [ -s /tmp/create.attached ] && lacks '^set_error .* 17$' /tmp/create.seterr; }
check "... the create by libzfs: SystemTap, attached, saw no EEXIST from the kernel" create_by_libzfs
file='' function='' line=0 error=''
# (here-strings: the guest has no /dev/fd for a process substitution)
read -r _ file function line error <<<"$(grep -m1 '^set_error ' /tmp/rename.seterr)"
echo "figure: zfs_set__error: ${file:-?}:${line:-?} in ${function:-?}, error ${error:-?}"
# zfs_set__error's file is a base name (as the debug log has it): the
# source file of that name in the built tree
source_file=$(find /mnt/zfs-src -name "${file:-none}" | head -n 1)
says_eexist() { [ -n "$source_file" ] && sed -n "${line}p" "$source_file" | grep -qF 'SET_ERROR(EEXIST)'; }
# the last function definition ("name(" at the start of a line, as
# OpenZFS writes them) at or before the line
in_function() {
	[ -n "$source_file" ] && head -n "$line" "$source_file" | grep -E '^[a-z_0-9]+\(' | tail -n 1 | grep -q "^$function("
}
check "SystemTap: zfs_set__error with error 17 (EEXIST) from the zfs rename" [ "${error:-}" = 17 ]
check "... at a line of the source that says SET_ERROR(EEXIST) ($file:$line)" says_eexist
check "... in the function the event names ($function)" in_function
echo "error == 17" >$E/zfs_set__error/filter
echo 1 >$E/zfs_set__error/enable
echo >$T/trace
zfs rename "$pool/other" "$pool/data" 2>/dev/null
echo 0 >$E/zfs_set__error/enable
echo 0 >$E/zfs_set__error/filter
grep -o "zfs_set__error: .*" $T/trace | sed "s/^/# ftrace: /"
check "ftrace, filtered on error == 17: the same site" \
	grep -q "zfs_set__error: file $file function $function line $line error 17$" $T/trace

echo deny >$knob
check "deny: a ZFS event enables, and waits" set_to $E/zfs_txg__synced/enable 1
check "deny: the event reads enabled" reads $E/zfs_txg__synced/enable 1
echo 0 >$E/zfs_txg__synced/enable
check "deny: the marker is listed as blocked by the policy" \
	[ "$(awk -F'\t' '$1 == "zfs_txg__synced" { print $4, $6 }' $list)" = "blocked policy" ]
staprun -o /tmp/deny.session txg.ko &
stap=$!
# Blocked, the marker lists the probes it keeps waiting (its 5th and
# 7th columns): SystemTap's probe is registered
waiting=
for _ in $(seq 100); do
	waiting=$(awk -F'\t' '$1 == "zfs_txg__synced" && $5 > 0 { print $7 }' $list)
	[ -z "$waiting" ] || break
	sleep 0.2
done
traced workload >/tmp/deny.out
kill -INT $stap
wait $stap
cat /tmp/deny.session >>/tmp/deny.out
sed 's/^/# deny: /' /tmp/deny.out
synced_under_deny() { sed -n 's/^txgs: //p' /tmp/deny.out | awk '$2 > $1 { found = 1 } END { exit !found }'; }
check "deny: txgs were synced meanwhile" synced_under_deny
check "deny: SystemTap's probe waited on the blocked marker ($waiting)" [ -n "$waiting" ]
check "deny: SystemTap ran and saw none of them" grep -qx 'stap events 0' /tmp/deny.out
echo allow >$knob

zpool destroy "$pool"
rmmod zfs spl
modprobe -f zfs 2>&1 | sed "s/^/# modprobe says: /"
check "force-loaded: zfs.ko taints F ($(cat /sys/module/zfs/taint))" grep -q F /sys/module/zfs/taint
check "force-loaded: its markers are blocked as forced" \
	[ "$(awk -F'\t' '$1 == "zfs_txg__synced" { print $4, $6 }' $list)" = "blocked forced" ]
forced_events=$(find $E -maxdepth 1 -name "zfs_*" | wc -l)
check "force-loaded: no ZFS trace events ($forced_events)" [ "$forced_events" = 0 ]
