"""The results site, checked file by file: what it shows, what it must never show, its links.

The fixtures are rehearsed events (see ``site_support``); every expectation is computed from
the event folder's own Parquet files, not from the site code.
"""

from __future__ import annotations

import html
import math
import re
import shlex
import shutil
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from site_support import (
    INCOMPLETE_SET,
    build_site,
    page_text,
    read_page,
)
from typer.testing import CliRunner
from write_support import disk_full, inode, record_writes

from guandan_dup.cards import RANK_NAMES, SUIT_SYMBOLS, format_cards
from guandan_dup.cli.app import app
from guandan_dup.errors import GuandanError
from guandan_dup.event.folder import EventFolder
from guandan_dup.event.publish import public_sets, site_data
from guandan_dup.event.transaction import LOCK_FILE
from guandan_dup.knockout import DECIDED_BY
from guandan_dup.reports.site import build as site_build
from guandan_dup.reports.site.data import player_slugs, with_known_players
from guandan_dup.reports.site.labels import LABELS
from guandan_dup.reports.site.pages import page_count, site_pages
from guandan_dup.seats import SEAT_COLUMNS


def site_files(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("*") if p.is_file())


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in site_files(folder)}


def suit_lines(cards) -> str:
    """A hand as the site writes it, by a route independent of the site code: each suit's
    symbol, then its ranks highest first (a dash for a void)."""
    parts = []
    for suit, symbol in enumerate(SUIT_SYMBOLS):
        suited = [c for c in sorted(cards, reverse=True) if c < 52 and c % 4 == suit]
        ranks = [RANK_NAMES[c // 4] for c in suited]
        parts.append(f"{symbol} {' '.join(ranks) or '—'}")
    return " ".join(parts)


def boards_of(event: Path, sets) -> pd.DataFrame:
    folder = EventFolder.open(event)
    frames = [folder.read(r, "boards") for r in range(1, folder.plan.rounds + 1)]
    boards = pd.concat([f for f in frames if f is not None], ignore_index=True)
    return boards[boards["set"].isin(sets)]


def deal_marks(boards: pd.DataFrame) -> list[str]:
    """Every way a hand of these boards could be written into a file."""
    marks = []
    for row in boards.to_dict("records"):
        marks += [f'data-board="{row["board"]}"', f'id="board-{row["board"]}"']
        for seat in SEAT_COLUMNS:
            cards = [int(c) for c in row[seat]]
            marks += [suit_lines(cards), format_cards(cards), format_cards(cards, unicode=True)]
    return marks


def site_text(site: Path) -> str:
    """All text files of the site, raw and with tags stripped, as one string."""
    raw = [p.read_bytes().decode("utf-8", errors="replace") for p in site_files(site)]
    stripped = [page_text(p) for p in site.rglob("*.html")]
    return "\n".join(raw + stripped)


# --- what must never appear ---------------------------------------------------------------


def test_no_deal_of_an_incomplete_set_in_any_file(partial, partial_site):
    text = site_text(partial_site)
    leaked = [m for m in deal_marks(boards_of(partial, [INCOMPLETE_SET])) if m in text]
    assert leaked == []
    for parquet in partial_site.rglob("*.parquet"):
        assert INCOMPLETE_SET not in set(pd.read_parquet(parquet)["set"])


def test_deals_of_complete_sets_are_published(partial, partial_site):
    complete = [s for _, s in public_sets(EventFolder.open(partial), [2])]
    assert complete and INCOMPLETE_SET not in complete
    text = site_text(partial_site)
    for row in boards_of(partial, complete).to_dict("records"):
        for seat in SEAT_COLUMNS:
            assert suit_lines([int(c) for c in row[seat]]) in text, (row["board"], seat)


def test_incomplete_set_page_says_it_is_pending_and_shows_no_result(partial_site):
    path = partial_site / "sets" / f"set-{INCOMPLETE_SET}.html"
    assert LABELS["zh"]["set_pending"] in page_text(path)
    assert LABELS["zh"]["pending"] in page_text(path)
    assert read_page(path).tables == {}


def test_boards_file_only_for_rounds_played_everywhere(partial_site, full_site):
    assert sorted(p.name for p in (partial_site / "boards").iterdir()) == [
        "round-1-boards.parquet",
        "round-3-boards.parquet",
    ]
    assert len(list((full_site / "boards").iterdir())) == 3


def test_key_only_once_revealed(full, full_site, partial, partial_site):
    full_key = (full / "event.key").read_text().strip()
    index = page_text(full_site / "index.html")
    assert full_key in index
    assert EventFolder.open(full).commitment in index
    secret = (partial / "event.key").read_text().strip()
    assert secret not in site_text(partial_site)
    assert EventFolder.open(partial).commitment in page_text(partial_site / "index.html")


def verify_commands(site: Path) -> list[list[str]]:
    """The verify commands printed on the index page, as a reader would copy them."""
    index = (site / "index.html").read_text(encoding="utf-8")
    block = re.search(r'<pre id="verify"><code>(.*?)</code></pre>', index, re.S).group(1)
    return [shlex.split(line) for line in html.unescape(block).splitlines()]


@pytest.mark.filterwarnings("ignore::guandan_dup.deals.keys.KeyPermissionWarning")
def test_verify_commands_on_the_index_work_as_written_in_the_site_folder(
    full_site, monkeypatch
):
    commands = verify_commands(full_site)
    assert [c[-1] for c in commands] == [f"boards/round-{r}-boards.parquet" for r in (1, 2, 3)]
    monkeypatch.chdir(full_site)
    for program, *args in commands:
        assert program == "guandan-dup"
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, (args, result.output)


def test_pages_fetch_nothing_from_the_internet(full_site):
    for page in full_site.rglob("*.html"):
        reader = read_page(page)
        assert [a for a in reader.assets if re.match(r"(https?:)?//", a)] == [], page
        raw = page.read_text(encoding="utf-8").replace("http://www.w3.org/2000/svg", "")
        assert "http://" not in raw and "https://" not in raw, page
    assert "url(" not in (full_site / "site.css").read_text(encoding="utf-8")


# --- what the pages show ---------------------------------------------------------------------


def test_links_resolve_to_files_of_the_site(full_site):
    pages = list(full_site.rglob("*.html"))
    assert len(pages) == 1 + 3 + 3 + 18 + 6  # index, standings, seating, players, sets
    for page in pages:
        reader = read_page(page)
        for link in reader.links + reader.assets:
            if link.startswith("data:"):
                continue
            target = (page.parent / link.split("#")[0]).resolve()
            assert target.is_file(), (page, link)
            assert full_site.resolve() in target.parents


def expected_movement(before: int | None, now: int) -> str:
    if before is None:
        return ""
    return "–" if before == now else (f"▲{before - now}" if before > now else f"▼{now - before}")


def percent(rate) -> str:
    """Half up, as the ranking tables round (1/32 is 3.13%)."""
    return "–" if pd.isna(rate) else f"{math.floor(rate * 10_000 + 0.5 + 1e-6) / 100:.2f}%"


@pytest.mark.parametrize("round_no", [1, 2, 3])
def test_standings_match_standings_parquet(full, full_site, round_no):
    folder = EventFolder.open(full)
    names = dict(zip(folder.players()["player"], folder.players()["name"], strict=True))
    standings = folder.read(round_no, "standings").sort_values("position")
    earlier = folder.read(round_no - 1, "standings") if round_no > 1 else None
    before = {}
    if earlier is not None:
        before = dict(zip(earlier["player"], earlier["position"], strict=True))
    expected = [
        [
            row["rank_label"],
            f"{names[row['player']]} {row['player']}",
            percent(row["cumulative"]),
            percent(row["round_avg"]),
            str(row["sets"]),
            expected_movement(before.get(row["player"]), row["position"]),
        ]
        for row in standings.to_dict("records")
    ]
    table = read_page(full_site / "standings" / f"round-{round_no}.html").tables["standings"]
    assert table[1:] == expected


def test_player_page_lists_every_set_and_bye(full, full_site):
    folder = EventFolder.open(full)
    scores = folder.read_rounds("scores", range(1, 4))
    byes = folder.read_rounds("byes", range(1, 4))
    for player, slug in [("P001", "P001"), ("P018", "P018")]:
        mine = scores[scores["player"] == player].sort_values(["round", "set"])
        table = read_page(full_site / "players" / f"{slug}.html").tables["history"][1:]
        played = [row for row in table if len(row) == 8]
        assert [(int(r[0]), int(r[1]), r[7]) for r in played] == [
            (row["round"], row["set"], percent(row["score_rate"]))
            for row in mine.to_dict("records")
        ]
        assert len(table) - len(played) == int((byes["player"] == player).sum())


def test_traveller_has_every_table_and_both_rates(full, full_site):
    folder = EventFolder.open(full)
    travellers = folder.read(2, "travellers")
    for set_no, rows in travellers.groupby("set"):
        table = read_page(full_site / "sets" / f"set-{set_no}.html").tables["traveller"][1:]
        rows = rows.sort_values("table")
        assert [(int(r[0]), r[4], r[5]) for r in table] == [
            (t, percent(ns), percent(ew))
            for t, ns, ew in zip(rows["table"], rows["ns_rate"], rows["ew_rate"], strict=True)
        ]


def test_seating_page_has_a_card_per_table(full, full_site):
    seating = EventFolder.open(full).read(2, "seating")
    page = (full_site / "seating" / "round-2.html").read_text(encoding="utf-8")
    assert page.count('class="table-card"') == len(seating)
    text = page_text(full_site / "seating" / "round-2.html")
    assert all(p in text for column in SEAT_COLUMNS for p in seating[column])


def test_seating_page_names_the_players_with_a_bye(full, full_site):
    byes = EventFolder.open(full).read(2, "byes")
    assert len(byes) == 2
    page = read_page(full_site / "seating" / "round-2.html")
    assert [f"../players/{p}.html" for p in byes["player"]] == page.links[-2:]
    assert LABELS["zh"]["bye"] in page_text(full_site / "seating" / "round-2.html")


def test_player_page_has_position_chart(full_site):
    page = (full_site / "players" / "P001.html").read_text(encoding="utf-8")
    assert page.count('class="dot"') == 3
    assert "<polyline" in page


def test_progress_total_counts_every_page_written(full, full_site):
    data = with_known_players(site_data(EventFolder.open(full)))
    pages = list(site_pages(data))
    assert page_count(data) == len(pages) == len(list(full_site.rglob("*.html")))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=12), unique=True, max_size=12))
