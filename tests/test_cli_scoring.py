"""The ``score``, ``standings`` and ``travellers`` commands, run as a director would."""

import io

import openpyxl
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from guandan_dup.cli.app import app
from guandan_dup.scoring import files, score_files

RUNNER = CliRunner()
OUTPUTS = ["scores.parquet", "standings.parquet", "travellers.parquet"]


def results_file(path, **changes):
    """Round 1: set 1 at tables 1-3 (D = +3, 0, 0); round 2: set 2 at table 1 plus A+/A-."""
    columns = {
        "round": [1, 1, 1, 2, 2], "table": [1, 2, 3, 1, 2], "set": [1, 1, 1, 2, 2],
        "north": ["A", "E", "I", "A", "B"], "east": ["B", "F", "J", "E", "F"],
        "south": ["C", "G", "K", "I", "J"], "west": ["D", "H", "L", "C", "G"],
        "ns_level": ["7", "4", "4", "3", None], "ew_level": ["4", "4", "4", "2", None],
        "adjusted": [None, None, None, None, "A+/A-"],
    }
    columns.update(changes)
    pq.write_table(pa.table(columns), path)
    return path


def run(*args):
    return RUNNER.invoke(app, [str(a) for a in args])


def test_score_writes_the_three_files_and_says_so(tmp_path):
    source = results_file(tmp_path / "r.parquet")
    result = run("score", source, "--out", tmp_path / "out", "--quiet")
    assert result.exit_code == 0, result.output
    assert "Scored 5 table results, 20 player scores, rounds 1 and 2" in result.stdout
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == OUTPUTS
    standings = pd.read_parquet(tmp_path / "out" / "standings.parquet")
    assert list(standings.columns) == [
        "round", "player", "sets", "round_avg", "cumulative", "rank", "rank_label", "position"]
    scores = pd.read_parquet(tmp_path / "out" / "scores.parquet")
    assert {"round", "set", "table", "player", "direction", "score", "score_rate"} <= set(
        scores.columns)


def test_score_takes_several_files_and_the_expected_count(tmp_path):
    first = results_file(tmp_path / "r1.parquet")
    second = results_file(tmp_path / "r2.parquet", round=[3, 3, 3, 4, 4],
                          set=[3, 3, 3, 4, 4])
    result = run("score", first, second, "--out", tmp_path / "out", "--expected", "4",
                 "--quiet")
    assert result.exit_code == 0, result.output
    travellers = pd.read_parquet(tmp_path / "out" / "travellers.parquet")
    # Set 1: n = 3 of N = 4; +3 beats both: MP 4 -> (5 * 4/3 - 1) / 6 = 17/18.
    assert travellers.loc[0, "ns_rate"] == pytest.approx(17 / 18)
    assert sorted(travellers["round"].unique()) == [1, 2, 3, 4]


def test_missing_results_file_is_an_error_and_writes_nothing(tmp_path):
    result = run("score", tmp_path / "nope.parquet", "--out", tmp_path / "out", "--quiet")
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: ")
    assert "nope.parquet" in result.stderr
    assert not (tmp_path / "out").exists()


def test_out_that_is_a_file_is_refused_before_any_work(tmp_path):
    (tmp_path / "out").write_text("mine")
    result = run("score", results_file(tmp_path / "r.parquet"), "--out", tmp_path / "out",
                 "--quiet")
    assert result.exit_code == 1
    assert f"output folder {str(tmp_path / 'out')!r} is a file" in result.stderr
    assert (tmp_path / "out").read_text() == "mine"


def test_invalid_results_give_the_ingestion_error_and_keep_old_outputs(tmp_path):
    out = tmp_path / "out"
    run("score", results_file(tmp_path / "good.parquet"), "--out", out, "--quiet")
    before = {name: (out / name).read_bytes() for name in OUTPUTS}
    bad = results_file(tmp_path / "bad.parquet", ns_level=["7", "Z", "4", "3", None])
    result = run("score", bad, "--out", out, "--quiet")
    assert result.exit_code == 1
    assert "Error: 1 problem in the results; nothing was written:" in result.stderr
    assert "'Z'" in result.stderr and "row 2" in result.stderr
    assert {name: (out / name).read_bytes() for name in OUTPUTS} == before
    assert sorted(p.name for p in out.iterdir()) == OUTPUTS


def test_score_files_returns_what_it_wrote_with_warnings(tmp_path):
    scored = score_files([results_file(tmp_path / "r.parquet")], tmp_path / "out", expected=2)
    assert scored.warnings == ["set 1: 3 results but only 2 tables expected; not adjusted"]
    written = pd.read_parquet(tmp_path / "out" / "standings.parquet")
    pd.testing.assert_frame_equal(written, scored.standings, check_dtype=False)


