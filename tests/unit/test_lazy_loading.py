"""What keeps a command's start-up to what it runs, checked without starting one
(tests/e2e/test_startup.py starts `showrunner sheet` and reads what it loaded)."""

from __future__ import annotations

import importlib
import pkgutil

from pydantic import BaseModel

import showrunner_ledger.domain as domain
from showrunner_ledger.cli.main import ROOT_COMMANDS, build_part


def test_every_root_command_is_built_from_the_module_named_for_it() -> None:
    """The lazy root lists every command from its table: a command a module registers but the
    table does not name would never be found."""
    for module, part in sorted(set(ROOT_COMMANDS.values())):
        named = {name for name, given in ROOT_COMMANDS.items() if given == (module, part)}
        assert set(build_part(module, part, min(named))) == named, f"cli/{module}.py ({part})"


def _subclasses(cls: type[BaseModel]) -> list[type[BaseModel]]:
    return [found for sub in cls.__subclasses__() for found in (sub, *_subclasses(sub))]


def test_every_domain_model_defers_building_its_validator() -> None:
    for info in pkgutil.walk_packages(domain.__path__, f"{domain.__name__}."):
        importlib.import_module(info.name)
    models = [m for m in _subclasses(BaseModel) if m.__module__.startswith(f"{domain.__name__}.")]
    assert len(models) > 150, "the domain's models were not found"
    eager = sorted(f"{m.__module__}.{m.__qualname__}" for m in models if not m.model_config.get("defer_build"))
    assert eager == [], "add defer_build=True to the model's config (or its base's)"
