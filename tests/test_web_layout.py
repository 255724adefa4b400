"""The game page as the GM's one screen, in headless Chromium at a laptop's 1400 px and a
phone's 390 px, on thread B as it grew (served on 127.0.0.1, polled by the daemon with the
test's clock): what needs the GM first, the count, chart and clock without scrolling, a
chart step that says who voted, a finished game that says so, a night that still shows
the day's history, and no page wider than a phone.

Screenshots of each view go to ASSISTANT_SCREENSHOTS (or pytest's tmp dir).
"""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

from cli_support import run_at
from test_web_dashboard import (  # noqa: F401 - the fixtures
    WAIT_MS,
    Live,
    browser,
    live,
    shots,
)

from assistant.alerts import Alert, AlertLog
from assistant.monitor import load_view, run_checks
from assistant.store import GameStore

LAPTOP = {"width": 1400, "height": 900}
PHONE = {"width": 390, "height": 844}


def no_horizontal_scroll(page) -> bool:  # noqa: ANN001 - a Playwright Page
    return page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def in_view(page, selector: str) -> bool:  # noqa: ANN001
    """The element is shown whole inside the window as it opens (no scrolling)."""
    box = page.locator(selector).first.bounding_box()
    height = page.evaluate("window.innerHeight")
    width = page.evaluate("window.innerWidth")
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height and \
        box["x"] + box["width"] <= width


def small_targets(page) -> list[str]:  # noqa: ANN001
    """Buttons and tabs shown on the page that a thumb cannot hit (under 40 px)."""
    return page.evaluate("""() => Array.from(document.querySelectorAll(
        'button, [role=tab], .games td a')).filter(e => e.offsetParent !== null).filter(e => {
          const r = e.getBoundingClientRect(); return r.height < 40 || r.width < 40; })
        .map(e => e.outerHTML.slice(0, 80))""")


def submit(page, selector: str) -> None:  # noqa: ANN001
    """Click a form's button and wait for the page the action sends the browser to."""
    with page.expect_navigation():
        page.click(selector)


def checks_of_the_whole_day(live: Live, *, total: int = 0) -> int:  # noqa: F811
    """The checks the daemon runs, on the day as it stands (thread B's real alerts: two
    violations, warnings, an info), and info alerts newer than all of them up to `total`
    (as a long day's late edits add them), so that a page listing the newest first would
    not show a violation first."""
    now = live.clock.now()
    with GameStore.open(live.data, "thread-b", create=False) as store:
        log = AlertLog(store)
        log.record(run_checks(load_view(store, now), store), now)
        notes = max(total - len(log.all(include_acked=False)), 0)
        log.record([Alert("edit", "info", f"Kat's post #{140 + i} was edited a minute "
                          "after it was made; it carries no vote", player="Kat",
                          occurred_at=now + timedelta(seconds=i), detail_key=f"late-{i}")
                    for i in range(notes)], now + timedelta(seconds=notes))
        return len(log.all(include_acked=False))


RUNNING = 7
"""The snapshot of thread B whose Day 2 still runs (a minute left after everyone voted)."""


def test_a_laptop_sees_the_violation_first_and_the_count_chart_and_clock_at_once(
    live: Live, browser, shots: Path  # noqa: ANN001, F811
) -> None:
    live.grow_to(RUNNING)
    open_alerts = checks_of_the_whole_day(live, total=10)
    assert open_alerts == 10
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live.web.url + "/game/thread-b")

    # The state in words, never a negative countdown.
    state = page.locator("#state .state-line").inner_text()
    assert state.startswith("Day 2 · ") and " left · " in state, state
    assert "-" not in page.locator("#state .countdown").inner_text()
    # What needs the GM: every open alert, the violations first.
    rows = page.locator("#alerts .alert-list > li.alert:not(.acked)")
    assert rows.count() == open_alerts
    severities = rows.evaluate_all("els => els.map(e => e.classList[1])")
    assert severities[0] == "violation"
    rank = {"violation": 0, "warning": 1, "info": 2}
    assert [rank[s] for s in severities] == sorted(rank[s] for s in severities)
    # The count, the chart and the clock without scrolling; the tabs too.
    for selector in ("#state", "#count table.count", "svg.chart", "#tab-drafts",
                     "#tab-players", "#alerts .alert-list > li.violation"):
        assert in_view(page, selector), selector
    # The day page has no error box (the dawn not yet drafted says when, in grey).
    assert page.locator(".error").count() == 0
    page.click("#tab-drafts")
    assert "once Night 2 is resolved" in page.locator("#draft-dawn .later").inner_text()
    assert no_horizontal_scroll(page)
    page.screenshot(path=str(shots / "laptop-day.png"))
    page.screenshot(path=str(shots / "laptop-day-full.png"), full_page=True)

    # A row opens to its evidence; several are acknowledged at once, in one click.
    first = rows.first
    first.locator("summary").click()
    assert first.locator(".alert-body").is_visible()
    ids = rows.evaluate_all("els => els.slice(1, 4).map(e => e.dataset.alert)")
    for alert_id in ids:
        page.check(f"#alert-{alert_id} input[name=alert]")
    page.click("#alerts button.ack-selected")
    page.wait_for_selector(".flash")
    assert page.locator(".flash").inner_text().count("Acknowledged") == 3
    with GameStore.open(live.data, "thread-b", create=False) as store:
        acked = {s.id for s in AlertLog(store).all() if s.acked_at is not None}
    assert acked == set(ids)
    assert page.locator("#alerts .alert-list > li.alert:not(.acked)").count() == open_alerts - 3
    assert errors == []
    context.close()


