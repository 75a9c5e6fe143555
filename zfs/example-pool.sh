#!/bin/sh
# In the guest: the pool OpenZFS's examples and tests run on. A 256 MiB
# file vdev, the pool tank mounted at /tank, and two datasets (the demo
# renames tank/other onto tank/data to get a refusal). tools/oneliners/zfs.md
# shows these commands; tools/oneliners, guest-image/demo and tests/zfs run
# this file.
set -e
modprobe zfs
truncate -s 256M /var/tmp/vdev0
zpool create -O mountpoint=/tank tank /var/tmp/vdev0
zfs create tank/data
zfs create tank/other
