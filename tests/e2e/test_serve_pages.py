"""The players' pages in headless Chromium: an invite link opened signs the browser in, and an
event landing shows on the open log page without a reload (the event stream), but never a
Director-only one."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from tests.browser import headless_chromium

from .conftest import PRIVATE_NOTE
from .test_serve import Server, served


@pytest.fixture
def sqlite_table(tmp_path: Path) -> Iterator[Server]:
    yield from served("sqlite", tmp_path)


def wait_for(condition: Callable[[], bool], seconds: float = 20) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return False


def test_an_invite_link_signs_in_and_the_log_updates_live(sqlite_table: Server) -> None:
    table = sqlite_table
    done = table.script("invite", "Mara", "--server-url", table.url, "--json")
    assert done.returncode == 0, done.stderr
    link = json.loads(done.stdout)["url"]
    with headless_chromium("the shared table's pages") as browser:
        browser.get(link)
        assert wait_for(lambda: "Signed in as Mara Voss" in browser.page_source), browser.page_source
        assert "#" not in browser.current_url  # the code left the address bar
        assert browser.get_cookie("showrunner_session")["httpOnly"] is True
        browser.get(f"{table.url}/log")
        assert PRIVATE_NOTE not in browser.page_source
        browser.execute_script("window.stillThisPage = true;")
        time.sleep(2)  # the stream's first count arrives before the new events
        for args in (("note", "--private", "Zq the second informant"), ("note", "The tide turns")):
            assert table.script(*args).returncode == 0
        assert wait_for(lambda: "The tide turns" in browser.page_source), browser.page_source
        assert browser.execute_script("return window.stillThisPage === true;")  # updated in place
        assert "second informant" not in browser.page_source
        # A form, with its CSRF token, records through the ledger as the Star.
        browser.get(f"{table.url}/sheet/Mara")
        browser.find_element(By.NAME, "reason").send_keys("From the phone")
        browser.find_element(By.CSS_SELECTOR, 'button[value="spend"]').click()
        assert wait_for(lambda: "/sheet/" in browser.current_url)
        last = json.loads(table.script("log", "--json").stdout)["events"][-1]
        assert (last["summary"], last["recorded_by"]) == ("Mara Voss spent 1 Grit (From the phone)", "Mara Voss")
        # The same link again, in the same or any browser, opens nothing.
        browser.delete_all_cookies()
        browser.get(link)
        assert wait_for(lambda: "already used" in browser.page_source), browser.page_source
