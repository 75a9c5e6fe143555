#!/bin/bash
# In the guest: native stap -L of every marker (kernel.mark("*")), then
# after "== tapset" of the Acme tapset's probes (acme.cmd.*); "== done" at
# the end.
stap -L "kernel.mark(\"*\")"
echo "== tapset"
stap -L "acme.cmd.*"
echo "== done"
