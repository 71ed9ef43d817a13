"""The link of each GPU pair of a topology, one byte per pair (issue 35).

A `topo -m` of n GPUs names n² links. Held as a dict of ``(i, j) → token`` they cost about
200 bytes each (a 2,048-GPU matrix of 21 MB took 600 MB to 1 GB and, through a quadratic
component search, 16-74 s); here each pair is one byte of an n × n table, a code into the few
tokens a matrix uses (``X``, ``PIX`` … ``SYS``, ``NV#``), and a row is written with one slice
assignment, so reading a matrix costs time and memory linear in its size.

``PairLinks`` answers what a dict of pairs would (``links[(i, j)]``, ``setdefault``, ``items``,
``len``) for the NVML reader and the merge, and what the link facts need without walking every
pair one by one: the tokens present, how many pairs have a kind of token, the GPUs in a pair,
the NVLink pairs up to a cap, and the components the NVLinks join.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

# One byte per pair: code 0 is "no link known", so 255 tokens at most. A matrix uses a handful
# (X, PIX, PXB, PHB, NODE, SYS, NV1..NV18); past 255 distinct ones a new token is not stored.
_MAX_CODES = 255


class PairLinks:
    """Links between GPU pairs, keyed ``(i, j)`` with ``i < j`` (GPU numbers)."""

    def __init__(self, capacity: int = 0, limit: int = 4096) -> None:
        self._tokens: list[str] = [""]  # code -> token
        self._codes: dict[str, int] = {}  # token -> code
        self._numbers: list[int] = []  # position -> GPU number
        self._pos: dict[int, int] = {}  # GPU number -> position
        self._limit = limit  # the most GPUs it holds (reading.MAX_GPUS)
        self._n = max(0, min(capacity, limit))
        # cell (p, q) of positions p < q at p * n + q; the rest stays 0
        self._cells = bytearray(self._n * self._n)

    # -- codes and positions --------------------------------------------------------------
    def code(self, token: str) -> int | None:
        """The code of ``token``, added when new; None when the table is full."""
        found = self._codes.get(token)
        if found is not None:
            return found
        if len(self._tokens) > _MAX_CODES:
            return None
        self._codes[token] = len(self._tokens)
        self._tokens.append(token)
        return len(self._tokens) - 1

    def token_list(self) -> list[str]:
        """The tokens in the order of their codes (a table started with them has the same)."""
        return self._tokens[1:]

    def token_of(self, code: int) -> str | None:
        return self._tokens[code] if code else None

    def position(self, number: int) -> int | None:
        """The position of GPU ``number``, added when new; None past the GPU limit."""
        found = self._pos.get(number)
        if found is not None:
            return found
        if len(self._numbers) >= self._limit:
            return None
        p = len(self._numbers)
        self._numbers.append(number)
        self._pos[number] = p
        if p >= self._n:
            self._grow(max(2 * self._n, p + 1, 8))
        return p

    def _grow(self, n: int) -> None:
        n = min(n, self._limit)
        old, size = self._cells, self._n
        cells = bytearray(n * n)
        for p in range(size):
            cells[p * n:p * n + size] = old[p * size:(p + 1) * size]
        self._cells, self._n = cells, n

    # -- writing ----------------------------------------------------------------------------
    def _fill(self, where: slice, new: bytes) -> None:
        """Write ``new`` into the cells of ``where`` that hold no link yet (the first link
        given for a pair wins, as ``dict.setdefault`` would)."""
        cells = self._cells
        old = cells[where]
        if not old:
            return
        unset = old.count(0)
        if unset == len(old):
            cells[where] = new
        elif unset:
            cells[where] = bytes(o or c for o, c in zip(old, new, strict=True))

    def fill_row(self, p: int, codes: bytes) -> None:
        """The links row ``p`` gives to positions ``0 .. len(codes) - 1`` (0: none), each kept
        only where the pair has no link yet."""
        n = self._n
        width = min(len(codes), n)
        left = min(p, width)
        if left:  # pairs (q, p) with q < p: column p of the rows above
            self._fill(slice(p, p + left * n, n), codes[:left])
        if width > p + 1:  # pairs (p, q) with q > p: row p to the right of the diagonal
            self._fill(slice(p * n + p + 1, p * n + width), codes[p + 1:width])

    def _cell(self, i: int, j: int, add: bool) -> int | None:
        a = self.position(i) if add else self._pos.get(i)
        b = self.position(j) if add else self._pos.get(j)
        if a is None or b is None or a == b:
            return None
        a, b = min(a, b), max(a, b)
        return a * self._n + b

    def __setitem__(self, pair: tuple[int, int], token: str) -> None:
        at, code = self._cell(*pair, add=True), self.code(token)
        if at is not None and code is not None:
            self._cells[at] = code

    def setdefault(self, pair: tuple[int, int], token: str) -> str | None:
        at = self._cell(*pair, add=True)
        if at is None:
            return None
        if not self._cells[at]:
            code = self.code(token)
            if code is None:
                return None
            self._cells[at] = code
        return self._tokens[self._cells[at]]

    def merge_from(self, other: PairLinks) -> None:
        """``other``'s links for the pairs this one has none for."""
        if other._numbers[:len(self._numbers)] == self._numbers[:len(other._numbers)] and \
                other._tokens[:len(self._tokens)] == self._tokens[:len(other._tokens)]:
            # the same GPUs in the same order, the same codes: row by row
            for number in other._numbers:
                self.position(number)
            for token in other._tokens[1:]:
                self.code(token)
            n, m = self._n, other._n
            for p in range(min(len(other._numbers), n)):
                row = other._cells[p * m:p * m + min(m, n)]
                if row.count(0) != len(row):
                    self._fill(slice(p * n, p * n + len(row)), bytes(row))
            return
        for pair, token in other.items():
            self.setdefault(pair, token)

    # -- reading ----------------------------------------------------------------------------
    def get(self, pair: tuple[int, int], default: str | None = None) -> str | None:
        at = self._cell(*pair, add=False)
        code = self._cells[at] if at is not None else 0
        return self._tokens[code] if code else default

    def __getitem__(self, pair: tuple[int, int]) -> str:
        found = self.get(pair)
        if found is None:
            raise KeyError(pair)
        return found

    def __contains__(self, pair: object) -> bool:
        return isinstance(pair, tuple) and len(pair) == 2 and self.get(pair) is not None

    def __len__(self) -> int:
        return len(self._cells) - self._cells.count(0)

    def __bool__(self) -> bool:
        return len(self) > 0

    def count(self, keep: Callable[[str], bool]) -> int:
        """How many pairs have a token ``keep`` accepts."""
        return sum(self._cells.count(c) for c, t in enumerate(self._tokens) if c and keep(t))

    def tokens(self) -> set[str]:
        """The tokens some pair has."""
        return {t for c, t in enumerate(self._tokens) if c and c in self._cells}

    def _mask(self, keep: Callable[[str], bool]) -> bytes:
        """A translate table: 1 for the codes of the tokens ``keep`` accepts, else 0."""
        table = bytearray(256)
        for c, t in enumerate(self._tokens):
            if c and keep(t):
                table[c] = 1
        return bytes(table)

    def _pairs(self, mask: bytes, limit: int | None) -> Iterator[tuple[int, int]]:
        cells, n, numbers = self._cells, self._n, self._numbers
        size = min(n, len(numbers))
        found = 0
        for p in range(size):
            row = cells[p * n:p * n + size].translate(mask)
            q = row.find(1, p + 1)
            while q != -1:
                i, j = numbers[p], numbers[q]
                yield (i, j) if i < j else (j, i)
                found += 1
                if limit is not None and found >= limit:
                    return
                q = row.find(1, q + 1)

    def pairs(self, keep: Callable[[str], bool], limit: int | None = None
              ) -> list[tuple[int, int]]:
        """The pairs whose token ``keep`` accepts (at most ``limit``), in order."""
        return sorted(self._pairs(self._mask(keep), limit))

    def items(self) -> Iterator[tuple[tuple[int, int], str]]:
        for pair in self._pairs(self._mask(bool), None):
            yield pair, self[pair]

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return (pair for pair, _token in self.items())

    def values(self) -> Iterator[str]:
        return (token for _pair, token in self.items())

    def __repr__(self) -> str:
        return f"PairLinks({dict(self.items())!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PairLinks):
            return dict(self.items()) == dict(other.items())
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, compared by content

    def _neighbours(self, p: int, mask: bytes) -> bytes:
        """Position ``p``'s row of the symmetric table through ``mask`` (a translate table)."""
        n, cells = self._n, self._cells
        column = cells[p:p + p * n:n]  # (q, p) for q < p
        return (bytes(column) + bytes(cells[p * n + p:(p + 1) * n])).translate(mask)

    def gpus(self) -> set[int]:
        """The GPUs some pair names."""
        used = bytes([0] + [1] * _MAX_CODES)
        return {self._numbers[p] for p in range(min(self._n, len(self._numbers)))
                if 1 in self._neighbours(p, used)}

    def components(self, keep: Callable[[str], bool]) -> list[set[int]]:
        """The groups of GPUs the pairs of a token ``keep`` accepts join (GPUs in no such pair
        are in none): each position's row is read once, its unvisited neighbours found by
        one AND of two byte strings."""
        mask = self._mask(keep)
        size = min(self._n, len(self._numbers))
        if not size or 1 not in mask:
            return []
        unvisited = int.from_bytes(b"\x01" * size, "big")
        groups: list[set[int]] = []
        for start in range(size):
            if not (unvisited >> (8 * (size - 1 - start))) & 1:
                continue
            first = int.from_bytes(self._neighbours(start, mask)[:size], "big")
            if not first:
                continue  # no link of this kind: in no group
            unvisited &= ~(1 << (8 * (size - 1 - start)))
            group, todo = {start}, [start]
            while todo:
                p = todo.pop()
                reach = int.from_bytes(self._neighbours(p, mask)[:size], "big") & unvisited
                if not reach:
                    continue
                unvisited &= ~reach
                found = reach.to_bytes(size, "big")
                q = found.find(1)
                while q != -1:
                    group.add(q)
                    todo.append(q)
                    q = found.find(1, q + 1)
            groups.append({self._numbers[p] for p in group})
        return groups
