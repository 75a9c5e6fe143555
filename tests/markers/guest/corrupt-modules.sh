#!/bin/bash
# In the guest: loads each corrupt variant of the test modules made on the
# host (/mnt/host/NAME.ko) and checks, right after it, what became of it:
# no oops, the kernel's message, refused (insmod fails) or loaded with
# its bad markers left out (section: none listed; site: the bad marker
# BAD not listed, nor anything named after it; many: each of the MANY bad
# sites logged once, the real markers listed) while the good marker GOOD
# is listed, connects and counts its 3 hits. The markers_gpl variants go
# first, then bad registrations through the API (each its errno, the
# listing unchanged, a good registration afterwards working and counting),
# then the markers_prop variants with a probe of the good markers_gpl on
# GOOD. Checks itself and prints KTAP, plan first (its size from the
# variants: 3 results for a refused one, 4 for section, 7 for site and
# many); "tally: ..." at the end is the host's figure; scratch files go to
# /tmp.
#   corrupt-modules.sh BAD GOOD MANY NAME|MODULE|KIND|MESSAGE...
set -u
BAD=$1 GOOD=$2 MANY=$3
shift 3
tab=$'\t'
P=/sys/module/markers_gpl/parameters
L=/sys/kernel/debug/markers/list
# The plan: each variant's results by its kind, then the API's 16
plan=16
for spec in "$@"; do
	IFS='|' read -r _ module kind _ <<<"$spec"
	case $module:$kind in
	markers_gpl:refused | markers_prop:refused) plan=$((plan + 3)) ;;
	markers_gpl:section | markers_prop:section) plan=$((plan + 4)) ;;
	markers_prop:site | markers_prop:many) plan=$((plan + 7)) ;;
	*) plan=$((plan + 1)) ;;
	esac
done
echo "1..$plan"
for spec in "$@"; do
	IFS='|' read -r name module kind _ <<<"$spec"
	case $module:$kind in
	markers_gpl:refused | markers_prop:refused | markers_gpl:section | markers_prop:section) ;;
	markers_prop:site | markers_prop:many) ;;
	*) not_ok "$name: a variant this guest cannot try (module $module, kind $kind)" ;;
	esac
done
cd /mnt/host || echo "# cannot enter /mnt/host: the checks below fail"

