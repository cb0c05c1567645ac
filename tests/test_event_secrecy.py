"""Issue 9 items 6, 7 and 9: the key bound to its commitment, no reveal while a set is
unplayed, nothing stale published."""

import re
import shutil
import tomllib

import pytest
from event_support import KEY, players_csv, retracted_as_before, set_results, snapshot, write
from typer.testing import CliRunner

from guandan_dup.cli import app
from guandan_dup.deals import deal_file, verify_file
from guandan_dup.deals.keys import read_key
from guandan_dup.errors import GuandanError, KeyFileError
from guandan_dup.event import (
    EventFolder,
    create_event,
    deal_round,
    event_status,
    export_event,
    ingest,
    reveal_key,
    score_round,
    seat_event_round,
)
from guandan_dup.event.create import FORCED
from guandan_dup.event.entrants import demo_players
from guandan_dup.event.ledger import add_entry, withdraw_entry
from guandan_dup.event.publish import build_event_site

OTHER_KEY = bytes(range(1, 33))
runner = CliRunner()


@pytest.fixture
def folder(tmp_path):
    """Two rounds of two tables (8 players), one set a round; nothing dealt yet."""
    csv = players_csv(tmp_path / "players.csv", 8)
    return create_event(tmp_path / "event", csv, 2, 1, 2, 2, key=KEY)


def play(folder, r, tmp_path, tables=None):
    deal_round(folder, r)
    seat_event_round(folder, r)
    results = set_results(folder, r, seed=r)
    if tables is not None:
        results = results[results["table"].isin(tables)]
    ingest(folder, write(results, tmp_path / f"r{r}.parquet"), r)
    score_round(folder, r)


def substitute_key(folder, tmp_path):
    """Copy another event's key into the folder, as the issue's director did."""
    other = create_event(tmp_path / "other", players_csv(tmp_path / "p2.csv", 8), 2, 1, 2, 2,
                         key=OTHER_KEY)
    shutil.copy(other.key_path, folder.key_path)


def test_issue9_item6_every_command_reading_a_substituted_key_refuses(folder, tmp_path):
    play(folder, 1, tmp_path)
    deal_round(folder, 2)
    substitute_key(folder, tmp_path)
    before = snapshot(folder.path)
    expected = (
        f"the key file '{folder.key_path}' does not match the commitment {folder.commitment[:16]}"
        rf"\.\.\. in '{folder.path / 'event.toml'}'"
    )
    with pytest.raises(KeyFileError, match=expected):
        folder.key()
    with pytest.raises(KeyFileError, match=expected):
        score_round(folder, 1)
    shutil.rmtree(folder.round_dir(2))
    with pytest.raises(KeyFileError, match=expected):
        deal_round(folder, 2)
    with pytest.raises(KeyFileError, match=expected):  # it would say: publish that file
        reveal_key(folder.path, abandoned="round 2 cancelled")
    assert snapshot(folder.path) == {k: v for k, v in before.items()
                                     if not k.startswith("rounds/2")}


def test_issue9_item6_deal_verify_checks_the_event_commitment_not_the_files(folder, tmp_path):
    key_file = folder.key_path
    substitute_key(folder, tmp_path)
    wrong = read_key(key_file)
    # The wrong key deals a file that carries the wrong key's own commitment.
    boards = folder.round_dir(1) / "boards.parquet"
    boards.parent.mkdir(parents=True)
    deal_file(wrong, "1-2", boards, boards_per_set=2)
    result = verify_file(boards, wrong)
    assert result.commitment_matches and not result.differing, "the file agrees with itself"
    assert not result.ok
    assert f"does NOT match the commitment {folder.commitment[:16]}... in " in result.summary()
    assert "event.toml" in result.summary()
    cli = runner.invoke(app, ["deal", "verify", str(boards), "--key", str(key_file), "--quiet"])
    assert cli.exit_code == 1 and "event.toml" in cli.output
    outside = tmp_path / "boards.parquet"
    shutil.copy(boards, outside)
    assert verify_file(outside, wrong).ok
    assert not verify_file(outside, wrong, published=folder.commitment).ok


def test_issue9_item7_reveal_with_an_unplayed_set_is_refused_naming_sets_and_tables(
    folder, tmp_path
):
    play(folder, 1, tmp_path)
    play(folder, 2, tmp_path, tables=[1])
    before = snapshot(folder.path)
    with pytest.raises(GuandanError, match="still to play: round 2 set 2: table 2. Nothing"):
        reveal_key(folder.path)
    assert snapshot(folder.path) == before
    result = runner.invoke(app, ["event", "reveal", str(folder.path)])
    assert result.exit_code == 1 and "round 2 set 2: table 2" in result.output