def test_pointing_at_a_chart_step_shows_who_voted_in_which_post(
    live: Live, browser, shots: Path, capsys, monkeypatch  # noqa: ANN001, F811
) -> None:
    live.grow_to(RUNNING)
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    page.goto(live.web.url + "/game/thread-b")
    steps = page.locator("svg.chart g.step")
    assert steps.count() >= 5
    # Every step says what its post changed; the last one is the count as it stands.
    step = steps.nth(steps.count() - 1)
    step.hover()
    tip = page.locator("#chart-tip")
    tip.wait_for(state="visible")
    text = tip.inner_text()
    assert " voted " in text or " unvoted" in text
    link = tip.locator("a")
    assert link.count() == 1 and "msg=" in (link.get_attribute("href") or "")
    post_id = int(link.inner_text().removeprefix("post "))
    code, out, err = run_at(capsys, monkeypatch, live.data, live.now(), "count", "thread-b",
                            "--json", "--why")
    tally = json.loads(out)
    voters = {v["voter"] for v in tally["votes"] if v["post"] == post_id and v["accepted"]}
    assert voters and all(v in text for v in voters)
    page.screenshot(path=str(shots / "chart-step.png"))
    # The marks are labelled above the plot, not on the lines.
    assert page.locator("svg.chart text.deadline-label").count() == 1
    assert page.locator("svg.chart .host-count").count() >= 1
    # The same history as a table, per player, with the post of every vote.
    page.click("#vote-table-link")
    table = page.locator("table.votes-by-player")
    pickles = table.locator("tbody.voter[data-voter='Mr. Pickles']")
    assert pickles.locator("tr").count() == sum(
        1 for v in tally["votes"] if v["voter"] == "Mr. Pickles")
    page.screenshot(path=str(shots / "votes-table.png"), full_page=True)
    context.close()


def test_a_phone_has_no_sideways_scroll_and_big_enough_buttons(
    live: Live, browser, shots: Path  # noqa: ANN001, F811
) -> None:
    live.grow_to(RUNNING)
    checks_of_the_whole_day(live, total=10)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                  device_scale_factor=2)
    page = context.new_page()
    page.goto(live.web.url + "/")
    assert no_horizontal_scroll(page)
    assert small_targets(page) == []
    page.screenshot(path=str(shots / "phone-overview.png"), full_page=True)
    page.goto(live.web.url + "/game/thread-b")
    assert no_horizontal_scroll(page)
    assert small_targets(page) == []
    page.screenshot(path=str(shots / "phone-game.png"))
    page.screenshot(path=str(shots / "phone-game-full.png"), full_page=True)
    # The chart scrolls in its box, opened at its end; its caption is whole on the screen,
    # not cut off inside that box.
    caption = page.locator("figure.history figcaption")
    box = caption.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert page.evaluate("(() => { const c = document.querySelector('figure.history "
                         "figcaption'); return c.scrollWidth <= c.clientWidth; })()")
    assert page.evaluate("(() => { const b = document.querySelector('.chart-box');"
                         " return b.scrollWidth > b.clientWidth && b.scrollLeft > 0; })()")
    caption.screenshot(path=str(shots / "phone-chart-caption.png"))
    # A tap on the chart shows the step, on the phone too.
    page.locator("svg.chart g.step").nth(3).tap()
    page.locator("#chart-tip").wait_for(state="visible")
    assert no_horizontal_scroll(page)
    page.screenshot(path=str(shots / "phone-chart-tap.png"))
    for tab in ("drafts", "players", "night", "votes", "gm", "setup", "log", "notify", "posts"):
        page.click(f"#tab-{tab}")
        assert no_horizontal_scroll(page), tab
        assert small_targets(page) == [], tab
    page.click("#tab-gm")
    page.locator("#panel-gm").screenshot(path=str(shots / "phone-gm-tab.png"))
    page.click("#tab-setup")
    page.locator("#panel-setup").screenshot(path=str(shots / "phone-setup-tab.png"))
    page.click("#tab-drafts")
    page.screenshot(path=str(shots / "phone-drafts.png"), full_page=True)
    context.close()


