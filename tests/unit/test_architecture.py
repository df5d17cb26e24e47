"""The layer rules, read from the code: what each of the five code folders may import.

domain/ imports only the standard library, pydantic and itself; ledger/ never imports cli/,
projections/, web/ or a ruleset's package; projections/ never imports cli/, web/ nor a ruleset's
package; web/ (the shared table's server) never imports cli/; cli/ may import anything, web/
only from the one command that starts the server (cli/serve.py). Every import counts: absolute or relative, at the top of a module,
inside a function or under `if TYPE_CHECKING:`, and every module named to `import_module`.
The checker reads a folder laid out like the repository, so the tests at the end feed it
modules that break each rule and see it fail.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
NAMESPACE = "showrunner_ledger"
CODE_FOLDERS = ("domain", "ledger", "projections", "cli", "web")
DOMAIN = f"{NAMESPACE}.domain"
# pydantic_core is pydantic's own engine: domain/ raises its PydanticCustomError and reads its ErrorDetails.
DOMAIN_MAY_IMPORT = frozenset(sys.stdlib_module_names) | {"pydantic", "pydantic_core"}
FORBIDDEN_ROOMS = {"ledger": ("cli", "projections", "web"), "projections": ("cli", "web"), "web": ("cli",)}
WEB_FROM_CLI = f"{NAMESPACE}.cli.serve"
"""The one module of cli/ that imports web/: every other command starts without the server's libraries."""
REGISTRY = "BUILT_IN"
"""domain/rulesets.py's table of built-in rulesets: name -> ".package.module:attribute", imported lazily."""

DYNAMIC_IMPORTS: dict[tuple[str, str], str] = {
    # (module, the name given to import_module as written): why the checker can still see what it loads.
    (f"{DOMAIN}.rulesets", "module"): (
        f"a {REGISTRY} value's module, relative to domain/: every value is a literal, read as an import of domain.rulesets"
    ),
    (f"{DOMAIN}.ruleset", "module"): (
        "one of a Ruleset's fact_modules, relative to its package: every Ruleset(...) names them literally,"
        " read as imports of the module that builds it"
    ),
}


@dataclass(frozen=True)
class Import:
    importer: str
    target: str
    where: str


@dataclass
class Report:
    imports: list[Import] = field(default_factory=list)
    dynamic: dict[tuple[str, str], str] = field(default_factory=dict)
    """import_module calls whose module is only known at run time: (module, name as written) -> where."""


def _skipped(path: Path, root: Path) -> bool:
    return any(part == "__pycache__" or part.startswith(".") for part in path.relative_to(root).parts)


def modules(root: Path) -> dict[str, Path]:
    """Every module under the code folders of `root`, by its installed dotted name."""
    found = {}
    for folder in CODE_FOLDERS:
        if not (root / folder).is_dir():
            continue
        for path in sorted((root / folder).rglob("*.py")):
            if _skipped(path, root):
                continue
            parts = path.relative_to(root).with_suffix("").parts
            found[".".join((NAMESPACE, *(parts[:-1] if parts[-1] == "__init__" else parts)))] = path
    return found


def _resolve(name: str, level: int, package: str) -> str:
    """A relative name as Python resolves it: level 1 is `package` itself, each further dot its parent."""
    base = package.split(".")
    assert level <= len(base), f"{'.' * level}{name} climbs above {NAMESPACE} from {package}"
    return ".".join([*base[: len(base) - level + 1], *([name] if name else [])])


def _anchor(expression: ast.expr | None, own_package: str) -> str | None:
    """The package a relative name is resolved in; `__package__` (or `__package__ or ""`) is the module's own."""
    if isinstance(expression, ast.BoolOp) and isinstance(expression.op, ast.Or):
        expression = expression.values[0]
    if isinstance(expression, ast.Name) and expression.id == "__package__":
        return own_package
    if isinstance(expression, ast.Constant) and isinstance(expression.value, str):
        return expression.value
    return None


def _named(name: str, package: str | None) -> str | None:
    if not name.startswith("."):
        return name
    level = len(name) - len(name.lstrip("."))
    return None if package is None else _resolve(name[level:], level, package)


def _keyword(call: ast.Call, keyword: str) -> ast.expr | None:
    return next((k.value for k in call.keywords if k.arg == keyword), None)


def _argument(call: ast.Call, position: int, keyword: str) -> ast.expr | None:
    return call.args[position] if len(call.args) > position else _keyword(call, keyword)


