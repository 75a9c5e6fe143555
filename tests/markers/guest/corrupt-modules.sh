#!/bin/bash
# In the guest (env BAD=NAME GOOD=NAME, the two markers of markers_prop):
# loads each corrupt variant listed in /mnt/host/variants, reports what
# became of it ("status NAME: STATUS MESSAGE", "dmesg NAME: ...", "list
# NAME: ...", "hits NAME: BEFORE AFTER"), then registers bad probes
# through the API ("reg: ...", "reg-list: unchanged|changed", "reg-attach:
# ok", "reg-hits: BEFORE AFTER"); "guest: done" at the end.
cd /mnt/host || exit 1
P=/sys/module/markers_gpl/parameters
L=/sys/kernel/debug/markers/list
# try NAME: load NAME.ko, report, fire its markers, unload it
try() {
	local name=$1 module status
	module=$(cat "$name.module")
	dmesg -C
	insmod "$name.ko" 2>"/tmp/$name.err"
	status=$?
	echo "status $name: $status $(head -n 1 "/tmp/$name.err")"
	dmesg | sed "s/^/dmesg $name: /"
	grep "	$module	" $L | sed "s/^/list $name: /"
	if [ "$status" = 0 ] && [ "$module" = markers_prop ]; then
		before=$(cat $P/hits)
		echo 3 > /sys/module/markers_prop/parameters/fire
		echo "hits $name: $before $(cat $P/hits)"
	fi
	[ "$status" = 0 ] && rmmod "$module"
}
while read -r name; do
	case $name in gpl-*) try "$name" ;; esac
done <variants

insmod markers_gpl.ko
insmod markers_prop.ko
cat $L >/tmp/list.before
dmesg -C
echo 1 > $P/register_bad
dmesg | grep -o 'register_bad: .*' | sed 's/^/reg: /'
cat $L >/tmp/list.after
if cmp -s /tmp/list.before /tmp/list.after; then
	echo "reg-list: unchanged"
else
	echo "reg-list: changed"
	diff /tmp/list.before /tmp/list.after
fi
echo "$BAD" > $P/attach && echo "reg-attach: ok"
before=$(cat $P/hits)
echo 2 > /sys/module/markers_prop/parameters/fire
echo "reg-hits: $before $(cat $P/hits)"
echo "$BAD" > $P/detach
rmmod markers_prop

echo "$GOOD" > $P/attach
while read -r name; do
	case $name in prop-*) try "$name" ;; esac
done <variants
echo "$GOOD" > $P/detach
rmmod markers_gpl
echo "guest: done"
