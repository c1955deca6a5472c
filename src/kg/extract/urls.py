"""Links to code and project pages written in an abstract (``hasCode``).

Works on the text, not the tokens: tokenisers cut URLs at odd places. Trailing
punctuation that ends the sentence or closes a parenthesis is not part of the
URL.

>>> [m.text for m in find_urls("Code: https://github.com/a/b. Data at www.x.org/d).")]
['https://github.com/a/b', 'www.x.org/d']
"""

from __future__ import annotations

import re

from kg.extract.annotations import extractor_name
from kg.model import URL_LABEL, Mention

_URL = re.compile(r"(?:https?://|www\.)[^\s<>\"'{}|\\^`]+", re.IGNORECASE)
# Hosts that nearly always carry code, models or data: highest confidence.
CODE_HOSTS = ("github.com", "gitlab.com", "huggingface.co", "bitbucket.org", "github.io", "zenodo.org")


def _trim(url: str) -> str:
    """Strip trailing punctuation, and a closing bracket the URL did not open."""
    while url:
        last = url[-1]
        if last in ".,;:!?'\"":
            url = url[:-1]
        elif last in ")]}" and url.count({")": "(", "]": "[", "}": "{"}[last]) < url.count(last):
            url = url[:-1]
        else:
            break
    return url


def url_confidence(url: str) -> float:
    """How surely a URL points at the paper's code: code hosts high, other pages lower.

    >>> url_confidence("https://github.com/x/y") > url_confidence("https://example.org")
    True
    """
    return 0.95 if any(host in url.lower() for host in CODE_HOSTS) else 0.7


def find_urls(text: str) -> list[Mention]:
    """URL mentions (label ``URL``) with their character offsets in ``text``."""
    found = []
    for match in _URL.finditer(text):
        url = _trim(match.group(0))
        if len(url) > len("https://") and "." in url:
            found.append(
                Mention(match.start(), match.start() + len(url), URL_LABEL, url, url_confidence(url), extractor_name("urls"))
            )
    return found