def _is_import_module(function: ast.expr) -> bool:
    if isinstance(function, ast.Name):
        return function.id == "import_module"
    return (
        isinstance(function, ast.Attribute)
        and function.attr == "import_module"
        and isinstance(function.value, ast.Name)
        and function.value.id == "importlib"
    )


def _registry(tree: ast.Module) -> list[ast.Constant]:
    """The values ("module:attribute") of the module-level REGISTRY dict, if the module has one."""
    for node in tree.body:
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        if any(isinstance(t, ast.Name) and t.id == REGISTRY for t in targets) and isinstance(node.value, ast.Dict):
            values = node.value.values
            assert all(isinstance(v, ast.Constant) and isinstance(v.value, str) for v in values), (
                f"{REGISTRY} holds a non-literal"
            )
            return [v for v in values if isinstance(v, ast.Constant)]
    return []


def imports_of(module: str, path: Path, known: Collection[str], root: Path, report: Report) -> None:
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    relative = path.relative_to(root).as_posix()

    def found(target: str | None, node: ast.expr | ast.stmt, written: ast.expr | None = None) -> None:
        where = f"{relative}:{node.lineno}"
        if target is None:
            report.dynamic[(module, ast.unparse(written) if written is not None else "")] = where
        else:
            report.imports.append(Import(module, target, where))

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found(alias.name, node)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(node.module or "", node.level, package) if node.level else node.module or ""
            for alias in node.names:
                # `from .x import y` imports module x.y when the tree has one, else a name defined in x.
                submodule = f"{base}.{alias.name}"
                found(submodule if submodule in known else base, node)
        elif isinstance(node, ast.Call) and _is_import_module(node.func):
            name = _argument(node, 0, "name")
            literal = isinstance(name, ast.Constant) and isinstance(name.value, str)
            anchor = _anchor(_argument(node, 1, "package"), package)
            found(_named(name.value, anchor) if literal else None, node, name)
        elif isinstance(node, ast.Call):
            # A Ruleset's fact_modules are imported by Ruleset.load_facts, relative to its `package`.
            for keyword in node.keywords:
                if keyword.arg == "fact_modules":
                    anchor = _anchor(_keyword(node, "package"), package)
                    for element in getattr(keyword.value, "elts", [keyword.value]):
                        is_text = isinstance(element, ast.Constant) and isinstance(element.value, str)
                        found(_named(element.value, anchor) if is_text else None, element, element)
    for entry in _registry(tree):
        found(_named(str(entry.value).partition(":")[0], package), entry)


def check(root: Path) -> Report:
    report = Report()
    found = modules(root)
    known = set(found) | {f"{NAMESPACE}.{folder}" for folder in CODE_FOLDERS}
    for module, path in found.items():
        imports_of(module, path, known, root, report)
    return report


def ruleset_packages(root: Path) -> set[str]:
    """The sub-packages of domain/ that hold a ruleset: those its registry of built-in rulesets names."""
    tree = ast.parse((root / "domain" / "rulesets.py").read_text(encoding="utf-8"))
    resolved = (_named(str(entry.value).partition(":")[0], DOMAIN) for entry in _registry(tree))
    return {".".join(name.split(".")[:3]) for name in resolved if name}


def _within(target: str, package: str) -> bool:
    return target == package or target.startswith(f"{package}.")


def breaches(report: Report) -> list[str]:
    """Every import that breaks a layer rule, with where it is written and the rule."""
    out = []
    for found in report.imports:
        room = found.importer.split(".")[1]
        outside = found.target.split(".")[0] not in DOMAIN_MAY_IMPORT and not _within(found.target, DOMAIN)
        if room == "domain" and outside:
            out.append(
                f"{found.where}: {found.target} (domain/ imports only the standard library, pydantic and itself)"
            )
        for forbidden in FORBIDDEN_ROOMS.get(room, ()):
            if _within(found.target, f"{NAMESPACE}.{forbidden}"):
                out.append(f"{found.where}: {found.target} ({room}/ never imports {forbidden}/)")
        if room == "cli" and found.importer != WEB_FROM_CLI and _within(found.target, f"{NAMESPACE}.web"):
            out.append(f"{found.where}: {found.target} (cli/ imports web/ only in {WEB_FROM_CLI})")
    for (module, written), where in report.dynamic.items():
        if module.split(".")[1] != "cli" and (module, written) not in DYNAMIC_IMPORTS:
            out.append(f"{where}: import_module({written}) (a module known only at run time; no rule can check it)")
    return out


