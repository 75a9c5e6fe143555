#!/bin/bash
# What a marker's format becomes in its trace event, for the formats that
# went wrong (issue 23, bugs 2 and 4): a %p extension that reads memory
# when it is printed (%pM) is recorded and printed as a plain address,
# with one log line naming the marker and the conversion, so reading the
# trace never reads the marker's buffer; %pS, %px and %pe, which read
# nothing but the pointer, keep their meaning; "arg2 %d %d" gives two
# fields with different names, which a filter and bpftrace can both use;
# and a marker without arguments has an event without fields. The rules
# for each class are KUnit's (markers_events); this is the same in a
# guest, from a module.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

[ -e "$mods/markers_events.ko" ] || die "no test modules; run tests/modules/build"

guest_status=0
"$vm" run --rodir "/mnt/host=$mods" -- bash -c "$(guest_half format-fields)" format-fields >"$scratch/out" 2>&1 || guest_status=$?
sed 's/^/# /' "$scratch/out"
o=$scratch/out
has() { grep -qxF -- "$1" "$o"; }

check "%pM is recorded as an address: its field is pointer-sized" has 'mac field: unsigned long'
check "... and its print format prints the address, not the buffer" has 'mac fmt: "mac %p", REC->mac'
check "... and ftrace prints no MAC address" \
	[ "$(grep -c '^trace: test_ev_mac: mac ' "$o")/$(grep -c '^trace: test_ev_mac: mac 02:00:5e' "$o")" = 3/0 ]
check "... with one log line naming the marker and the conversion" \
	[ "$(grep -c '^dmesg: markers: marker test_ev_mac: "%pM" .*address' "$o")" = 1 ]
check "%pS, %px and %pe keep their meaning in the print format" has 'ptrs fmt: "sym %pS raw %px err %pe", REC->sym, REC->raw, REC->err'
check "... and ftrace prints the symbol and the errno name" grep -qE '^trace: test_ev_ptrs: sym fire_shapes_set\+0x[0-9a-f]+/0x[0-9a-f]+ \[markers_events\] raw [0-9a-f]{16} err -ENOENT$' "$o"
check '"arg2 %d %d" has two int fields' [ "$(grep -c '^dup field:int ' "$o")" = 2 ]
check "... with different names" [ "$(grep '^dup field:int ' "$o" | sort -u | wc -l)" = 2 ]
check "... the first one named arg2, as its word says" has 'dup field:int arg2;'
check "a filter on arg2 binds the first field: 3 of 3 records pass" [ "$(grep -c '^trace: test_ev_dup: arg2 1 2$' "$o")" = 3 ]
check "bpftrace compiles a program on the event and counts 4 with arg2 1" has 'bpftrace dup: @[1]: 4'
check "a marker without arguments has no fields but the 4 common ones" has 'noargs fields with common: 4'
check "the guest ran to the end" [ "$guest_status" = 0 ]
finish
