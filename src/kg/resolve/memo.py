"""Memoised name functions whose tables live for one :func:`~kg.resolve.resolve` call.

The resolver asks the same few questions ("what are the words of this
surface form?") about every mention, and a corpus has far more distinct names
than a fixed-size cache holds: past that size the hit rate falls and the time
per mention grows with the corpus. Inside :func:`scope` each memoised function
keeps every answer, so each distinct name is worked out once per call; the
tables go when the scope ends, so a long-lived process keeps nothing between
calls. Outside a scope (a caller normalising a few names) a small bounded LRU
cache answers instead.

>>> calls = []
>>> @memoised(maxsize=2)
... def double(text: str) -> str:
...     calls.append(text)
...     return text * 2
>>> with scope():
...     double("a"), double("b"), double("c"), double("a")
('aa', 'bb', 'cc', 'aa')
>>> calls
['a', 'b', 'c']
>>> with scope():
...     double("a")
'aa'
>>> calls
['a', 'b', 'c', 'a']
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache, wraps
from typing import Any, TypeVar

__all__ = ["memoised", "scope"]

F = TypeVar("F", bound=Callable[[Any], Any])

# A context variable, not a global: two threads resolving at once each get their own tables.
_TABLES: ContextVar[defaultdict[Callable[[Any], Any], dict[Hashable, Any]] | None] = ContextVar("kg_resolve_memo", default=None)


@contextmanager
def scope() -> Iterator[None]:
    """Within this block, memoised functions remember every answer; on leaving, they forget them.

    Nested scopes share the outermost one's tables.
    """
    if _TABLES.get() is not None:
        yield
        return
    token = _TABLES.set(defaultdict(dict))
    try:
        yield
    finally:
        _TABLES.reset(token)


def memoised(maxsize: int) -> Callable[[F], F]:
    """Decorate a function of one hashable argument: unbounded tables inside :func:`scope`,
    an LRU cache of ``maxsize`` entries outside."""

    def decorate(function: F) -> F:
        bounded = lru_cache(maxsize=maxsize)(function)

        @wraps(function)
        def call(argument: Hashable) -> Any:
            tables = _TABLES.get()
            if tables is None:
                return bounded(argument)
            table = tables[function]
            try:
                return table[argument]
            except KeyError:
                answer = table[argument] = function(argument)
                return answer

        return call  # type: ignore[return-value]

    return decorate