def test_issue9_item7_an_abandoned_event_is_revealed_with_its_reason_recorded(folder, tmp_path):
    play(folder, 1, tmp_path)
    result = runner.invoke(app, ["event", "reveal", str(folder.path), "--abandoned",
                                 "typhoon: round 2 cancelled"])
    assert result.exit_code == 0, result.output
    opened = EventFolder.open(folder.path)
    assert opened.key_revealed and opened.reveal_override["reason"] == "typhoon: round 2 cancelled"
    toml = tomllib.loads((folder.path / "event.toml").read_text(encoding="utf-8"))
    assert toml["reveal_override"]["at"].endswith(" UTC")
    assert event_status(opened).next_step().startswith(
        "nothing: the event was closed early (typhoon: round 2 cancelled, ")


@pytest.mark.parametrize(
    ("args", "recorded"), [({"force": True}, FORCED), ({"abandoned": " "}, None)]
)
def test_issue9_item7_force_is_the_override_without_a_reason(folder, tmp_path, args, recorded):
    play(folder, 1, tmp_path)
    if recorded is None:
        with pytest.raises(GuandanError, match="--abandoned needs a reason"):
            reveal_key(folder.path, **args)
        return
    assert reveal_key(folder.path, **args).reveal_override["reason"] == recorded


def test_issue9_item7_a_complete_event_is_revealed_without_an_override(folder, tmp_path):
    play(folder, 1, tmp_path)
    play(folder, 2, tmp_path)
    revealed = reveal_key(folder.path)
    assert revealed.key_revealed and revealed.reveal_override is None
    assert "reveal_override" not in (folder.path / "event.toml").read_text(encoding="utf-8")


def test_issue9_item9_export_and_site_refuse_stale_standings(folder, tmp_path):
    play(folder, 1, tmp_path)
    play(folder, 2, tmp_path)
    fix = set_results(folder, 1, seed=1)
    ingest(folder, write(fix[fix["table"] == 1].assign(ns_level="5", ew_level="2"),
                         tmp_path / "fix.parquet"), 1)
    before = snapshot(folder.path)
    message = (
        r"rounds 1 and 2: the standings are older than the results .* Nothing was "
        rf"written; run `guandan-dup event score {folder.path} --round 1 --force`, then score "
        r"round 2 again$"
    )
    with pytest.raises(GuandanError, match=message):
        export_event(folder)
    with pytest.raises(GuandanError, match=message.replace("Nothing", "publishing .* Nothing")):
        build_event_site(folder)
    result = runner.invoke(app, ["event", "export", str(folder.path)])
    assert result.exit_code == 1 and f"score {folder.path} --round 1 --force" in result.output
    assert snapshot(folder.path) == before
    score_round(folder, 1, force=True)
    with pytest.raises(GuandanError, match=r"^round 2: .*--round 2`$"):
        export_event(folder)
    score_round(folder, 2)
    assert export_event(folder, formats=["csv"])


HOSTILE_REASON = "typhoon <b>round 2</b> cancelled"


def abandoned_banner(site, page):
    html = (site / page).read_text(encoding="utf-8")
    start = html.index('id="abandoned"')
    return html[start:html.index("</p>", start)]


def test_issue9_item7_the_site_says_an_abandoned_event_was_revealed_early_and_why(
    folder, tmp_path
):
    play(folder, 1, tmp_path)
    build_event_site(folder, tmp_path / "before")
    assert 'id="abandoned"' not in (tmp_path / "before" / "index.html").read_text("utf-8")
    revealed = reveal_key(folder.path, abandoned=HOSTILE_REASON)
    build_event_site(revealed, tmp_path / "site", lang="en")
    at = revealed.reveal_override["at"]
    for page in ("index.html", "standings/round-1.html"):
        banner = abandoned_banner(tmp_path / "site", page)
        assert "abandoned early" in banner and at in banner
        assert "typhoon &lt;b&gt;round 2&lt;/b&gt; cancelled" in banner, "escaped, not markup"


def team_event(tmp_path):
    """A round robin of four teams of four, nothing dealt yet."""
    csv = tmp_path / "players.csv"
    labels = [f"T{t}" for t in range(1, 5) for _ in range(4)]
    demo_players(16).assign(team=labels).to_csv(csv, index=False)
    return create_event(tmp_path / "cup", csv, None, None, 2, 3, kind="teams",
                        fmt="round-robin", key=KEY)


def test_issue9_item9_a_team_event_refuses_stale_exports_and_site(tmp_path):
    team = team_event(tmp_path)
    play(team, 1, tmp_path)
    fix = set_results(team, 1, seed=1)
    ingest(team, write(fix[fix["table"] == 1].assign(ns_level="3", ew_level="2"),
                       tmp_path / "fix.parquet"), 1)
    before = snapshot(team.path)
    for args in (["export"], ["site"]):
        result = runner.invoke(app, ["event", *args, str(team.path)])
        assert result.exit_code == 1 and "Error: round 1: the standings are older" in (
            result.output), result.output
    assert snapshot(team.path) == before
    assert "--round 1" in event_status(EventFolder.open(team.path)).next_step()
    score_round(team, 1)
    assert export_event(team, formats=["csv"])