def ruleset_imports(root: Path, report: Report) -> set[tuple[str, str]]:
    """(importing module, imported module) for every import of a ruleset's package from ledger/ or projections/."""
    rulesets = ruleset_packages(root)
    return {
        (found.importer, found.target)
        for found in report.imports
        if found.importer.split(".")[1] in FORBIDDEN_ROOMS and any(_within(found.target, r) for r in rulesets)
    }


@pytest.fixture(scope="module")
def repository() -> Report:
    return check(REPO)


def test_the_layer_rules_hold(repository):
    assert len(repository.imports) > 500, "the checker reads no imports: it would pass anything"
    assert not breaches(repository)


def test_ledger_and_projections_import_no_ruleset(repository):
    found = sorted(ruleset_imports(REPO, repository))
    assert found == [], "ledger/ and projections/ reach a ruleset only through the Ruleset seam"


def test_every_run_time_import_is_explained(repository):
    assert not set(DYNAMIC_IMPORTS) - set(repository.dynamic), (
        "DYNAMIC_IMPORTS names an import_module call that is gone"
    )


def test_the_rulesets_are_those_the_registry_names():
    packages = ruleset_packages(REPO)
    assert f"{DOMAIN}.showrunner" in packages and len(packages) >= 3
    assert all(modules(REPO).get(package, Path()).name == "__init__.py" for package in packages)


def test_lazy_imports_are_read_from_their_literals(repository):
    targets = {(i.importer, i.target) for i in repository.imports}
    assert (f"{DOMAIN}.rulesets", f"{DOMAIN}.pool.ruleset") in targets
    assert (f"{DOMAIN}.showrunner.ruleset", f"{DOMAIN}.showrunner.world_events") in targets


# The checker, fed a small tree laid out like the repository with one module that breaks a rule.

TOY_REGISTRY = 'BUILT_IN = {"toy": ".toy.ruleset:TOY"}\n'


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in {"domain/rulesets.py": TOY_REGISTRY, "domain/toy/ruleset.py": "", **files}.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        for folder in path.relative_to(root).parents[:-1]:
            (root / folder / "__init__.py").touch()
    return root


def test_a_clean_tree_passes(tmp_path):
    root = _tree(
        tmp_path,
        {
            "domain/rules.py": "import dataclasses\nfrom pydantic import BaseModel\nfrom . import errors\nfrom .toy.ruleset import x\n",
            "domain/errors.py": "",
            "ledger/service.py": "from eventsourcing.application import Application\nfrom ..domain.rules import R\n",
            "projections/sheet.py": "from ..ledger.service import Ledger\nfrom ..domain import rules\n",
            "web/app.py": "import fastapi\nfrom ..ledger.service import Ledger\nfrom ..projections import sheet\n",
            "cli/serve.py": "def serve():\n    from ..web.app import make\n",
            "cli/main.py": "import typer\nfrom ..projections import sheet\nfrom ..domain.toy import ruleset\nimport_module(name)\n",
        },
    )
    report = check(root)
    assert not breaches(report)
    assert not ruleset_imports(root, report)


