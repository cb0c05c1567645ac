"""What the site and the exports may publish of a set still being played (issue 9, item 8;
SPEC section 10 "Publication"), and how a player finds themself among 400 (item 14).

The rule lives in one function, ``event.publish.complete_sets``; the ``partial`` event
(site_support) lost tables 3 and 4's results of set 4 in round 2 and was scored anyway.
"""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from site_support import (
    INCOMPLETE_SET,
    SEED,
    TWIN_NAME,
    build_site,
    page_text,
    read_page,
)
from typer.testing import CliRunner

import guandan_dup.reports
from guandan_dup.cli.app import app
from guandan_dup.event.export import export_event
from guandan_dup.event.folder import EventFolder
from guandan_dup.event.ledger import add_entry, read_ledger, withdraw_entry
from guandan_dup.event.publish import complete_sets, public_sets
from guandan_dup.event.random_model import RandomModel
from guandan_dup.event.rehearse import rehearse
from guandan_dup.event.score import score_round
from guandan_dup.reports.site.labels import LABELS
from guandan_dup.seats import SEAT_COLUMNS

PENDING = LABELS["zh"]["pending"]
PROVISIONAL = LABELS["zh"]["provisional"]
LATE_TABLES = [(2, 3, INCOMPLETE_SET), (2, 4, INCOMPLETE_SET)]  # (round, table, set)







# --- the predicate ---------------------------------------------------------------------------

PLANNED = [(1, 1, 1), (1, 2, 1), (1, 1, 2), (1, 2, 2), (2, 1, 3), (2, 2, 3)]
SPEC10_PUBLICATION = [
    # (case, played, will not play, complete (round, set))
    ("every table played every set", PLANNED, (), {(1, 1), (1, 2), (2, 3)}),
    ("one missing table holds its set back", PLANNED[:3] + PLANNED[4:], (), {(1, 1), (2, 3)}),
    ("a table declared not to play releases it", PLANNED[:3] + PLANNED[4:], {(1, 2, 2)},
     {(1, 1), (1, 2), (2, 3)}),
    ("a declaration for another set does not", PLANNED[:3] + PLANNED[4:], {(1, 2, 1)},
     {(1, 1), (2, 3)}),
    ("a result nobody planned does not count", [(1, 1, 1), (1, 3, 1), (1, 9, 2)], (), set()),
    ("nothing played, nothing complete", [], (), set()),
    ("every table declared: nothing to hide", [], set(PLANNED), {(1, 1), (1, 2), (2, 3)}),
]


@pytest.mark.parametrize(
    ("played", "will_not_play", "expected"),
    [case[1:] for case in SPEC10_PUBLICATION],
    ids=[case[0] for case in SPEC10_PUBLICATION],
)
def test_spec10_a_set_is_complete_when_every_planned_table_played_or_will_not(
    played, will_not_play, expected
):
    assert complete_sets(PLANNED, played, will_not_play) == expected


rows = st.sets(st.tuples(st.integers(1, 2), st.integers(1, 3), st.integers(1, 3)), max_size=18)


@given(rows, rows, rows)
def test_spec10_complete_sets_matches_a_set_by_set_reference(planned, played, declared):
    expected = {
        (r, s)
        for r, _, s in planned
        if all(row in played or row in declared for row in planned if row[::2] == (r, s))
    }
    assert complete_sets(planned, played, declared) == expected


# --- the site ------------------------------------------------------------------------------


def test_pending_set_is_marked_on_the_index(partial_site):
    index = (partial_site / "index.html").read_text(encoding="utf-8")
    link = re.search(rf'<a href="sets/set-{INCOMPLETE_SET}.html">(.*?)</a>', index).group(1)
    assert PENDING in link
    others = re.findall(r'<a href="sets/set-\d+.html">(.*?)</a>', index)
    assert sum(PENDING in text for text in others) == 1


def test_pending_set_rows_on_player_pages_have_no_result(partial, partial_site):
    folder = EventFolder.open(partial)
    seating = folder.read(2, "seating")
    seated = seating[seating["table"].isin([1, 2, 3, 4])]
    for player in pd.concat([seated[c] for c in SEAT_COLUMNS]):
        page = read_page(partial_site / "players" / f"{player}.html")
        rows = [row for row in page.tables["history"][1:] if row[:2] == ["2", str(INCOMPLETE_SET)]]
        assert len(rows) == 1 and rows[0][4:] == [PENDING], (player, rows)
        assert not [link for link in page.links if f"set-{INCOMPLETE_SET}.html#" in link]


