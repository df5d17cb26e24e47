#!/usr/bin/env bash
# A session's commands, each under an id of its own: after any failure, run it again from the
# top; what was recorded is skipped, the rest runs (docs/how-to/retry-a-command-safely.md).
set -e
session=s12
showrunner episode start "The Flooded Vault" --command-id "$session-episode"
showrunner check Mara fight -d HARD --action 6,4,1 --script 5,2 --no-input --command-id "$session-check-1"
showrunner spend Mara grit --reason "Catching her breath" --command-id "$session-spend-1"
