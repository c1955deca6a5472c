"""Code and project links (hasCode), on text alone."""

from __future__ import annotations

import pytest

from kg.extract.urls import find_urls, url_confidence
from kg.model import URL_LABEL


@pytest.mark.parametrize(
    ("text", "url"),
    [
        ("Code is available at https://github.com/sail-sg/variational-reasoning.", "https://github.com/sail-sg/variational-reasoning"),
        ("(code: https://gitlab.com/a/b).", "https://gitlab.com/a/b"),
        ("Models at https://huggingface.co/org/model, data soon.", "https://huggingface.co/org/model"),
        ("See https://en.wikipedia.org/wiki/Foo_(bar) for more", "https://en.wikipedia.org/wiki/Foo_(bar)"),
        ("Project page: www.example.org/project;", "www.example.org/project"),
        ("Repo: HTTPS://GitHub.com/X/Y!", "HTTPS://GitHub.com/X/Y"),
    ],
)
def test_urls_lose_trailing_punctuation_only(text: str, url: str) -> None:
    found = find_urls(text)
    assert [m.text for m in found] == [url]
    assert text[found[0].start : found[0].end] == url
    assert found[0].label == URL_LABEL


@pytest.mark.parametrize("text", ["no link here", "http:// alone", "a.b.c is not a URL", "https://"])
def test_text_without_urls(text: str) -> None:
    assert find_urls(text) == []


def test_code_hosts_are_more_confident_than_other_pages() -> None:
    assert url_confidence("https://github.com/a/b") > url_confidence("https://example.org/page")
    assert 0.0 <= url_confidence("https://example.org") <= 1.0