def test_no_result_of_a_pending_set_anywhere(partial, partial_site):
    """The traveller rows of the tables that did play set 4 (their levels and rates) are in
    no page: not on the set's page, not on a player's page."""
    page = partial_site / "sets" / f"set-{INCOMPLETE_SET}.html"
    assert read_page(page).tables == {}
    assert 'id="t' not in page.read_text(encoding="utf-8")
    players = [p for p in (partial_site / "players").glob("*.html")]
    rates = [
        row[-1]
        for p in players
        for row in read_page(p).tables["history"][1:]
        if row[1:2] == [str(INCOMPLETE_SET)]
    ]
    assert rates and set(rates) == {PENDING}


def test_spec10_standings_counting_a_pending_set_are_withheld(partial, partial_site, full_site):
    """Set 4 (round 2) is pending at tables 3 and 4: round 2's averages, with set 3's public
    traveller, would give every other table's set-4 rate, and round 3's cumulative ones
    count set 4 too. Those pages name the set they wait for and show no figure."""
    assert EventFolder.open(partial).read(2, "standings") is not None  # scored anyway
    for round_no, shown in [(1, True), (2, False), (3, False)]:
        path = partial_site / "standings" / f"round-{round_no}.html"
        page = read_page(path)
        assert ("standings" in page.tables) is shown, round_no
        assert ('id="withheld"' in path.read_text("utf-8")) is not shown, round_no
        if not shown:
            assert f"第 {INCOMPLETE_SET} 局" in page_text(path)
    assert 'id="provisional"' not in (partial_site / "standings" / "round-2.html").read_text(
        "utf-8")
    for page in (full_site / "standings").glob("*.html"):
        assert 'id="withheld"' not in page.read_text(encoding="utf-8")


def test_spec10_a_player_page_shows_no_average_counting_a_pending_set(partial, partial_site):
    """A player's page states the standing after the last round that counts no pending set
    (round 1), not the withheld rounds' averages, and charts only that round."""
    folder = EventFolder.open(partial)
    both = folder.read(1, "standings").merge(folder.read(3, "standings"), on="player",
                                             suffixes=("_1", "_3"))
    shown = [(100 * both[f"cumulative_{r}"]).map("{:.2f}%".format) for r in (1, 3)]
    row = both[both["cumulative_1"].notna() & (shown[0] != shown[1])].iloc[0]
    standing = page_text(partial_site / "players" / f"{row['player']}.html")
    assert "第 1 轮后" in standing and "第 3 轮后" not in standing
    assert f"{100 * row['cumulative_1']:.2f}%" in standing
    assert f"{100 * row['cumulative_3']:.2f}%" not in standing
    assert PROVISIONAL not in standing


def declared_not_played(event: Path, copy: Path) -> Path:
    """A copy of ``event`` whose ledger says the late tables will not play their set."""
    shutil.copytree(event, copy)
    for round_no, table, set_no in LATE_TABLES:
        add_entry(EventFolder.open(copy), "not-played", round_no, "the tables left",
                  table=table, set=set_no, override=True)
    score_round(EventFolder.open(copy), 2, force=True, override=True)
    score_round(EventFolder.open(copy), 3, override=True)
    return copy


def test_tables_declared_not_to_play_release_the_set(partial, tmp_path):
    event = declared_not_played(partial, tmp_path / "event")
    site = build_site(event, tmp_path / "site").parent
    table = read_page(site / "sets" / f"set-{INCOMPLETE_SET}.html").tables["traveller"][1:]
    assert [row[0] for row in table] == ["1", "2"]
    assert (site / "boards" / "round-2-boards.parquet").is_file()
    assert PROVISIONAL not in page_text(site / "standings" / "round-2.html")


# --- the exports ---------------------------------------------------------------------------


@pytest.fixture
def partial_copy(partial, tmp_path) -> Path:
    return shutil.copytree(partial, tmp_path / "event")


def test_export_leaves_a_pending_set_out_of_the_travellers(partial_copy):
    exported = export_event(EventFolder.open(partial_copy), formats=("csv", "md"))
    assert exported.withheld == {2: [INCOMPLETE_SET]}
    exports = partial_copy / "exports"
    travellers = pd.read_csv(exports / "travellers-round-2.csv")
    assert INCOMPLETE_SET not in set(travellers["局 Set"]) and len(travellers) > 0
    markdown = (exports / "travellers-round-2.md").read_text(encoding="utf-8")
    assert f"set {INCOMPLETE_SET}: pending" in markdown
    assert exported.standings_withheld == {2: [INCOMPLETE_SET], 3: [INCOMPLETE_SET]}
    assert not list(exports.glob("standings-round-[23].*"))  # they count set 4
    assert "provisional" not in (exports / "standings-round-1.md").read_text(encoding="utf-8")
    assert "pending" not in (exports / "travellers-round-1.md").read_text(encoding="utf-8")


