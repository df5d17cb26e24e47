"""The wheel ships every package and data file (what each package may import: test_architecture.py)."""

from __future__ import annotations

import fnmatch
import runpy
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
NAMESPACE = "showrunner_ledger"
CODE_FOLDERS = ("domain", "ledger", "projections", "cli", "web")
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]
PACKAGES: list[str] = runpy.run_path(str(REPO / "setup.py"), run_name="packaging-test")["PACKAGES"]


def _skipped(path: Path) -> bool:
    return any(part == "__pycache__" or part.startswith(".") for part in path.relative_to(REPO).parts)


def package_dirs() -> dict[str, Path]:
    """Every folder with an __init__.py under the code folders, by its installed dotted name."""
    found = {}
    for folder in CODE_FOLDERS:
        for init in sorted((REPO / folder).rglob("__init__.py")):
            if _skipped(init):
                continue
            relative = init.parent.relative_to(REPO)
            found[".".join((NAMESPACE, *relative.parts))] = init.parent
    return found


def source_dir(package: str) -> Path:
    """Where setuptools looks for `package`, following package-dir as it does."""
    mapping = SETUPTOOLS["package-dir"]
    parts = package.split(".")
    for cut in range(len(parts), 0, -1):
        prefix = ".".join(parts[:cut])
        if prefix in mapping:
            return REPO / mapping[prefix] / Path(*parts[cut:])
    raise AssertionError(f"{package} is not mapped by [tool.setuptools.package-dir]")


def test_every_code_folder_is_a_package():
    for folder in CODE_FOLDERS:
        assert (REPO / folder / "__init__.py").is_file(), f"{folder}/ has no __init__.py"


def test_every_package_is_listed():
    listed = set(PACKAGES)
    found = set(package_dirs())
    assert {f"{NAMESPACE}.{f}" for f in CODE_FOLDERS} <= found
    missing = sorted(found - listed)
    assert not missing, f"setup.py does not find these (they would be left out of the wheel): {missing}"


def test_every_listed_package_exists():
    for package in PACKAGES:
        assert package.startswith(f"{NAMESPACE}."), package
        folder = source_dir(package)
        assert (folder / "__init__.py").is_file(), f"{package} is listed but {folder} has no __init__.py"
    assert len(PACKAGES) == len(set(PACKAGES)), "a package is listed twice"


def test_package_dir_maps_the_top_level_folders():
    assert SETUPTOOLS["package-dir"] == {f"{NAMESPACE}.{f}": f for f in CODE_FOLDERS}
    found = package_dirs()
    for package, folder in found.items():
        assert source_dir(package) == folder


def test_data_files_are_shipped():
    """A non-Python file in a code folder is left out of the wheel unless package-data names it."""
    package_data: dict[str, list[str]] = SETUPTOOLS.get("package-data", {})
    packages = {folder: name for name, folder in package_dirs().items()}
    unshipped = []
    for folder in CODE_FOLDERS:
        for path in sorted((REPO / folder).rglob("*")):
            if path.is_dir() or _skipped(path) or path.suffix in (".py", ".pyc", ".pyi") or path.name == "py.typed":
                continue
            owner = next(p for p in [path.parent, *path.parents] if p in packages)
            relative = path.relative_to(owner).as_posix()
            patterns = package_data.get(packages[owner], []) + package_data.get("*", [])
            if not any(fnmatch.fnmatch(relative, pattern) for pattern in patterns):
                unshipped.append(str(path.relative_to(REPO)))
    assert not unshipped, f"not matched by [tool.setuptools.package-data]: {unshipped}"


def test_project_metadata():
    project = PYPROJECT["project"]
    assert project["name"] == "showrunner-ledger"
    assert project["scripts"] == {"showrunner": "showrunner_ledger.cli.main:run"}
    assert project["requires-python"] == ">=3.11"

    def names(requirements: list[str]) -> set[str]:
        out = set()
        for requirement in requirements:
            name = requirement
            for stop in "[<>=!~; ":
                name = name.split(stop)[0]
            out.add(name.strip().lower())
        return out

    dependencies = names(project["dependencies"])
    for needed in ("eventsourcing", "pydantic", "sqlalchemy", "typer", "platformdirs", "psycopg"):
        assert needed in dependencies, needed
    eventsourcing = next(r for r in project["dependencies"] if r.lower().startswith("eventsourcing"))
    assert "9.5" in eventsourcing
    assert {"pytest", "freezegun", "hypothesis"} <= names(project["optional-dependencies"]["test"])


def test_console_script_target_exists():
    import importlib

    module = importlib.import_module("showrunner_ledger.cli.main")
    assert callable(module.run)
