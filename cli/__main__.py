"""`python -m showrunner_ledger.cli`: the `showrunner` console script, run by the interpreter that
imports it (the server runs a remote command line so, on its own installation)."""

from .main import run

run()