def test_player_slugs_are_safe_distinct_file_names(ids):
    slugs = player_slugs(pd.Series(ids, dtype="str"))
    assert all(re.fullmatch(r"[A-Za-z0-9_-]+", slug) for slug in slugs)
    assert len({slug.lower() for slug in slugs}) == len(ids)
    kept = [i for i in ids if re.fullmatch(r"[A-Za-z0-9_-]{1,64}", i)]
    if len({i.lower() for i in kept}) == len(kept):
        assert [s for s, i in zip(slugs, ids, strict=True) if i in kept] == kept


# --- languages, names, print -------------------------------------------------------------


def test_label_tables_have_the_same_keys():
    assert set(LABELS["zh"]) == set(LABELS["en"])


@pytest.mark.parametrize(("decided", "zh", "en"), [
    ("levels", "级数", "levels"), ("场分", "场分", "match points"),
    ("级差分", "级差分", "level points"), ("级差", "级差", "level difference"),
    ("extra boards", "加赛", "extra boards"), ("bye", "轮空", "bye"),
    ("forfeit", "弃权", "forfeit"),
])
def test_how_a_knockout_match_was_decided_reads_in_each_language(decided, zh, en):
    assert decided in DECIDED_BY
    assert (LABELS["zh"][f"decided:{decided}"], LABELS["en"][f"decided:{decided}"]) == (zh, en)