def test_issue9_item7_a_team_site_says_an_abandoned_event_was_revealed_early(tmp_path):
    team = team_event(tmp_path)
    play(team, 1, tmp_path)
    revealed = reveal_key(team.path, abandoned=HOSTILE_REASON)
    build_event_site(revealed)
    for page in ("index.html", "standings/round-1.html"):
        banner = abandoned_banner(team.path / "site", page)
        assert "提前终止" in banner and "&lt;b&gt;" in banner


def test_issue9_item8_an_export_removes_travellers_of_a_round_pending_again(folder, tmp_path):
    play(folder, 1, tmp_path, tables=[1])
    row, _ = add_entry(folder, "not-played", 1, "table 2 left", table=2, set=1)
    score_round(folder, 1)  # the decision changes round 1's scoring (issue 21 item 4)
    written = export_event(folder, formats=("csv", "html")).paths
    assert folder.path / "exports" / "travellers-round-1.csv" in written
    with pytest.raises(GuandanError, match="cannot be withdrawn"):  # the set is public
        withdraw_entry(folder, int(row["id"]), "table 2 came back")
    retracted_as_before(folder, int(row["id"]), "table 2 came back")  # pending again
    score_round(folder, 1)
    exported = export_event(folder, formats=("csv",))
    assert exported.withheld == {1: [1]} and exported.standings_withheld == {1: [1]}
    assert sorted(p.name for p in exported.removed) == [  # the not-played decision too
        "decisions-round-1.csv", "decisions-round-1.html",
        "standings-round-1.csv", "standings-round-1.html",
        "travellers-round-1.csv", "travellers-round-1.html"]
    assert not list((folder.path / "exports").glob("*-round-1.*"))
    assert len(list((folder.path / "history").glob("exports-travellers-round-1.*"))) == 2


def test_a_team_site_is_built_before_any_round_is_scored(tmp_path):
    team = team_event(tmp_path)
    deal_round(team, 1)
    seat_event_round(team, 1)
    results = set_results(team, 1)
    ingest(team, write(results[results["table"] == 1], tmp_path / "t1.parquet"), 1)
    index = build_event_site(team)
    assert index.is_file() and not (team.path / "site" / "standings").exists()


def test_spec10_team_standings_and_match_results_wait_for_a_pending_room(tmp_path):
    """Team 3's absence decided match 2 (tables 2 and 4 unplayed); withdrawn, its rooms are
    pending again. Every match's 场分 and 级差分, the team standings and the rooms' levels
    of round 1 would then tell those tables how the deals went: export and site refuse
    (the ledger changed the scored round, item 4), and even the pages the team format
    builds unchecked show none of them: the match pages say the result is pending."""
    team = team_event(tmp_path)
    deal_round(team, 1)
    seat_event_round(team, 1)
    results = set_results(team, 1, seed=1)
    ingest(team, write(results[results["table"].isin([1, 3])], tmp_path / "r1.parquet"), 1)
    row, _ = add_entry(team, "absent", 1, "team 3 did not come", team=3)
    score_round(team, 1)
    written = sorted(p.name.split("-round-")[0] for p in
                     export_event(team, formats=["csv", "md"]).paths)
    assert written == ["decisions"] * 2 + ["match-results"] * 2 + ["team-standings"] * 2
    with pytest.raises(GuandanError, match="cannot be withdrawn"):  # the set is public
        withdraw_entry(team, int(row["id"]), "team 3 came after all")
    retracted_as_before(team, int(row["id"]), "team 3 came after all")
    for publish in (lambda: export_event(team, formats=["csv", "md"]),
                    lambda: build_event_site(team)):  # out of date (item 4): nothing goes out
        with pytest.raises(GuandanError, match="round 1: a ledger decision changed it after"):
            publish()
    site = team.plan.event_format.write_site(team, None, "zh", False).parent  # unchecked
    standings = (site / "standings" / "round-1.html").read_text("utf-8")
    assert 'id="withheld"' in standings and 'id="standings"' not in standings
    for m in team.read(1, "matches").dropna(subset=["away"]).itertuples():
        page = (site / "matches" / f"round-1-match-{m.match}.html").read_text("utf-8")
        assert 'id="result-pending"' in page and 'id="match"' not in page, m.match
        rooms = re.findall(r'<table class="data room".*?</table>', page, re.S)
        assert len(rooms) == 2, m.match  # who sits where is public from the draw, ...
        assert [re.findall(r"<th[^>]*>([^<]*)</th>", room) for room in rooms] == [
            ["方位", "队"]] * 2, m.match  # ... who played and their levels are not
    for t in range(1, 5):
        page = (site / "teams" / f"team-{t}.html").read_text("utf-8")
        assert "round-1-match-" not in page  # no row (场分, 级差分) of round 1
