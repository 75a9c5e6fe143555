#!/bin/bash
# OpenZFS on markers: zfs.ko (CDDL, so the kernel is tainted P) with the
# markers backend of zfs/patches, on a pool in a file. Every marker of
# spl.ko and zfs.ko is a trace event; SystemTap, ftrace (with a filter),
# perf and bpftrace each see exactly the txgs the pool's kstat says it
# synced; a zfs rename onto a dataset that exists fires zfs_set__error
# with EEXIST from the SET_ERROR that refused it (a zfs create of one does
# not: libzfs refuses it before asking the kernel); under markers.proprietary=deny the events
# are silent (enabled, they wait for allow); a force-loaded zfs.ko gets none.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

if [ "${KM_FLAVOUR:-main}" != main ]; then
	skip "OpenZFS on the $KM_FLAVOUR kernel" "OpenZFS's configure refuses a kernel with lockdep (CONFIG_DEBUG_LOCK_ALLOC)"
	finish
fi
zfs_entry=$(readlink -f build/zfs)
[ -e "$zfs_entry/modules/zfs.ko" ] || die "OpenZFS is not built; run 'make zfs'"
tools/markers-elf/markers-elf "$zfs_entry"/modules/{spl,zfs}.ko >"$scratch/markers" ||
	die "markers-elf cannot read the OpenZFS modules"
cut -f1 "$scratch/markers" | sort -u >"$scratch/names"
figure "$(wc -l <"$scratch/names") markers in spl.ko and zfs.ko"

share=$scratch/share
mkdir -p "$share"
cp zfs/example-pool.sh "$share/"
cat >"$share/txg.stp" <<'STP'
global events
probe kernel.mark("zfs_txg__synced") { events++; printf("synced %d\n", $arg1) }
probe end { printf("stap events %d\n", events) }
STP
cat >"$share/seterr.stp" <<'STP'
probe kernel.mark("zfs_set__error") {
	if ($arg4 == 17 && execname() == "zfs")
		printf("set_error %s %s %d %d\n", $arg1, $arg2, $arg3, $arg4)
}
STP
for script in txg seterr; do
	(cd "$share" && "$vm" chroot -- stap -r "$kbuild" -p4 -m "$script" "$script.stp") >"$scratch/$script.log" 2>&1 || true
	check "stap -r -p4 compiles $script.stp (kernel.mark on zfs.ko's markers)" test -s "$share/$script.ko"
done

guest_status=0
"$vm" run --share "$share" --timeout 900 -- bash -c "$(guest_half zfs-markers)" zfs-markers >"$scratch/out" 2>&1 || guest_status=$?
sed 's/^/# /' "$scratch/out"
o=$scratch/out
section() { sed -n "/^== $1\$/,/^== /p" "$o"; }
in_section() { section "$1" | grep -qE -- "$2"; }

check "zfs.ko taints the kernel P (proprietary licence)" in_section load '^zfs taint: P'
awk '$1 == "marker" { print $2 }' "$o" | sort -u >"$scratch/connected"
# same_list A B: two lists of names, the same and not empty (two empty
# lists would say nothing)
same_list() { [ -s "$1" ] && cmp -s "$1" "$2"; }
check "the kernel lists every marker of spl.ko and zfs.ko ($(wc -l <"$scratch/names"))" \
	same_list "$scratch/names" "$scratch/connected"
none_blocked() { ! awk '$1 == "marker" && $4 == "blocked"' "$o" | grep -q .; }
check "... none of them blocked" none_blocked
sed -n 's/^listed tracepoint:markers://p' "$o" | sort -u >"$scratch/listed"
check "bpftrace -l 'tracepoint:markers:zfs_*' lists an event for every one of them" \
	same_list "$scratch/names" "$scratch/listed"
check "a pool in a file: ONLINE" in_section pool '^tank	ONLINE$'