def test_every_way_a_match_is_decided_has_its_words():
    assert {key.removeprefix("decided:") for key in LABELS["en"]
            if key.startswith("decided:")} == set(DECIDED_BY)


def test_chinese_is_the_default_and_english_on_request(full, full_site, tmp_path):
    zh = read_page(full_site / "standings" / "round-1.html")
    assert (zh.html_lang, zh.meta_charset) == ("zh-CN", "utf-8")
    assert "第 1 轮后排名" in page_text(full_site / "standings" / "round-1.html")
    en_site = build_site(full, tmp_path / "en", lang="en").parent
    assert read_page(en_site / "standings" / "round-1.html").html_lang == "en"
    assert "Standings after round 1" in page_text(en_site / "standings" / "round-1.html")


def test_chinese_names_are_written_as_text(full, full_site):
    page = page_text(full_site / "standings" / "round-3.html")
    names = EventFolder.open(full).players()["name"]
    assert all(re.search(r"[\u4e00-\u9fff]", n) for n in names)
    assert [n for n in names if n not in page] == []
    css = (full_site / "site.css").read_text(encoding="utf-8")
    assert "Noto Sans CJK SC" in css and "PingFang SC" in css


def test_print_keeps_each_board_in_one_block(full_site):
    css = (full_site / "site.css").read_text(encoding="utf-8")
    rules = re.findall(r"([^{}]+)\{([^{}]*)\}", css)
    unsplit = [sel for sel, body in rules if "break-inside: avoid" in body]
    assert any(".board" in sel for sel in unsplit)
    assert any(".table-card" in sel for sel in unsplit)


# --- building safely -------------------------------------------------------------------------


