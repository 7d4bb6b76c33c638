"""The request body's gzip reader reads what `gzip` reads, and no more than it is allowed."""

from __future__ import annotations

import gzip
import zlib

import pytest

from app.middleware import gunzip


def test_every_member_of_a_gzip_body_is_read_as_gzip_reads_them() -> None:
    body = gzip.compress(b'{"a": ') + gzip.compress(b"1}") + b"\0\0\0"
    assert gunzip(body, 1024) == gzip.decompress(body) == b'{"a": 1}'


def test_no_more_than_the_limit_is_inflated() -> None:
    assert len(gunzip(gzip.compress(b"x" * 10_000), 101)) == 101
    assert len(gunzip(gzip.compress(b"x" * 80) + gzip.compress(b"y" * 80), 101)) == 101


def test_a_body_cut_short_is_refused() -> None:
    body = gzip.compress(b"hello world" * 100)
    with pytest.raises(EOFError):
        gunzip(body[: len(body) // 2], 10_000)


def test_a_body_that_is_not_gzip_is_refused() -> None:
    with pytest.raises(zlib.error):
        gunzip(b"plainly not gzip", 10_000)
