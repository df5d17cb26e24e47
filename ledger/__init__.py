"""The event store and its application service: streams, branches, integrity, dice seeds."""
