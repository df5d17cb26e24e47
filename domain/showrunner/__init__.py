"""The Showrunner ruleset: the Difficulty ladder, the Star sheet and its file format."""
