"""The tables per group ``event init`` suggests (``movement.groups``, docs/director-guide.md,
"Create the event"): a last group under half a full one is awkward; the suggestion is the
nearest size that is not, the smaller of two as near, 8 when none was given."""

import pytest

from guandan_dup.movement.groups import awkward, group_sizes, suggested_tables_per_group


@pytest.mark.parametrize(("tables", "per_group", "sizes", "is_awkward"), [
    (7, 4, [4, 3], False),
    (7, 6, [6, 1], True),
    (7, 7, [7], False),
    (7, 20, [7], False),  # more than the tables: one group, nothing left over
    (9, 4, [4, 4, 1], True),
    (10, 4, [4, 4, 2], False),  # a half-full last group is not awkward
    (57, 8, [8] * 7 + [1], True),
    (8, 1, [1] * 8, False),
])
def test_a_last_group_under_half_a_full_one_is_awkward(tables, per_group, sizes, is_awkward):
    assert group_sizes(tables, per_group) == sizes
    assert awkward([tables], per_group) is is_awkward


@pytest.mark.parametrize(("venues", "wanted", "suggested"), [
    ([7], None, 7),  # up to 8 tables: one group
    ([12], None, 8),  # 8 and 4: a half-full last group is not awkward
    ([57], None, 6),  # 8, 7 and 9 leave a table or three; 6 and 10 fit, the smaller wins
    ([7], 6, 7),
    ([9], 4, 3),
    ([10], 3, 2),
    ([4, 9], 4, 5),  # 4 leaves the 9 tables a group of 1, 3 the 4 tables; 5 fits both
])
def test_the_suggestion_is_the_nearest_size_no_venue_finds_awkward(venues, wanted, suggested):
    size = suggested_tables_per_group(venues, wanted)
    assert size == suggested
    assert not awkward(venues, size)
