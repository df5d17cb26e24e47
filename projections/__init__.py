"""Read models: pure folds and views over the ledger's events."""