def test_a_finished_game_says_game_over_and_waits_for_nothing(
    live: Live, browser, shots: Path, capsys, monkeypatch  # noqa: ANN001, F811
) -> None:
    """Thread B's lynch of the Roleblocker leaves no Mafia: recorded from the page's dusk
    draft once the day is over, the engine's win check ends the game."""
    live.grow_to(len(live.snaps) - 1)
    live.clock.advance(timedelta(hours=1))  # past the deadline
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    page.on("dialog", lambda d: d.accept())  # "Record the lynch ...?"
    page.goto(live.web.url + "/game/thread-b")
    state = page.locator("#state .state-line").inner_text()
    assert state.startswith("Day 2 ended ") and "xX_Slayer_Xx lynched" in state, state
    page.click("#tab-drafts")
    page.click("#draft-dusk button[data-action=dusk-confirm]")
    page.wait_for_selector(".flash")
    assert "xX_Slayer_Xx (lynch)" in page.locator(".flash").inner_text()
    state = page.locator("#state .state-line").inner_text()
    assert state.startswith("Game over: Town won"), state
    assert "waiting" not in page.locator("#state").inner_text()
    # The CLI agrees the lynch is recorded, once: the button is gone.
    code, out, err = run_at(capsys, monkeypatch, live.data, live.now(), "draft", "dusk",
                            "thread-b")
    assert code == 0 and "already recorded" in out
    assert page.locator("#draft-dusk button[data-action=dusk-confirm]").count() == 0
    page.screenshot(path=str(shots / "laptop-game-over.png"))
    # The overview says it too.
    page.goto(live.web.url + "/")
    assert "Game over: Town won" in page.locator("tr.game[data-game='thread-b']").inner_text()
    context.close()


def test_at_night_the_page_shows_the_days_history(
    live: Live, browser, shots: Path, capsys, monkeypatch  # noqa: ANN001, F811
) -> None:
    live.grow_to(len(live.snaps) - 1)
    live.clock.advance(timedelta(hours=1))
    code, out, err = run_at(capsys, monkeypatch, live.data, live.now(), "phase", "thread-b",
                            "night", "2", "--ends", "+24h")
    assert code == 0, err
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    page.goto(live.web.url + "/game/thread-b")
    state = page.locator("#state .state-line").inner_text()
    assert state.startswith("Night 2 · 23 h 59 min left") or state.startswith(
        "Night 2 · 1 d"), state
    assert "Day 2 (ended)" in page.locator("#count h2").inner_text()
    lines = page.locator("svg.chart polyline.wagon")
    assert lines.count() >= 3
    assert page.locator("svg.chart g.step").count() >= 5
    assert page.locator(".error").count() == 0
    page.screenshot(path=str(shots / "laptop-night.png"))
    context.close()


def test_a_poll_swaps_only_the_parts_that_changed(
    live: Live, browser  # noqa: ANN001, F811
) -> None:
    live.grow_to(3)
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    page.goto(live.web.url + "/game/thread-b")
    page.click("#tab-night")
    page.fill("#order textarea", "Conia: jail Jd-")  # half-typed when the poll comes
    page.evaluate("window.notReloaded = true")
    live.grow_to(4)
    page.wait_for_selector("[data-live][data-updated]", state="attached", timeout=WAIT_MS)
    with GameStore.open(live.data, "thread-b", create=False) as store:
        newest = max(store.live_post_ids())
    page.wait_for_selector(f"#post-{newest}", state="attached", timeout=WAIT_MS)
    swapped = page.evaluate("document.querySelector('[data-live]').dataset.swapped")
    assert "posts" in swapped.split(",") and "count" in swapped.split(",")
    assert "orders" not in swapped.split(",") and "why" not in swapped.split(",")
    assert page.evaluate("window.notReloaded") is True
    assert page.locator("#order textarea").input_value() == "Conia: jail Jd-"
    context.close()


