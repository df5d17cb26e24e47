"""Awards' powers from the command line: bad input is refused in one line with nothing written."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import assert_refused, head, new_campaign

FACES = ("--action", "5,4,1", "--script", "6,6")


@pytest.mark.parametrize(
    "args, code, needle",
    [
        (("check", "Mara", "fight", "-d", "NORMAL", "--award", "icon", *FACES), 2, "--award: 'icon' is not an Award"),
        (("check", "Mara", "fight", "-d", "NORMAL", "--award", "artisan"), 1, "has not won the Artisan Award"),
        (("check", "Mara", "fight", "-d", "NORMAL", "--award", "luminary", *FACES), 1, "has not won the Luminary"),
        (("consequence", "Mara", "limit", "-d", "HARD", "--icon"), 1, "has not won the Icon Award"),
        (("consequence", "Mara", "complication", "-d", "HARD", "--icon"), 2, "--icon does not apply to complication"),
    ],
)
def test_an_award_power_that_cannot_be_used_is_refused_and_writes_nothing(run, args, code, needle):
    new_campaign(run)
    before = head(run)
    assert_refused(run(*args), code, needle)
    assert head(run) == before
