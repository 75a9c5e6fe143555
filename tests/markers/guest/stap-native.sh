#!/bin/bash
# In the guest: native stap -L of every marker (kernel.mark("*")), checked
# for each line given as an argument (the host's stap_mark_line of every
# core marker in the kernel build's Module.markers: its format and typed
# arguments, the whole line) and for the test module's markers (merged from
# its binary); then stap -L of the Acme tapset's probes (acme.cmd.*),
# checked for acme.cmd.submit with its named variables and
# acme.cmd.complete. Checks itself and prints KTAP, plan first.
#   stap-native.sh LINE...
# shellcheck disable=SC2016 # $name, $format are SystemTap's
set -u
echo "1..$(($# + 3))"
stap -L 'kernel.mark("*")' >/tmp/stap-L 2>/tmp/stap-L.err
sed 's/^/# /' /tmp/stap-L /tmp/stap-L.err
for line in "$@"; do
	name=${line#kernel.mark(\"}
	name=${name%%\"*}
	check "native stap -L lists core marker $name with typed arguments: ${line##*\") }" grep -qxF "$line" /tmp/stap-L
done
check "native stap -L knows the test module's markers (merged from the binary)" \
	grep -qF 'kernel.mark("test_gpl_args").format("u %u d %d llu %llu x %x s %s c %c p %p") $name:string $format:string $arg1:long $arg2:long $arg3:long $arg4:long $arg5:string $arg6:long $arg7:long' /tmp/stap-L

stap -L 'acme.cmd.*' >/tmp/tapset 2>/tmp/tapset.err
sed 's/^/# /' /tmp/tapset /tmp/tapset.err
check "native stap resolves the Acme tapset installed in the image: acme.cmd.submit with its named variables" \
	grep -Eq '^acme\.cmd\.submit .*\bopcode:' /tmp/tapset
check "... and acme.cmd.complete" grep -q '^acme\.cmd\.complete ' /tmp/tapset
