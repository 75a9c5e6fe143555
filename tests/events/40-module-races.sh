#!/bin/bash
# Enabling the events of a module that is coming and going: the proprietary
# driver is loaded and unloaded in a loop while ftrace enables and disables
# its event and perf opens it; an enable file held open across the unload
# refuses writes afterwards, a format file held open refuses reads (the
# event's memory is gone with the module), and so do a trigger file and
# a filter file; opens of the event's files race the unload in a loop
# (KM_STRESS=full: 60 s, else 15 s); then the module is loaded once more
# and its event counts exactly. No kernel report (the guest fails on any),
# no stale event.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

# An open whose path walk found the file before the unload reaches
# ->open() after it; under KASAN that window showed as a use-after-free
# within about 30 s of this loop.
if [ "${KM_STRESS:-}" = full ]; then race_seconds=60; else race_seconds=15; fi

guest_status=0
"$vm" run -- env RACE_SECONDS=$race_seconds bash -c "$(guest_half module-races)" module-races >"$scratch/out" 2>&1 || guest_status=$?
sed 's/^/# /' "$scratch/out"
o=$scratch/out
has() { grep -qxF -- "$1" "$o"; }
n_of() { sed -n "s/^$1: //p" "$o"; }

check "the module was loaded 40 times while tracers came and went, each time after an unload ($(n_of loads))" has 'loads: 40'
check "... and unloaded after each load ($(n_of unloads) times)" has 'unloads: 40'
check "ftrace enabled its event during the cycles ($(n_of 'enables during cycles') times)" \
	[ "$(n_of 'enables during cycles')" -ge 1 ]
check "perf opened its event during the cycles ($(n_of 'perf runs during cycles') times)" \
	[ "$(n_of 'perf runs during cycles')" -ge 1 ]
check "the module unloads while its enable file is open" has 'rmmod with the enable file open: ok'
check "... and a write to that file afterwards is refused" has 'write after unload: refused'
check "... and no acme event is left in available_events" has 'stale acme events: 0'
check "the module unloads while its format file is open" has 'rmmod with the format file open: ok'
check "... and a read of that file afterwards is refused ($(n_of 'format read after unload'))" \
	has 'format read after unload: refused, No such device'
check "the module unloads while its trigger and filter files are open" \
	has 'rmmod with the trigger and filter files open: ok'
check "... and a read of the trigger file afterwards is refused ($(n_of 'trigger read after unload'))" \
	has 'trigger read after unload: refused, No such device'
check "... and a write to the filter file afterwards is refused ($(n_of 'filter write after unload'))" \
	has 'filter write after unload: refused, No such device'
check "the module was unloaded and loaded again while its files were opened ($(n_of 'race reloads') times)" \
	[ "$(n_of 'race reloads')" -ge 1 ]
for f in format enable trigger hist; do
	check "... and its $f file was opened in between ($(n_of "race opens of $f") opens, $(n_of "race refusals of $f") refused)" \
		[ "$(n_of "race opens of $f")" -ge 1 ]
done
figure "open races: $(n_of 'race reloads') unloads and reloads in ${race_seconds} s against opens of 4 files of the event"
check "loaded again, the event is there and disabled" has 'enabled after reload: 0'
check "... and records exactly the 33 submits" has 'submits recorded: 33'
check "... and the module unloads" has 'final rmmod: ok'
check "the guest run finished" has '== done'
check "... with no kernel report (guest exit $guest_status)" [ "$guest_status" = 0 ]
finish
