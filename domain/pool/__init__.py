"""The d10 Pool ruleset: pools of stat + skill d10s against a DC, 1s cancel successes, botches, contests, Luck."""