def test_export_includes_a_set_released_by_declarations(partial, tmp_path):
    event = declared_not_played(partial, tmp_path / "event")
    exported = export_event(EventFolder.open(event), round_no=2, formats=("csv",))
    assert exported.withheld == {}
    travellers = pd.read_csv(event / "exports" / "travellers-round-2.csv")
    assert INCOMPLETE_SET in set(travellers["局 Set"])


@pytest.mark.parametrize("kind", ["individual", "pairs"])
def test_issue20_a_not_played_set_is_shown_the_same_in_every_export_and_on_the_site(
    kind, tmp_path
):
    """The bug: after `ledger add not-played` and `event score`, `event export` published
    the set's traveller while `event site` showed the set as pending (two entry points of
    the publication rule with different defaults). Now both ask ``public_sets``: while
    table 3 still has set 2 to play, no export format and no page shows it; once the ledger
    says it will not be played, every one of them does."""
    event = tmp_path / "event"
    model = RandomModel(SEED)

    def play(folder, round_no):
        results = model(folder, round_no)
        return results[~((results["set"] == 2) & (results["table"] == 3))]

    rehearse(event, players=16, rounds=1, tables_per_group=2, sets_per_round=2,
             boards_per_set=2, kind=kind, seed=SEED, play=play)
    assert published_sets(event, tmp_path / "pending") == ({1}, {1: [2]})
    add_entry(EventFolder.open(event), "not-played", 1, "table 3 left", table=3, set=2)
    score_round(EventFolder.open(event), 1)
    assert public_sets(EventFolder.open(event), [1]) == {(1, 1), (1, 2)}
    assert published_sets(event, tmp_path / "public") == ({1, 2}, {})
    site = tmp_path / "public"
    assert [row[0] for row in read_page(site / "sets" / "set-2.html").tables["traveller"][1:]
            ] == ["1", "2", "4"]
    assert (site / "boards" / "round-1-boards.parquet").is_file()


def published_sets(event: Path, site: Path) -> tuple[set[int], dict]:
    """The sets of round 1 that every export format and the site show, asserting that they
    all agree, and the sets the export says it withheld."""
    exported = export_event(EventFolder.open(event), formats=("csv", "xlsx", "md", "html"))
    exports = event / "exports"
    shown = set(pd.read_csv(exports / "travellers-round-1.csv")["局 Set"])
    sheets = pd.read_excel(exports / "travellers-round-1.xlsx", sheet_name=None).values()
    assert {s for sheet in sheets for s in sheet["局 Set"].dropna()} == shown
    for fmt in ("md", "html"):
        pending = "set 2: pending" in (exports / f"travellers-round-1.{fmt}").read_text("utf-8")
        assert pending == (2 not in shown), fmt
    build_site(event, site)
    on_site = {s for s in (1, 2) if read_page(site / "sets" / f"set-{s}.html").tables}
    assert on_site == shown
    assert (PENDING in page_text(site / "index.html")) == (2 not in shown)
    return shown, exported.withheld


