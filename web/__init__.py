"""The shared table's server (`showrunner serve`): the fifth room, a second face beside cli/.

It reads and records through the ledger and the projections exactly as the CLI does, and holds
the identities: every request is authorised here, a Star's as `--as STAR` would be.
"""