@pytest.mark.parametrize(
    ("name", "text", "reported"),
    [
        ("domain/bad.py", "from ..ledger.service import Ledger\n", "showrunner_ledger.ledger.service (domain/"),
        ("domain/bad.py", "def f():\n    import sqlalchemy\n", "sqlalchemy (domain/"),
        ("domain/bad.py", "if TYPE_CHECKING:\n    from eventsourcing import x\n", "eventsourcing (domain/"),
        ("domain/bad.py", "from showrunner_ledger.cli.main import app\n", "showrunner_ledger.cli.main (domain/"),
        ("domain/toy/bad.py", "from ...projections import sheet\n", "showrunner_ledger.projections (domain/"),
        ("domain/bad.py", 'import_module("..cli.main", __package__)\n', "showrunner_ledger.cli.main (domain/"),
        ("domain/bad.py", 'importlib.import_module("typer")\n', "typer (domain/"),
        ("domain/rulesets.py", 'BUILT_IN = {"toy": "..cli.toy:TOY"}\n', "showrunner_ledger.cli.toy (domain/"),
        (
            "domain/toy/ruleset.py",
            'R = Ruleset(package=__package__ or "", fact_modules=("...ledger.x",))\n',
            "showrunner_ledger.ledger.x (domain/",
        ),
        ("domain/bad.py", "import_module(name, __package__)\n", "import_module(name) (a module known only at run time"),
        ("domain/bad.py", 'import_module(".x", anchor)\n', "import_module('.x') (a module known only at run time"),
        ("ledger/bad.py", "from ..cli import x\n", "showrunner_ledger.cli (ledger/ never imports cli/)"),
        ("ledger/bad.py", "from .. import cli\n", "showrunner_ledger.cli (ledger/ never imports cli/)"),
        (
            "ledger/bad.py",
            "def f():\n    from ..projections.sheet import s\n",
            "showrunner_ledger.projections.sheet (ledger/ never imports projections/)",
        ),
        (
            "ledger/bad.py",
            "import showrunner_ledger.projections\n",
            "showrunner_ledger.projections (ledger/ never imports projections/)",
        ),
        (
            "projections/bad.py",
            "from ..cli.main import app\n",
            "showrunner_ledger.cli.main (projections/ never imports cli/)",
        ),
        (
            "projections/sub/bad.py",
            'import_module("...cli", __package__)\n',
            "showrunner_ledger.cli (projections/ never imports cli/)",
        ),
        (
            "web/bad.py",
            "from ..cli.session import Session\n",
            "showrunner_ledger.cli.session (web/ never imports cli/)",
        ),
        ("ledger/bad.py", "from ..web import app\n", "showrunner_ledger.web (ledger/ never imports web/)"),
        ("projections/bad.py", "from ..web import app\n", "showrunner_ledger.web (projections/ never imports web/)"),
        (
            "cli/sheet.py",
            "def f():\n    from ..web.app import make\n",
            "showrunner_ledger.web.app (cli/ imports web/ only in",
        ),
    ],
)
def test_a_broken_rule_is_reported(tmp_path, name, text, reported):
    root = _tree(tmp_path, {name: text})
    found = breaches(check(root))
    assert len(found) == 1 and found[0].startswith(f"{name}:") and reported in found[0], found


@pytest.mark.parametrize(
    ("name", "text", "imported"),
    [
        ("ledger/bad.py", "from ..domain.toy.ruleset import TOY\n", "showrunner_ledger.domain.toy.ruleset"),
        ("ledger/bad.py", "from ..domain import toy\n", "showrunner_ledger.domain.toy"),
        (
            "projections/bad.py",
            "def f():\n    from showrunner_ledger.domain.toy import ruleset\n",
            "showrunner_ledger.domain.toy.ruleset",
        ),
    ],
)
def test_a_ruleset_import_is_reported(tmp_path, name, text, imported):
    root = _tree(tmp_path, {name: text})
    importer = f"{NAMESPACE}.{name.removesuffix('.py').replace('/', '.')}"
    assert ruleset_imports(root, check(root)) == {(importer, imported)}


# ----------------------------------------------------------------- no import loops inside cli/


def cli_cycles(report: Report) -> list[list[str]]:
    """Every loop in the import graph of cli/ (imports inside functions count: a loop there
    only waits for the first call to break)."""
    cli = f"{NAMESPACE}.cli"
    graph: dict[str, set[str]] = {}
    for found in report.imports:
        if _within(found.importer, cli) and _within(found.target, cli) and found.target != cli:
            graph.setdefault(found.importer, set()).add(found.target)
    loops: list[list[str]] = []
    done: set[str] = set()

    def walk(module: str, path: list[str]) -> None:
        if module in path:
            loop = path[path.index(module) :]
            if sorted(loop) not in (sorted(seen) for seen in loops):
                loops.append(loop)
            return
        if module in done:
            return
        for target in sorted(graph.get(module, ())):
            walk(target, [*path, module])
        done.add(module)

    for module in sorted(graph):
        walk(module, [])
    return loops


def test_no_import_loops_inside_cli(repository):
    assert cli_cycles(repository) == []


def test_an_import_loop_inside_cli_is_reported(tmp_path):
    root = _tree(
        tmp_path,
        {
            "cli/check.py": "from . import threat\n",
            "cli/threat.py": "def strike():\n    from .world_common import x\n",
            "cli/world_common.py": "from .check import FACE_FLAGS\n",
            "cli/fine.py": "from . import check\n",
        },
    )
    (loop,) = cli_cycles(check(root))
    assert sorted(loop) == [f"{NAMESPACE}.cli.check", f"{NAMESPACE}.cli.threat", f"{NAMESPACE}.cli.world_common"]