def test_the_clock_deaths_and_the_night_from_the_page_as_the_command_line_stores_them(
    live: Live, browser, shots: Path, capsys, monkeypatch  # noqa: ANN001, F811
) -> None:
    """The GM moderates the end of Day 2 and Night 2 from the page alone: starts the
    night, records a modkill, stores a PM, previews and resolves the night; each is what
    `phase`, `kill`, `pm` and `resolve` store and print."""
    live.grow_to(len(live.snaps) - 1)
    live.clock.advance(timedelta(hours=1))
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    page.on("dialog", lambda d: d.accept())
    page.goto(live.web.url + "/game/thread-b")
    page.click("#tab-gm")
    # The form offers the phase after Day 2 (chat-mafia begins by day: Night 2).
    assert page.locator("#phase-start select[name=kind]").input_value() == "night"
    assert page.locator("#phase-start input[name=number]").input_value() == "2"
    page.fill("#phase-start input[name=ends]", "+24h")
    submit(page, "#phase-start button")
    assert page.locator(".flash").inner_text().startswith("Night 2 started; deadline ")
    assert page.locator("#state .state-line").inner_text().startswith("Night 2 · ")
    code, out, err = run_at(capsys, monkeypatch, live.data, live.now(), "phase", "thread-b",
                            "--json")
    assert json.loads(out)["phase"] == "Night 2"

    # A refused death keeps the form and says what the command says.
    page.click("#tab-gm")
    page.fill("#death input[name=player]", "Nobody At All")
    submit(page, "#death button")
    code, out, err = run_at(capsys, monkeypatch, live.data, live.now(), "kill", "thread-b",
                            "Nobody At All", "--how", "modkill")
    assert code == 1 and page.locator("#death .error").inner_text() in err
    assert page.locator("#death input[name=player]").input_value() == "Nobody At All"
    page.fill("#death input[name=player]", "Tom & Jerry's")
    page.select_option("#death select[name=how]", "modkill")
    submit(page, "#death button")
    assert page.locator(".flash").inner_text().startswith("Recorded: Tom & Jerry's dead (modkill)")
    with GameStore.open(live.data, "thread-b", create=False) as store:
        deaths = [d["data"] for d in store.inputs("death")]
    assert deaths[-1]["player"] == "Tom & Jerry's" and deaths[-1]["how"] == "modkill"

    page.click("#tab-gm")
    page.fill("#pm input[name=player]", "Conia")
    page.fill("#pm textarea[name=text]", "You are Conia. Your role is Jailkeeper. Town.")
    submit(page, "#pm button")
    assert page.locator(".flash").inner_text().startswith("Stored Conia's role PM (8 words)")
    page.screenshot(path=str(shots / "laptop-gm-tab.png"))

    # The night: an order, a preview (nothing stored), the resolution.
    page.click("#tab-night")
    page.fill("#order textarea", "Conia: jail Jd-")
    submit(page, "#order form button")
    page.click("#tab-night")
    submit(page, "#order form[action$=resolve]:not([data-confirm]) button")
    code, out, err = run_at(capsys, monkeypatch, live.data, live.now(), "resolve", "thread-b",
                            "--dry-run")
    assert code == 0 and page.locator(".flash").inner_text() == out.rstrip("\n")
    page.click("#tab-night")
    submit(page, "#order button.resolve")
    assert page.locator(".flash").inner_text().startswith("night 2: resolved and stored")
    state = page.locator("#state .state-line").inner_text()
    assert "resolved" in state and "waiting" not in state, state
    code, out, err = run_at(capsys, monkeypatch, live.data, live.now(), "resolve", "thread-b",
                            "--log")
    assert code == 0 and "resolved earlier" in out
    page.click("#tab-drafts")
    assert page.locator("#draft-dawn h3").inner_text() == "Dawn · after Night 2"
    page.screenshot(path=str(shots / "laptop-night-resolved.png"))
    context.close()
