"""No module of `assistant/` is over 1,000 lines: a room a newcomer can read. A module that
grows past it is split along its own seams (as `count/tally.py` and `daemon/` were), not
given a higher limit."""

from __future__ import annotations

from conftest import ROOT

MAX_LINES = 1000

#: Modules being split at this moment by another part of the same work, each with why; the
#: line goes when the split lands (a module listed here that is gone is no exemption).
BEING_SPLIT: dict[str, str] = {}


def module_lengths() -> dict[str, int]:
    package = ROOT / "assistant"
    return {
        p.relative_to(ROOT).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
        for p in sorted(package.rglob("*.py"))
    }


def test_no_module_is_over_a_thousand_lines() -> None:
    lengths = module_lengths()
    assert "assistant/count/tally.py" in lengths  # the walk finds the packages' modules
    over = {path: n for path, n in lengths.items() if n > MAX_LINES and path not in BEING_SPLIT}
    assert not over, "modules over 1,000 lines (split them along their seams): " + ", ".join(
        f"{path} ({n} lines)" for path, n in sorted(over.items())
    )


def test_the_guard_names_a_module_over_the_limit(tmp_path, monkeypatch) -> None:
    """The test above fails, naming the module and its length, for a module too long."""
    import test_module_sizes as sizes

    (tmp_path / "assistant" / "count").mkdir(parents=True)
    (tmp_path / "assistant" / "count" / "tally.py").write_text("x = 1\n" * 1001)
    monkeypatch.setattr(sizes, "ROOT", tmp_path)
    try:
        sizes.test_no_module_is_over_a_thousand_lines()
    except AssertionError as e:
        assert "assistant/count/tally.py (1001 lines)" in str(e)
    else:
        raise AssertionError("a 1,001-line module passed the guard")
