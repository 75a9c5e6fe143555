# shellcheck shell=bash
# The workloads of the example outputs (regenerate) and of the test that
# keeps them true (tests/stap/10-scripts.sh), in one place: each script's
# example is what it printed for its workload, and the test runs the same
# workload and holds both outputs to the same checks.
# shellcheck disable=SC2034 # read by the scripts that source this
latency_workload='acmectl run --count 900 --threads 3 --seed 5'
errors_workload='acmectl run --count 300 --threads 2'  # with the stall fault
top_workload='acmectl run --count 300 --opcodes read --sizes 4096 & acmectl run --count 200 --opcodes write --sizes 8192; wait; sleep 1.5'
markers_all_workload='acmectl run --count 40 >/dev/null; rmmod acme_xa; modprobe acme_xa'
