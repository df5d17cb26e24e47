""".ci/run for anyone: PostgreSQL starts for a user who is not root, and a missing Python says
what to install (.ci/postgres.sh holds both parts, sourced by .ci/run)."""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import psycopg
import pytest

from tests.e2e.conftest import REPO

SCRIPT = REPO / ".ci" / "postgres.sh"
USER = "showrunner-ci"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_someone_else() -> tuple[list[str], Path]:
    """The command prefix that runs as a user who is not root, and a copy of the script they can read."""
    if os.geteuid() != 0:
        return [], SCRIPT  # already not root: the path under test is this one
    if shutil.which("useradd") is None:
        pytest.skip("root without useradd: no other user to run as")
    try:
        pwd.getpwnam(USER)
    except KeyError:
        subprocess.run(["useradd", "--no-create-home", "--shell", "/bin/sh", USER], check=True)
    # pytest's own folders are root's alone: the other user reads a copy in a folder of its own.
    folder = Path(tempfile.mkdtemp(prefix="showrunner-ci-test-"))
    folder.chmod(0o755)
    copy = folder / "postgres.sh"
    shutil.copy(SCRIPT, copy)
    copy.chmod(0o755)
    return ["su", USER, "-s", "/bin/bash", "-c"], copy


@pytest.mark.skipif(not list(Path("/usr/lib/postgresql").glob("*/bin/initdb")), reason="PostgreSQL is not installed")
def test_postgres_starts_as_a_user_who_is_not_root() -> None:
    prefix, script = _as_someone_else()
    port = _free_port()
    command = f"bash {script} {port}"
    argv = [*prefix, command] if prefix else ["bash", str(script), str(port)]
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().strip()
        assert url == f"postgresql://postgres@127.0.0.1:{port}/showrunner_test", url or (
            proc.stderr.read() if proc.stderr else ""
        )
        with psycopg.connect(url) as conn:
            owner = conn.execute(
                "select pg_catalog.pg_get_userbyid(datdba) from pg_database where datname = 'showrunner_test'"
            ).fetchone()
            assert owner == ("postgres",)
            row = conn.execute("select current_setting('data_directory')").fetchone()
            assert row is not None
            # The cluster is the other user's (root could not have started it as root).
            expected = pwd.getpwnam(USER).pw_uid if prefix else os.geteuid()
            assert Path(row[0]).stat().st_uid == expected
    finally:
        proc.communicate(input="", timeout=60)  # stdin closes: the cluster stops and its folder goes
        if script != SCRIPT:
            shutil.rmtree(script.parent, ignore_errors=True)
    assert proc.returncode == 0
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(url, connect_timeout=2)


def test_a_missing_python_names_what_to_install(tmp_path: Path) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    result = subprocess.run(
        ["/bin/bash", "-c", f". {SCRIPT}; check_python"],
        env={"PATH": str(empty)},
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1
    assert result.stderr.strip() == (
        ".ci/run: python3 (3.11 or newer) is missing; install it (Debian/Ubuntu: sudo apt-get install python3 python3-venv) and run again"
    )


def test_the_readme_states_the_prerequisites_in_one_line() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    line = next(line for line in readme.splitlines() if line.startswith("Prerequisites:"))
    for needed in ("Python 3.11", "venv", "PostgreSQL", "Chromium", "espeak-ng"):
        assert needed in line, (needed, line)
