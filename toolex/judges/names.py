"""What the offline verifier reads off two tools' names and the request: siblings (one object,
two qualifiers: C vs C#, closing vs opening) and a request that names the reference.

Observations the evidence reader (toolex/judges/evidence.py) turns into features and vetoes;
kept apart because they read names only, where the reader measures whole documents. Names are
untrusted text: they only ever become words compared with other words.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType

from toolex.judges.base import ToolDoc, per_tool
from toolex.judges.lexicon import OP_BY_STEM
from toolex.tooldoc import fields as df

# Name words that say nothing about which object or variant a tool serves.
_GENERIC_NAME = frozenset(
    df.stem(w)
    for w in (
        "get",
        "fetch",
        "retrieve",
        "list",
        "show",
        "find",
        "search",
        "lookup",
        "query",
        "info",
        "information",
        "data",
        "detail",
        "details",
        "all",
        "by",
        "api",
        "new",
    )
)
_IDENTIFIER_PIECE = re.compile(r"[a-z]+\d|\d+[a-z]|[a-z][A-Z]")
# Words that name a size or build of one thing (t5-base vs t5-large), not another thing.
_VARIANT = frozenset(
    (
        "tiny",
        "mini",
        "small",
        "base",
        "medium",
        "large",
        "xl",
        "xxl",
        "big",
        "huge",
        "lite",
        "light",
        "distil",
        "distilled",
        "fast",
        "v1",
        "v2",
        "v3",
        "v4",
        "pro",
        "plus",
        "basic",
        "advance",
        "advanced",
        "ultra",
        "premium",
        "free",
    )
)


@per_tool
def _name_words(tool: ToolDoc) -> Mapping[str, str]:
    """Comparable key (stem, or an operation class for a verb) -> the word as written."""
    out: dict[str, str] = {}
    for w in df.split_words(df.name(tool.doc) or tool.name or ""):
        s = df.stem(w)
        if s in _GENERIC_NAME or w in df.STOPWORDS or w.isdigit() or len(w) < 2:
            continue
        out.setdefault("op:" + OP_BY_STEM[s] if s in OP_BY_STEM else s, w)
    return MappingProxyType(out)  # shared by every pair that reads this tool: read-only


def _alike(a: str, b: str) -> bool:
    """One word written two ways: a compound split differently ("cashflow" / "cash"), or two
    forms of one stem ("generator" / "generate")."""
    if len(a) > 2 and len(b) > 2 and (a in b or b in a):
        return True
    return len(a) >= 6 and len(b) >= 6 and a[:6] == b[:6]


def sibling(cand: ToolDoc, ref: ToolDoc) -> str | None:
    """Why the two look like siblings (same object, each with its own qualifier), or None.

    Model ids (``org/model-size``) are exempt: size and org variants of one model family are
    the normal shape of equivalent models. Compounds split differently on the two sides
    ("cashflow" vs "cash flow") are not qualifiers.
    """
    rn_raw, cn_raw = df.name(ref.doc) or ref.name or "", df.name(cand.doc) or cand.name or ""
    if "/" in rn_raw or "/" in cn_raw:
        return None
    rw, cw = _name_words(ref), _name_words(cand)
    rn, cn = set(rw), set(cw)
    shared = rn & cn
    only_r = {w for w in rn - cn if not any(_alike(rw[w], cw[x]) for x in cn)}
    only_c = {w for w in cn - rn if not any(_alike(cw[w], rw[x]) for x in rn)}

    def variant(words: set[str]) -> bool:
        return all(w in _VARIANT or any(ch.isdigit() for ch in w) for w in words)

    if shared and only_r and only_c and not (variant(only_r) and variant(only_c)):
        return (
            f"sibling: both are about {', '.join(sorted(rw[w] for w in shared))} but the "
            f"reference says {', '.join(sorted(rw[w] for w in only_r))} and the candidate "
            f"{', '.join(sorted(cw[w] for w in only_c))}"
        )
    return None


def checkpoints(cand: ToolDoc, ref: ToolDoc) -> bool:
    """Both names are checkpoint ids (hyphenated, with a digit: ``glpn-kitti-finetuned-diode-
    221214`` vs ``glpn-nyu-finetuned-diode-221121``): the dataset or date words between the
    hyphens name a training run of one model family, the way ``org/model`` ids do (which
    ``sibling`` already exempts), not another object."""

    def checkpoint(tool: ToolDoc) -> bool:
        name = df.name(tool.doc) or tool.name or ""
        return "-" in name and any(ch.isdigit() for ch in name)

    return checkpoint(cand) and checkpoint(ref)


def named_reference(request: str, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """The reference's platform or model id when the request names it and the candidate is not
    it: "translate with Cheap Translate", "use tinyroberta" (a person then wants that one)."""
    low = request.lower()
    rp, cp = (ref.platform or "").strip().lower(), (cand.platform or "").strip().lower()
    if (
        len(rp) > 3
        and rp != cp
        and re.search(r"\b" + re.escape(rp) + r"\b", low)
        and rp not in cand.text.lower()
    ):
        return f"the request names {ref.platform!r}, the reference's platform"
    cname = (df.name(cand.doc) or cand.name or "").lower()
    for piece in re.split(r"[/\s_]+", df.name(ref.doc) or ref.name or ""):
        low_piece = piece.lower()
        if (
            len(low_piece) >= 4
            and (_IDENTIFIER_PIECE.search(piece) or "-" in piece)
            and low_piece in low
            and low_piece not in cname
        ):
            return f"the request names {piece!r}, which only the reference is"
    return None
