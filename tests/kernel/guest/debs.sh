#!/bin/sh
# In the guest, booted from the image of the packaged root (run with sh,
# as it was): prints uname -r, the two packages' dpkg status lines, where
# modprobe found acme_xa ("modprobe acme_xa: PATH"), its dmesg lines and
# what the SystemTap module compiled against the packaged headers counts
# ("submits=N completes=N").
uname -r
dpkg-query -W -f="\${Status} \${Package}\n" "linux-image-$(uname -r)" "linux-headers-$(uname -r)"
modprobe acme_xa && echo "modprobe acme_xa: $(modinfo -n acme_xa)"
dmesg | grep -i -e acme -e markers
staprun -c "acmectl run --count 200 --threads 2" /root/stap_debs.ko