def test_export_removes_an_earlier_traveller_of_a_set_pending_again(partial, tmp_path):
    """A declaration withdrawn (the ledger) makes a set pending again: the xlsx written
    while it counted as complete would still show it, so the csv-only export removes it.
    ``event ledger withdraw`` now refuses that withdrawal (the set is public), so the
    retract rows are written as a version before issue 21's pass wrote them."""
    from event_support import retracted_as_before

    from guandan_dup.errors import GuandanError

    partial_copy = declared_not_played(partial, tmp_path / "event")
    export_event(EventFolder.open(partial_copy), round_no=2, formats=("csv", "xlsx"))
    exports = partial_copy / "exports"
    old_xlsx = (exports / "travellers-round-2.xlsx").read_bytes()
    folder = EventFolder.open(partial_copy)
    ledger = read_ledger(folder)
    rows = [int(i) for i in ledger.loc[ledger["kind"] == "not-played", "id"]]
    with pytest.raises(GuandanError, match="cannot be withdrawn"):
        withdraw_entry(folder, rows[0], "they came back", override=True)
    for row_id in rows:
        retracted_as_before(folder, row_id, "they came back")
    score_round(EventFolder.open(partial_copy), 2, force=True, override=True)  # issue 21 (4)
    score_round(EventFolder.open(partial_copy), 3, override=True)
    exported = export_event(EventFolder.open(partial_copy), round_no=2, formats=("csv",))
    assert exports / "travellers-round-2.xlsx" in exported.removed
    assert not (exports / "travellers-round-2.xlsx").exists()
    assert INCOMPLETE_SET not in set(pd.read_csv(exports / "travellers-round-2.csv")["局 Set"])
    kept = list((partial_copy / "history").glob("exports-travellers-round-2.*.xlsx"))
    assert old_xlsx in [p.read_bytes() for p in kept]
    result = CliRunner().invoke(app, ["event", "export", str(partial_copy), "--format", "md"])
    assert result.exit_code == 0, result.output
    assert f"Removed {exports / 'travellers-round-2.csv'}: it may show a set still pending" in (
        " ".join(result.output.split()))


def test_cli_export_says_which_sets_it_left_out(partial_copy):
    result = CliRunner().invoke(app, ["event", "export", str(partial_copy), "--format", "csv"])
    assert result.exit_code == 0, result.output
    assert (
        f"Round 2: set {INCOMPLETE_SET} left out of the travellers: not every table has "
        "played it yet (ingest, score and export again)" in result.output.splitlines()
    )


# --- finding yourself among many (item 14) ---------------------------------------------------


def test_link_to_a_set_lands_on_the_players_own_table(hostile, hostile_site):
    travellers = EventFolder.open(hostile).read_rounds("travellers", range(1, 4))
    for player in ["P001", "P010"]:
        links = read_page(hostile_site / "players" / f"{player}.html").links
        targets = [link for link in links if "/sets/" in link]
        mine = travellers[(travellers[list(SEAT_COLUMNS)] == player).any(axis=1)]
        assert sorted(targets) == sorted(
            f"../sets/set-{s}.html#t{t}" for s, t in zip(mine["set"], mine["table"], strict=True)
        )
        for target in targets:
            path, anchor = target.split("#")
            row = re.search(
                rf'<tr id="{anchor}"[^>]*>(.*?)</tr>',
                (hostile_site / "players" / path).read_text(encoding="utf-8"),
                re.S,
            )
            assert f"{player}.html" in row.group(1), target


def test_players_sharing_a_name_show_their_ids(hostile, hostile_site):
    players = EventFolder.open(hostile).players()
    twins = sorted(players.loc[players["name"] == TWIN_NAME, "player"])
    assert len(twins) == 2
    shown = set()
    for page in (hostile_site / "sets").glob("*.html"):
        html = page.read_text(encoding="utf-8")
        shown |= set(re.findall(r'<span class="pid">([^<]*)</span>', html))
    assert shown == set(twins)


def test_player_page_states_rank_and_cumulative_in_words(hostile, hostile_site):
    standings = EventFolder.open(hostile).read(3, "standings")
    plain = standings[standings["player"].str.fullmatch(r"P\d+")]
    for row in plain.head(4).to_dict("records"):
        text = page_text(hostile_site / "players" / f"{row['player']}.html")
        cumulative = f"{row['cumulative'] * 100:.2f}%"
        expected = LABELS["zh"]["standing_now"].format(
            n=3, rank=row["rank_label"], field=len(standings), cumulative=cumulative
        )
        assert expected in text


@pytest.mark.parametrize("page", ["seating/round-2.html", "sets/set-3.html"])
def test_seating_and_traveller_pages_have_a_search_box(hostile_site, page):
    html = (hostile_site / page).read_text(encoding="utf-8")
    target = re.search(r'<input type="search" id="search" data-filter="(\w+)"', html).group(1)
    assert f'id="{target}"' in html
    assert html.count("data-search=") >= 4


def test_style13_reports_never_import_the_event_folder():
    """Arrows point down (STYLE rule 13): ``event`` gathers, ``reports`` renders."""
    reports = Path(guandan_dup.reports.__file__).parent
    imports = []
    for module in sorted(reports.rglob("*.py")):
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                imports.append((module.name, "." * node.level + (node.module or "")))
            elif isinstance(node, ast.Import):
                imports += [(module.name, alias.name) for alias in node.names]
    assert len(imports) > 20
    assert [(m, name) for m, name in imports if re.search(r"(^|\.)event\b", name)] == []
