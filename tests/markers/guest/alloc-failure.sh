#!/bin/bash
# In the guest: with failslab's fail-nth armed by markers_gpl (/mnt/host),
# registers and unregisters probes on markers_prop's test_prop_args,
# failing their Nth allocation, and checks each step right after it: a
# registration that fails with -ENOMEM leaves the listing as it was
# (every allocation of a first registration failed in turn until one
# goes through, found, not assumed; a second probe's array), the next
# one registers and connects, an unregistration that cannot allocate
# still takes its probe away, the probes' hits after each step, and that
# the modules unload cleanly. Each try goes out as a comment, "PARAM
# nth=N: ok|ERROR; listed STATE PROBES"; "failslab: ..." at the end is
# the tally of the tries for the host's figure. Checks itself and prints
# KTAP, plan first.
set -u
echo "1..15"
cd /mnt/host || echo "# cannot enter /mnt/host: the checks below fail"
insmod markers_gpl.ko || echo "# markers_gpl does not load"
insmod markers_prop.ko || echo "# markers_prop does not load"
F=/sys/kernel/debug/failslab
P=/sys/module/markers_gpl/parameters
fire=/sys/module/markers_prop/parameters/fire
# GFP_KERNEL allocations are what the marker core makes
echo N > $F/ignore-gfp-wait
echo 0 > $F/verbose
list() { grep "^test_prop_args	" /sys/kernel/debug/markers/list | cut -f4,5 | tr "\t" " "; }
# hits: the two probes' hits, "HITS HITS_B"
hits() { echo "$(cat $P/hits) $(cat $P/hits_b)"; }
# is WHAT VALUE: WHAT (a step's outcome) is VALUE
is() { [ "$1" = "$2" ]; }
injected=0 refused=0
# try PARAM MARKER N: write MARKER to PARAM with the Nth allocation
# failing; r is "ok" or the write's error, tried "PARAM nth=N: r; listed
# STATE PROBES"
try() {
	echo "$3" > $P/fail_nth
	# err captures the write's error (echo's stderr), not what it echoes
	# shellcheck disable=SC2116
	if err=$(echo "$2" 2>&1 > "$P/$1"); then r=ok; else r=${err##*: }; fi
	tried="$1 nth=$3: $r; listed $(list)"
	echo "# $tried"
	[ "$3" = 0 ] || injected=$((injected + 1))
	case $3:$1:$r in
	0:*) ;;
	*:attach:"Cannot allocate memory" | *:attach_b:"Cannot allocate memory") refused=$((refused + 1)) ;;
	esac
}
echo "# before: listed $(list)"
check "before: the marker is listed off, no probe" is "$(list)" "off 0"

# Fail the 1st, 2nd, ... allocation until one registration goes through;
# each try before it must fail with -ENOMEM and change nothing
n_ok='' first_refused=0 first_other=0
for n in $(seq 1 12); do
	try attach test_prop_args "$n"
	if [ "$r" = ok ]; then n_ok=$n && break; fi
	if is "$tried" "attach nth=$n: Cannot allocate memory; listed off 0"; then
		first_refused=$((first_refused + 1))
	else
		first_other=$((first_other + 1))
	fi
done
all_refused() { [ "$first_refused" -ge 1 ] && [ "$first_other" = 0 ]; }
check "a first registration goes through once its allocations are left alone (at fail-nth ${n_ok:-never})" \
	test "${n_ok:-0}" -ge 2
check "each of the allocations 1 to $((${n_ok:-13} - 1)) of a first registration fails: -ENOMEM, nothing changes ($first_refused did, $first_other did not)" \
	all_refused
check "with enough memory it registers and connects" is "$tried" "attach nth=${n_ok:-0}: ok; listed on 1"
echo 2 > $fire
check "... and counts every hit" is "$(cat $P/hits)" 2

n_ok_b=''
for n in $(seq 1 12); do
	try attach_b test_prop_args "$n"
	[ "$n" != 1 ] ||
		check "a second probe whose array cannot be allocated: -ENOMEM, the first stays" \
			is "$tried" "attach_b nth=1: Cannot allocate memory; listed on 1"
	if [ "$r" = ok ]; then n_ok_b=$n && break; fi
done
check "... and then registers (at fail-nth ${n_ok_b:-never})" is "$tried" "attach_b nth=${n_ok_b:-0}: ok; listed on 2"
echo 3 > $fire
check "both probes count" is "$(hits)" "5 3"

try detach_b test_prop_args 1
check "an unregistration that cannot allocate still succeeds" is "$tried" "detach_b nth=1: ok; listed on 1"
echo 4 > $fire
check "... its probe gets no more hits, the other one does" is "$(hits)" "9 3"
try detach test_prop_args 1
check "the last probe goes without allocating: the marker is off" is "$tried" "detach nth=1: ok; listed off 0"
echo 5 > $fire
check "... and gets no hits" is "$(hits)" "9 3"
try attach_b test_prop_args 0
check "a later registration works" is "$tried" "attach_b nth=0: ok; listed on 1"
echo 1 > $fire
check "... and counts" is "$(hits)" "9 4"
rmmod markers_gpl markers_prop
check "the modules unload cleanly" is "$(grep -c test_prop /sys/kernel/debug/markers/list)" 0
echo "failslab: $injected (un)registrations with fail-nth armed: $refused refused with -ENOMEM, listing unchanged; $((injected - refused)) went through (fewer allocations than N, or an unregistration that needs none)"
