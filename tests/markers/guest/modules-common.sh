#!/bin/bash
# What the guest halves of markers/20-modules-and-policy share (put in
# front of modules-allow.sh and modules-deny.sh): the markers list, the
# format the test modules' markers have, and the checks on the list and
# the kernel log.
# shellcheck disable=SC2034 # used by the halves that follow
tab=$'\t'
fmt='u %u d %d llu %llu x %x s %s c %c p %p'
list=/sys/kernel/debug/markers/list
# listed LINE: the markers list has the line LINE, whole
listed() { grep -qxF "$1" "$list"; }
# logged PATTERN: the kernel log has a line matching PATTERN
logged() { dmesg | grep -q -e "$1"; }
