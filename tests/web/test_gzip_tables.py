"""Public pages and tables go gzipped to the browsers that take it (a 2,000-player standings
table is 370 KB of HTML, polled by phones), compressed once per rendering, byte for byte the
same page once unpacked; 304 and ETags as before."""

from __future__ import annotations

import gzip

import pytest

from tests.web.conftest import Site
from yisai.web.core import GZIP_FROM, PageCache, takes_gzip

PAGES = ("/events/1/standings/jia", "/events/1/standings/jia/fragment", "/events/1/rounds/jia/1")
SMALL = "/events/1/rounds/jia/1/fragment"  # four boards: under GZIP_FROM, sent as it is


@pytest.mark.parametrize(("header", "takes"), [
    ("gzip, deflate, br", True), ("br;q=1.0, gzip;q=0.8", True), ("GZIP", True), ("x-gzip", True),
    ("gzip;q=0", False), ("gzip; q=0.0", False), ("identity", False), ("", False), ("deflate, br", False),
    ("gzip;q=abc", False),
])
def test_accept_encoding(header: str, takes: bool) -> None:
    assert takes_gzip(header) is takes


@pytest.mark.parametrize("path", PAGES)
def test_a_table_unpacks_to_the_page_sent_plain(site: Site, path: str) -> None:
    plain = site.client.get(path, headers={"Accept-Encoding": "identity"})
    packed = site.client.get(path, headers={"Accept-Encoding": "gzip"})
    assert plain.status_code == packed.status_code == 200
    assert "content-encoding" not in plain.headers
    assert packed.headers["content-encoding"] == "gzip"
    assert packed.headers["vary"] == plain.headers["vary"] == "Accept-Encoding"
    assert packed.content == plain.content  # httpx unpacks it
    assert packed.num_bytes_downloaded < len(plain.content) / 2
    assert packed.headers["etag"] == plain.headers["etag"]
    again = site.client.get(path, headers={"Accept-Encoding": "gzip", "If-None-Match": packed.headers["etag"]})
    assert again.status_code == 304 and again.content == b""


def test_a_small_table_goes_plain(site: Site) -> None:
    r = site.client.get(SMALL, headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200 and len(r.content) < GZIP_FROM
    assert "content-encoding" not in r.headers and r.headers["vary"] == "Accept-Encoding"


def test_compressed_once_and_replaced_with_its_rendering() -> None:
    cache = PageCache(min_age=0)
    body = ("<tr><td>棋手</td></tr>" * 200).encode()
    cache.put(("k",), 5, body)
    packed = cache.gzipped(("k",), 5)
    assert packed is not None and gzip.decompress(packed) == body
    assert cache.gzipped(("k",), 5) is packed  # kept, not compressed per request
    assert cache.gzipped(("k",), 4) is None  # another rendering's stamp
    cache.put(("k",), 6, b"<p>short</p>")
    assert len(b"<p>short</p>") < GZIP_FROM and cache.gzipped(("k",), 6) is None
    assert cache.gzipped(("k",), 5) is None  # the old one went with its rendering
    cache.put(("k",), 7, body)
    cache.forget(("k",))
    assert cache.gzipped(("k",), 7) is None
