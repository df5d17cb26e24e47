"""Headless Chromium from Debian's packages, for the tests of every page the project makes
(the verifier page, the timeline page, the recap card)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import in_ci

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


@contextlib.contextmanager
def headless_chromium(what: str) -> Iterator[Any]:
    """A Chromium driver; without Chromium here the test skips saying why, and fails under CI
    (`what`: what CI must test, for that message)."""
    missing = [path for path in (CHROMIUM, CHROMEDRIVER) if not os.access(path, os.X_OK)]
    if missing:
        reason = f"no headless Chromium here ({', '.join(missing)} missing): apt-get install chromium chromium-driver"
        if in_ci():
            pytest.fail(f"CI must test {what}, but {reason}")
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    try:
        yield driver
    finally:
        driver.quit()
