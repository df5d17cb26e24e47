"""The `showrunner` command: typer, formatting only. One sub-app per noun."""