def test_compare_within_group_is_an_option(tmp_path):
    source = results_file(tmp_path / "r.parquet", group=[1, 1, 2, 1, 1])
    result = run("score", source, "--out", tmp_path / "out", "--compare-within", "group",
                 "--quiet")
    assert result.exit_code == 0, result.output
    travellers = pd.read_parquet(tmp_path / "out" / "travellers.parquet")
    assert travellers.loc[travellers["table"] == 3, "ns_rate"].tolist()[0] == 0.5


@pytest.fixture
def scored_dir(tmp_path):
    run("score", results_file(tmp_path / "r.parquet"), "--out", tmp_path / "out", "--quiet")
    return tmp_path / "out"


def test_standings_prints_markdown_with_ties(scored_dir):
    result = run("standings", scored_dir, "--round", "1", "--format", "md")
    assert result.exit_code == 0, result.output
    assert "| 名次 Rank | 选手 Player | 局数 Sets | 本轮 Round % | 累计 Total % |" in result.stdout
    assert "| 1= | A | 1 | 100.00 | 100.00 |" in result.stdout


def test_standings_and_travellers_without_round_show_the_last_round_scored(scored_dir):
    for command in ("standings", "travellers"):
        latest = run(command, scored_dir)
        assert latest.exit_code == 0, latest.output
        assert latest.stdout == run(command, scored_dir, "--round", "2").stdout
    assert latest.stdout.splitlines()[0] == "# 第2轮成绩单 Travellers, round 2"


def test_standings_xlsx_needs_out_and_then_opens(scored_dir, tmp_path):
    refused = run("standings", scored_dir, "--round", "2", "--format", "xlsx")
    assert refused.exit_code == 1
    assert "Error: --format xlsx writes a binary file: give --out FILE.xlsx" in refused.stderr
    done = run("standings", scored_dir, "--round", "2", "--format", "xlsx",
               "--out", tmp_path / "s.xlsx")
    assert done.exit_code == 0, done.output
    book = openpyxl.load_workbook(io.BytesIO((tmp_path / "s.xlsx").read_bytes()))
    assert next(book.active.iter_rows(values_only=True))[0] == "名次 Rank"


def test_standings_with_names_file(scored_dir, tmp_path):
    (tmp_path / "players.csv").write_text("player,name\nA,张三\n", encoding="utf-8")
    result = run("standings", scored_dir, "--round", "1", "--format", "csv",
                 "--names", tmp_path / "players.csv")
    assert result.exit_code == 0, result.output
    assert "1=,A,张三,1,100.00,100.00" in result.stdout.splitlines()


def test_travellers_of_one_set_as_html(scored_dir, tmp_path):
    result = run("travellers", scored_dir, "--round", "2", "--set", "2", "--format", "html",
                 "--out", tmp_path / "t.html")
    assert result.exit_code == 0, result.output
    html = (tmp_path / "t.html").read_text(encoding="utf-8")
    assert "<td>A+/A-</td>" in html and '<td class="num">60.00</td>' in html


@pytest.mark.parametrize(("args", "message"), [
    (["standings", "{dir}", "--round", "9"],
     "Error: round 9 has no standings: rounds 1 and 2 scored"),
    (["travellers", "{dir}", "--round", "1", "--set", "2"],
     "Error: set 2 was not played in round 1"),
    (["standings", "{empty}", "--round", "1"], "standings.parquet"),
])
def test_report_errors(scored_dir, tmp_path, args, message):
    filled = [a.format(dir=scored_dir, empty=tmp_path / "empty") for a in args]
    result = run(*filled)
    assert result.exit_code == 1
    assert message in result.stderr


def test_a_failed_write_leaves_the_folder_as_it_was(tmp_path, monkeypatch):
    out = tmp_path / "out"
    score_files([results_file(tmp_path / "r.parquet")], out)
    before = {name: (out / name).read_bytes() for name in OUTPUTS}
    real_append = files.append_row_group

    def failing(writer, table):
        if "rank" in table.column_names:  # the standings
            raise OSError(28, "No space left on device", "standings.parquet")
        real_append(writer, table)

    monkeypatch.setattr(files, "append_row_group", failing)
    changed = results_file(tmp_path / "r2.parquet", ns_level=["8", "4", "4", "3", None])
    with pytest.raises(OSError, match="No space left"):
        score_files([changed], out)
    assert {name: (out / name).read_bytes() for name in OUTPUTS} == before
    assert sorted(p.name for p in out.iterdir()) == OUTPUTS
