"""Event keys and commitments (SPEC 3.3): secret, owner-only, never overwritten by accident."""

import hashlib
import os
import warnings

import pytest
from write_support import disk_full

from guandan_dup.deals.keys import (
    KeyPermissionWarning,
    commitment,
    create_key,
    new_key,
    read_key,
    write_key,
)
from guandan_dup.errors import KeyFileError

KEY = bytes(range(32))


def test_new_keys_are_256_random_bits():
    keys = {new_key() for _ in range(8)}
    assert len(keys) == 8
    assert all(len(key) == 32 for key in keys)


def test_commitment_is_sha256_of_label_and_key_as_documented():
    expected = hashlib.sha256(b"guandan-dup/commitment/v1" + KEY).hexdigest()
    assert commitment(KEY) == expected
    assert commitment(bytes(32)) != expected


def test_key_file_is_64_hex_digits_and_a_newline_with_mode_0600(tmp_path):
    path = tmp_path / "event.key"
    write_key(path, KEY)
    assert path.read_bytes() == KEY.hex().encode() + b"\n"
    assert os.stat(path).st_mode & 0o777 == 0o600
    assert read_key(path) == KEY


def test_create_key_returns_the_commitment_of_the_key_it_wrote(tmp_path):
    path = tmp_path / "event.key"
    assert create_key(path) == commitment(read_key(path))


def test_an_existing_key_is_replaced_only_with_force(tmp_path):
    path = tmp_path / "event.key"
    write_key(path, KEY)
    with pytest.raises(KeyFileError, match="already exists; refusing to replace it"):
        write_key(path, bytes(32))
    assert read_key(path) == KEY
    write_key(path, bytes(32), force=True)
    assert read_key(path) == bytes(32)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"abc\n", "malformed: expected 64 hexadecimal digits .* found 3 characters"),
        (b"zz" * 32 + b"\n", "malformed"),
        (KEY.hex().encode() * 2, "found 128 characters"),
        (b"\xff" * 64, "malformed"),
    ],
    ids=["short", "not hex", "two keys", "binary"],
)
def test_malformed_key_files_are_refused_without_quoting_them(tmp_path, content, message):
    path = tmp_path / "event.key"
    path.write_bytes(content)
    path.chmod(0o600)
    with pytest.raises(KeyFileError, match=message) as caught:
        read_key(path)
    assert content.decode("latin-1")[:8] not in str(caught.value)


def test_a_missing_key_file_is_named(tmp_path):
    with pytest.raises(KeyFileError, match="key file '.*nope.key' does not exist"):
        read_key(tmp_path / "nope.key")


def test_a_key_readable_by_others_warns_but_is_read(tmp_path):
    path = tmp_path / "event.key"
    write_key(path, KEY)
    path.chmod(0o644)
    with pytest.warns(KeyPermissionWarning, match="is readable by others; chmod 600 it"):
        assert read_key(path) == KEY


def test_an_owner_only_key_reads_silently(tmp_path):
    path = tmp_path / "event.key"
    write_key(path, KEY)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        read_key(path)


def test_a_folder_is_never_replaced_by_a_key(tmp_path):
    with pytest.raises(KeyFileError, match="cannot write the key to '.*': it is a folder"):
        write_key(tmp_path, KEY, force=True)
    assert list(tmp_path.iterdir()) == []


def test_issue20_a_key_whose_sync_fails_is_not_left_half_written(tmp_path, monkeypatch):
    path = tmp_path / "event.key"
    disk_full(monkeypatch)
    with pytest.raises(OSError, match="No space left"):
        write_key(path, KEY)
    assert list(tmp_path.iterdir()) == []
