"""``--shard K/N``: a deterministic slice of a run, for CI matrices; parsed once, where the command line is read."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Shard:
    """The ``k``-th of ``n`` slices (1-based): every n-th item, starting at the k-th."""

    k: int
    n: int

    @classmethod
    def parse(cls, text: str) -> Shard:
        """``"k/n"`` with ``1 <= k <= n``; ``ValueError`` names the flag and says what is wrong."""
        try:
            k, n = (int(x) for x in text.split("/"))
        except ValueError:
            raise ValueError(f"--shard {text!r}: expected k/n, e.g. 1/4") from None
        if not 1 <= k <= n:
            raise ValueError(f"--shard {text!r}: k must be between 1 and n")
        return cls(k, n)

    def select(self, items: list[T]) -> list[T]:
        """This shard's share of ``items``, in their order."""
        return items[self.k - 1 :: self.n]

    def __str__(self) -> str:
        return f"{self.k}/{self.n}"
