"""The server's JSON (``live.jsontext``) writes and reads what the standard library's does:
a resent item's canonical text must equal the one a journal written with ``json`` holds."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guandan_dup.live import jsontext

SCALARS = (st.none() | st.booleans() | st.integers() | st.text()
           | st.text(alphabet=st.characters(max_codepoint=0x3F)))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(max_size=5), inner, max_size=4), max_leaves=12)


@given(VALUES)
@settings(max_examples=500, deadline=None)
def test_canonical_dumps_and_loads_agree_with_json(value):
    assert jsontext.canonical(value) == json.dumps(value, sort_keys=True, ensure_ascii=False,
                                                   separators=(",", ":"))
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    assert jsontext.dumps(value) == text.encode("utf-8", "surrogatepass")
    assert jsontext.loads(text) == value


def test_what_orjson_does_not_read_is_read_as_json_reads_it():
    assert jsontext.loads('{"x": NaN, "n": 123456789012345678901234567890}')["n"] == (
        123456789012345678901234567890)
    with pytest.raises(ValueError, match="Expecting value"):  # json's words, with where
        jsontext.loads(b"not json")