# failed STATUS: insmod's status says it failed (and did not crash)
failed() { [ -n "$1" ] && [ "$1" != 0 ] && [ "$1" -lt 128 ]; }
# no_oops STATUS DMESG: insmod did not crash, the kernel reported nothing
no_oops() { [ "$1" -lt 128 ] && lacks 'Oops\|BUG:\|WARNING:\|general protection' "$2"; }
# grew_by N BEFORE AFTER: two counts, N apart
grew_by() { [ -n "$2" ] && [ -n "$3" ] && [ $(($3 - $2)) = "$1" ]; }
refused=0 ignored=0 oops=0
# try NAME MODULE KIND MESSAGE: load NAME.ko, check what became of it,
# fire its good marker, unload it
# shellcheck disable=SC2154 # ktap_failed: counted by tests/ktap.sh, in front of this text
try() {
	local name=$1 module=$2 kind=$3 message=$4 status failures=$ktap_failed before after n
	echo "# loading $name ($kind)"
	dmesg -C
	insmod "$name.ko" 2>"/tmp/$name.err"
	status=$?
	echo "# status $name: $status $(head -n 1 "/tmp/$name.err")"
	dmesg >"/tmp/$name.dmesg"
	head -n 5 "/tmp/$name.dmesg" | sed "s/^/# dmesg $name: /"
	grep "$tab$module$tab" $L >"/tmp/$name.list"
	sed "s/^/# list $name: /" "/tmp/$name.list"
	check "$name: no oops (insmod status $status)" no_oops "$status" "/tmp/$name.dmesg"
	no_oops "$status" "/tmp/$name.dmesg" || oops=$((oops + 1))
	check "$name: the kernel says: $message" grep -qF -- "$message" "/tmp/$name.dmesg"
	if [ "$kind" = refused ]; then
		check "$name: insmod fails" failed "$status"
		if failed "$status" && grep -qF -- "$message" "/tmp/$name.dmesg"; then
			refused=$((refused + 1))
		fi
		[ "$status" != 0 ] || rmmod "$module"
		return
	fi
	check "$name: loads" [ "$status" = 0 ]
	case $kind in
	section)
		check "$name: none of its markers is listed" [ ! -s "/tmp/$name.list" ]
		;;
	site | many)
		if [ "$kind" = site ]; then
			check "$name: the bad marker is not listed" lacks "^$BAD$tab" "/tmp/$name.list"
			check "$name: ... nor anything named after it" lacks "^\(1\|long_name\|${BAD}_\)" "/tmp/$name.list"
		fi
		check "$name: the good marker is listed" grep -q "^$GOOD${tab}markers_prop$tab" "/tmp/$name.list"
		before='' after=''
		if [ "$status" = 0 ]; then
			before=$(cat $P/hits)
			echo 3 >/sys/module/markers_prop/parameters/fire
			after=$(cat $P/hits)
		fi
		check "$name: the good marker connects and counts its 3 hits (${before:-?} -> ${after:-?})" \
			grew_by 3 "$before" "$after"
		;;
	esac
	if [ "$kind" = many ]; then
		n=$(grep -c "markers: markers_prop: marker [0-9]* ignored: name outside __markers_strings" "/tmp/$name.dmesg")
		check "$name: each of the $MANY bad sites is logged once ($n)" [ "$n" = "$MANY" ]
		check "$name: ... and the real ones stay listed" grep -q "^$BAD${tab}markers_prop$tab" "/tmp/$name.list"
	fi
	if [ "$status" = 0 ] && [ "$ktap_failed" = "$failures" ]; then
		ignored=$((ignored + 1))
	fi
	[ "$status" != 0 ] || rmmod "$module"
}
# try_all MODULE: try each variant made from MODULE
try_all() {
	local spec name module kind message
	for spec in "${variants[@]}"; do
		IFS='|' read -r name module kind message <<<"$spec"
		[ "$module" != "$1" ] || try "$name" "$module" "$kind" "$message"
	done
}
variants=("$@")

# markers_gpl's variants, before the good markers_gpl.ko is loaded
try_all markers_gpl

# Bad registrations through the exported API, and their errnos
# (include/uapi/asm-generic/errno-base.h: EINVAL 22, EBUSY 16)
insmod markers_gpl.ko || echo "# markers_gpl does not load"
insmod markers_prop.ko || echo "# markers_prop does not load"
cat $L >/tmp/list.before
dmesg -C
echo 1 >$P/register_bad
dmesg | grep -o 'register_bad: .*' >/tmp/reg
sed 's/^/# reg: /' /tmp/reg
for r in null-name:-22 empty-name:-22 long-name:-22 ctrl-name:-22 newline-name:-22 space-name:-22 \
	digit-name:-22 macro-call-name:-22 null-probe:-22 format-mismatch:-16 ctrl-format-mismatch:-16; do
	check "marker_probe_register() with a ${r%%:*}: ${r#*:}" grep -qx "register_bad: ${r%%:*}: ${r#*:}" /tmp/reg
done
check "... but a name of MARKER_NAME_MAX - 1 characters registers" grep -qx "register_bad: max-name: 0" /tmp/reg
check "... and a NULL format takes the marker's" grep -qx "register_bad: null-format: 0" /tmp/reg
cat $L >/tmp/list.after
diff /tmp/list.before /tmp/list.after | sed 's/^/# list diff: /'
check "the failed registrations leave the listing as it was" cmp -s /tmp/list.before /tmp/list.after
attach_bad() { echo "$BAD" >$P/attach; }
check "a good registration afterwards works" attach_bad
before=$(cat $P/hits)
echo 2 >/sys/module/markers_prop/parameters/fire
after=$(cat $P/hits)
check "... and counts its 2 hits ($before -> $after)" grew_by 2 "$before" "$after"
echo "$BAD" >$P/detach
rmmod markers_prop

# markers_prop's variants, its good marker probed by markers_gpl
echo "$GOOD" >$P/attach
try_all markers_prop
echo "$GOOD" >$P/detach
rmmod markers_gpl
echo "tally: $refused refused with a message, $ignored loaded with bad markers ignored, $oops oops"
