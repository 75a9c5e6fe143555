#!/bin/bash
# In the guest, booted from the image of the packaged root: bash -c ...
# debs RELEASE. The packaged kernel and its two packages, modprobe finding
# the driver installed next to the packaged modules, and the SystemTap
# modules compiled against the packaged headers counting their workloads:
# /root/stap_debs.ko on kernel.mark() (200 commands), stap_debs_alias.ko
# on the installed tapset's acme.cmd.submit (100). Checks itself and
# prints KTAP, plan first.
set -u
release=$1
echo "1..5"
check "the guest boots the packaged kernel ($(uname -r))" [ "$(uname -r)" = "$release" ]
# installed PACKAGE: dpkg has PACKAGE installed
installed() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }
both_installed() { installed "linux-image-$release" && installed "linux-headers-$release"; }
check "... with both packages installed" both_installed
found=$(modprobe acme_xa && modinfo -n acme_xa)
check "modprobe finds the driver next to the packaged modules ($found)" \
	[ "$found" = "/lib/modules/$release/extra/acme_xa.ko" ]
dmesg | grep -i -e acme -e markers | sed 's/^/# dmesg: /'
staprun -c "acmectl run --count 200 --threads 2" /root/stap_debs.ko >/tmp/stap.out 2>&1
sed 's/^/# stap: /' /tmp/stap.out
check "the script counts every command: 200 submits, 200 completions" grep -qx 'submits=200 completes=200' /tmp/stap.out
staprun -c "acmectl run --count 100" /root/stap_debs_alias.ko >/tmp/alias.out 2>&1
sed 's/^/# stap (aliases): /' /tmp/alias.out
check "the script on the installed tapset's acme.cmd.submit counts its 100 commands" grep -qx 'alias submits=100' /tmp/alias.out
