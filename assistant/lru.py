"""A bounded map that forgets the least recently used entry first, shared by threads, whose
bound can be raised while it runs.

`functools.lru_cache` fixes its bound when the function is defined, and keeps every
argument it was called with: a post's whole body, a matcher and all it learned. The caches
of a daemon's many games want neither: they key by a fingerprint of the body (so no body
is kept) and grow only when one game's day needs more room (`grow_to`), so that 200 short
games do not hold what only one long game would use.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Lru(Generic[K, V]):
    """At most `size` entries; `hits` and `misses` count the lookups (for tests and
    benchmarks)."""

    def __init__(self, size: int, *, most: int | None = None) -> None:
        self.size = size
        self.most = most if most is not None else size
        """How far `grow_to` may raise the bound."""
        self.hits = self.misses = 0
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get_or_make(self, key: K, make: Callable[[], V]) -> V:
        """The value kept for `key`, else `make()` kept. `make` runs outside the lock: two
        threads may both make a missing value, and the last one made is kept."""
        with self._lock:
            try:
                value = self._items[key]
            except KeyError:
                self.misses += 1
            else:
                self._items.move_to_end(key)
                self.hits += 1
                return value
        value = make()
        with self._lock:
            self._items[key] = value
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return value

    def grow_to(self, size: int) -> None:
        """Hold at least `size` entries from now on (never more than `most`)."""
        if size > self.size:
            with self._lock:
                self.size = max(self.size, min(size, self.most))

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._items)


def fingerprint(text: str) -> tuple[int, int]:
    """A text as a cache's key without the text: its length and 64-bit hash (keyed anew in
    each process, so two texts of one process that collide are as unlikely as any two
    64-bit values)."""
    return len(text), hash(text)