def test_failed_build_leaves_previous_site_intact(full, tmp_path):
    event = shutil.copytree(full, tmp_path / "event")
    site = build_site(event).parent
    before = snapshot(site)
    (event / "rounds" / "2" / "standings.parquet").write_bytes(b"not parquet")
    with pytest.raises(GuandanError, match="standings.parquet"):
        build_site(event)
    assert snapshot(site) == before
    assert sorted(p.name for p in event.iterdir() if p.name.startswith(".")) == [LOCK_FILE]


def test_rebuild_replaces_the_site_whole(full, tmp_path):
    out = tmp_path / "site"
    build_site(full, out)
    (out / "players" / "stale.html").write_text("old")
    build_site(full, out)
    assert not (out / "players" / "stale.html").exists()


def test_refuses_to_replace_a_folder_that_is_not_a_site(full, tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me")
    with pytest.raises(GuandanError, match="not built by `guandan-dup event site`"):
        build_site(full, out)
    assert snapshot(out) == {"notes.txt": b"keep me"}


@pytest.mark.parametrize("out", [".", ".."])
def test_refuses_a_site_folder_holding_the_event(full, out):
    with pytest.raises(GuandanError, match="would contain the event folder"):
        build_site(full, full / out)


@pytest.mark.parametrize("out", ["rounds/4", "history", "exports/site", "site/inner"])
def test_refuses_a_site_folder_among_the_event_folders_files(full, out):
    before = sorted(full.rglob("*"))
    with pytest.raises(GuandanError, match="inside the event folder's own files"):
        build_site(full, full / out)
    assert sorted(full.rglob("*")) == before


def test_builds_into_the_current_folder_given_as_dot(full, tmp_path, monkeypatch):
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    assert build_site(full, ".") == Path("index.html")
    assert (here / "index.html").is_file()
    assert [p.name for p in tmp_path.iterdir()] == ["here"]


def test_rebuild_through_a_symlink_keeps_the_link(full, tmp_path):
    real = tmp_path / "www" / "results"
    build_site(full, real)
    (tmp_path / "link").symlink_to(real, target_is_directory=True)
    (real / "stale.html").write_text("old")
    build_site(full, tmp_path / "link")
    assert (tmp_path / "link").is_symlink() and (tmp_path / "link" / "index.html").is_file()
    assert not (real / "stale.html").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link", "www"]
    assert [p.name for p in (tmp_path / "www").iterdir()] == ["results"]


def test_unknown_language_is_refused_before_writing(full, tmp_path):
    with pytest.raises(GuandanError, match="unknown site language 'fr': expected one of zh, en"):
        build_site(full, tmp_path / "site", lang="fr")
    assert not (tmp_path / "site").exists()


# --- the command -----------------------------------------------------------------------------


def test_cli_event_site_prints_index_path(full, tmp_path):
    out = tmp_path / "pub"
    result = CliRunner().invoke(
        app, ["event", "site", str(full), "--out", str(out), "--lang", "en", "--quiet"]
    )
    assert result.exit_code == 0, result.output
    assert result.output.strip() == str(out / "index.html")
    assert (out / "index.html").is_file()


def test_cli_event_site_reports_bad_language(full, tmp_path):
    result = CliRunner().invoke(app, ["event", "site", str(full), "--lang", "fr"])
    assert result.exit_code == 1
    assert "Error: unknown site language 'fr'" in result.output


def test_issue20_every_file_and_folder_is_synced_before_the_swap(full, tmp_path, monkeypatch):
    out = tmp_path / "site"
    build_site(full, out)
    events = record_writes(monkeypatch)
    real_exchange = site_build.exchange

    def exchange(first, second):
        events.append(("exchange", inode(first), Path(second)))
        return real_exchange(first, second)

    monkeypatch.setattr(site_build, "exchange", exchange)
    build_site(full, out)
    swaps = [i for i, e in enumerate(events) if e[0] in ("replace", "exchange")]
    assert len(swaps) == 1 and events[swaps[0]][::2] == ("exchange", out)  # one atomic step
    synced_before = {e[1] for e in events[: swaps[0]]}
    written = [out, *out.rglob("*")]
    assert not [p for p in written if inode(p) not in synced_before]
    assert events[-1] == ("sync dir", inode(tmp_path))


def test_issue20_a_build_failing_half_way_leaves_the_old_site_and_nothing_beside(
    full, tmp_path, monkeypatch
):
    out = tmp_path / "site"
    build_site(full, out)
    before = snapshot(out)
    disk_full(monkeypatch, after=5)
    with pytest.raises(OSError, match="No space left"):
        build_site(full, out)
    assert snapshot(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]
