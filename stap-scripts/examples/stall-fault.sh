# shellcheck shell=bash
# The stall fault: acme_xa's module parameters for the driver's stall
# scenario, in one place. The firmware hangs on the command at ring
# position 128 (id 129, the second wrap of the ring), the driver times it
# out after 50 ms, retries it twice, and resets the device after two
# failed commands; then the same again from the reset on.
#
# Sourced by stap-scripts/examples/regenerate, guest-image/demo,
# tests/stap/{10,50,60}-*.sh and tests/vendor/40-collect.sh (which hands
# it to its guest half):
#   . stap-scripts/examples/stall-fault.sh   # sets $stall
#   stap-scripts/run --params "$stall" ...
# shellcheck disable=SC2034 # read by the scripts that source this
stall='stall_after_wraps=2 cmd_timeout_ms=50 max_retries=2 reset_after_failures=2'
