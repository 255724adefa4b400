"""A number the GM types on the dashboard, in a form or in a confirmation link's query:
"57" and "#57" (as a post is shown) are 57, empty is none given, anything else is refused
in one line naming the field, never a traceback (a "²" passed `isdigit` and broke
`int()`: HTTP 500)."""

from __future__ import annotations

import pytest
from starlette.datastructures import FormData, QueryParams

from assistant.web.forms import FormError, number


@pytest.mark.parametrize("fields", [FormData, QueryParams])
def test_a_number_field_reads_what_the_gm_typed(fields: type) -> None:
    given = fields([("post", " #57 "), ("day", "2"), ("night", ""), ("at", "  ")])
    assert number(given, "post", "the post") == 57
    assert number(given, "day", "the day") == 2
    assert number(given, "night", "the night") is None
    assert number(given, "at", "the post") is None
    assert number(given, "absent", "the day") is None


@pytest.mark.parametrize(("typed", "shown"), [
    ("two", "'two'"), ("#x", "'x'"), ("-1", "'-1'"), ("2.5", "'2.5'"), ("²", "'²'"),
    ("+5", "'+5'"), ("9" * 5000, "'999"),
])
def test_anything_else_is_refused_in_one_line(typed: str, shown: str) -> None:
    with pytest.raises(FormError) as refused:
        number(QueryParams([("day", typed)]), "day", "the day")
    assert str(refused.value).startswith(f"the day: give a number, not {shown}")