# synced_exactly TRACER: the tracer saw one zfs_txg__synced for each txg
# the kstat says was synced during its workload, and none twice; events
# of txgs outside the window (a timer's sync before or after) are left out.
synced_exactly() {
	local txgs before after want got
	txgs=$(section "$1" | sed -n 's/^txgs: //p')
	read -r before after <<<"$txgs"
	[ -n "${after:-}" ] && [ "$after" -gt "$before" ] || return 1
	want=$(seq $((before + 1)) "$after")
	got=$(section "$1" | sed -n 's/^synced //p' |
		awk -v b="$before" -v a="$after" '$1 > b && $1 <= a' | sort -n)
	figure "$1: txgs $((before + 1))..$after synced, $(grep -c . <<<"$got") events in that range"
	[ "$got" = "$want" ]
}
check "stap: the session ran to its end" in_section stap '^stap events [1-9][0-9]*$'
for tracer in stap ftrace perf bpftrace; do
	check "$tracer: one zfs_txg__synced per txg the kstat synced, each once" synced_exactly "$tracer"
done

# set_error: SystemTap's line names the file, function and line; that line
# of the built source is a SET_ERROR(EEXIST)
check "zfs create of a dataset that exists is refused" in_section set_error '^zfs create says: .*already exists'
check "zfs rename onto it is refused" in_section set_error '^zfs rename says: .*already exists'
create_by_libzfs() {
	in_section set_error '^create: stap attached: yes$' && ! in_section set_error '^create: set_error .* 17$'
}
check "... the create by libzfs: SystemTap, attached, saw no EEXIST from the kernel" create_by_libzfs
file='' function='' line=0 error=''
read -r _ _ file function line error < <(section set_error | grep -m1 '^rename: set_error ') || true
figure "zfs_set__error: ${file:-?}:${line:-?} in ${function:-?}, error ${error:-?}"
# zfs_set__error's file is a base name (as the debug log has it): the
# source file of that name in the built tree
source_file=$(find "$zfs_entry/zfs-2.3.9/module" -name "${file:-none}" | head -n 1)
says_eexist() { [ -n "$source_file" ] && sed -n "${line}p" "$source_file" | grep -qF 'SET_ERROR(EEXIST)'; }
# the last function definition ("name(" at the start of a line, as
# OpenZFS writes them) at or before the line
in_function() { [ -n "$source_file" ] && head -n "$line" "$source_file" | grep -E '^[a-z_0-9]+\(' | tail -n 1 | grep -q "^$function("; }
check "SystemTap: zfs_set__error with error 17 (EEXIST) from the zfs rename" [ "${error:-}" = 17 ]
check "... at a line of the source that says SET_ERROR(EEXIST) ($file:$line)" \
	says_eexist
check "... in the function the event names ($function)" \
	in_function
check "ftrace, filtered on error == 17: the same site" \
	in_section set_error "^ftrace zfs_set__error: file $file function $function line $line error 17$"

check "deny: a ZFS event enables, and waits" in_section deny '^enable under deny: ok$'
check "deny: the event reads enabled" in_section deny '^enabled under deny: 1$'
check "deny: the marker is listed as blocked by the policy" in_section deny '^listed under deny: blocked policy$'
synced_under_deny() { section deny | sed -n 's/^txgs: //p' | awk '$2 > $1 { found = 1 } END { exit !found }'; }
check "deny: txgs were synced meanwhile" synced_under_deny
check "deny: SystemTap's probe waited on the blocked marker" in_section deny '^probe waiting under deny: yes'
check "deny: SystemTap ran and saw none of them" in_section deny '^under deny: stap events 0$'

check "force-loaded: zfs.ko taints F" in_section forced '^forced zfs taint: .*F'
check "force-loaded: its markers are blocked as forced" in_section forced '^listed forced: blocked forced$'
check "force-loaded: no ZFS trace events" in_section forced '^forced events: 0$'

check "the guest run finished" grep -qx '== done' "$o"
check "... with no kernel report (guest exit $guest_status)" [ "$guest_status" = 0 ]
finish
