"""Package discovery: every package under the five code folders, installed under `showrunner_ledger`.

The static metadata lives in pyproject.toml. Only the package list is computed here, so a
new ruleset's package (and its examples/) ships without another line anywhere.
"""

from setuptools import find_packages, setup

CODE_FOLDERS = ("domain", "ledger", "projections", "cli", "web")
PACKAGES = [
    f"showrunner_ledger.{name}"
    for folder in CODE_FOLDERS
    for name in (folder, *(f"{folder}.{sub}" for sub in find_packages(folder)))
]

if __name__ == "__main__":
    setup(packages=PACKAGES)
