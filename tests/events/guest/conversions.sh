#!/bin/bash
# In the guest: markers_conv's markers (tests/modules/markers_conv.h: every
# integer conversion printk takes, a precision, a literal %) through
# SystemTap (the module /mnt/host/conv.ko, compiled on the host from
# Module.markers), perf and bpftrace, each checked for the exact values of
# markers_conv.h and for the argument after each conversion (51966).
# Checks itself and prints KTAP, plan first.
set -u
fire=/sys/module/markers_conv/parameters/fire
echo "1..9"
# What every tracer runs: one firing of each marker (bpftrace's -c takes
# a command, not a shell line)
printf 'echo 1 > %s\n' "$fire" >/tmp/fire.sh
insmod /mnt/host/markers_conv.ko || echo "Bail out! markers_conv does not load"

staprun -o /tmp/stap.out /mnt/host/conv.ko -c "sh /tmp/fire.sh" >/dev/null 2>/tmp/stap.err
sed 's/^/# /' /tmp/stap.out /tmp/stap.err
check "SystemTap reads %hd %hu %hhd %hhx %c and the argument after them" \
	grep -qx 'stap narrow -12345 65535 -100 ab 90 51966' /tmp/stap.out
check "SystemTap reads %zu %zd %td %jd %ju %Ld and the argument after them" \
	grep -qx 'stap named 4886718345 -7 -123456789012 -9000000000 18000000000000000000 -42 51966' /tmp/stap.out
check "SystemTap reads the argument after a literal %" grep -qx 'stap pct 51966' /tmp/stap.out

events=()
for e in narrow named prec pct; do events+=(-e "markers:test_conv_$e"); done
perf record -q -o /tmp/perf.data "${events[@]}" -- sh /tmp/fire.sh 2>/tmp/perf.err
perf script -i /tmp/perf.data -F event,trace 2>>/tmp/perf.err | sed 's/^ *//' >/tmp/perf.out
sed 's/^/# /' /tmp/perf.out /tmp/perf.err
check "perf prints test_conv_narrow by its format file's print format" \
	grep -qx 'markers:test_conv_narrow: s -12345 us 65535 sc -100 uc ab c Z after 51966' /tmp/perf.out
check "perf prints test_conv_named" \
	grep -qx 'markers:test_conv_named: sz 4886718345 ssz -7 pd -123456789012 j -9000000000 ju 18000000000000000000 L -42 after 51966' /tmp/perf.out
check "perf prints test_conv_prec: a precision bounds the string, %.0s is empty" \
	grep -qx 'markers:test_conv_prec: p abcd w wx     z  after 51966' /tmp/perf.out
check "perf prints a literal % once" \
	grep -qx 'markers:test_conv_pct: 100% done 51966%' /tmp/perf.out

bpftrace -e '
tracepoint:markers:test_conv_narrow {
	printf("bpf narrow %d %u %d %x %c %u\n", args->s, args->us, args->sc, args->uc, args->c, args->after);
}
tracepoint:markers:test_conv_named {
	printf("bpf named %lu %ld %ld %lld %llu %lld %u\n", args->sz, args->ssz, args->pd, args->j, args->ju, args->L, args->after);
}' -c "sh /tmp/fire.sh" >/tmp/bpf.out 2>&1
sed 's/^/# /' /tmp/bpf.out
check "bpftrace reads the narrow fields" grep -qx 'bpf narrow -12345 65535 -100 ab Z 51966' /tmp/bpf.out
check "bpftrace reads size_t, ptrdiff_t, intmax_t and %Ld fields" \
	grep -qx 'bpf named 4886718345 -7 -123456789012 -9000000000 18000000000000000000 -42 51966' /tmp/bpf.out
rmmod markers_conv
