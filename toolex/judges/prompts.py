"""Prompt files rendered from named placeholders, with untrusted text fenced off.

A prompt file (``prompts/<stage>.md``) holds two sections, introduced by the lines
``<<<system>>>`` and ``<<<user>>>``; placeholders are ``{{name}}``. Rendering fails on a missing or
unknown placeholder, so a template and its caller cannot drift apart silently. The prompt version
recorded in the call ledger is ``<stage>-`` + the first 12 hex digits of sha256(template file), so
editing a prompt invalidates exactly the cached answers it produced.

Untrusted text (queries, tool documentation) is wrapped in a data block whose boundary token is
derived from a hash of the wrapped texts themselves: a document cannot contain the token that
closes its own block (that would need a sha256 pre-image), yet the same task renders to the same
prompt, so the ledger can serve repeats. The system prompt tells the model those blocks are data.

The verify prompt hashes only the sub-query and the reference (the candidate is merely kept out
of the token: ``avoid``) and names the token late, in the user message, not in its system
prompt: its many prompts then share their system prompt, and the prompts of one (sub-query,
reference) pair everything up to the candidate's block, which a server's prompt cache reuses
(issue 28.4: 616 of ~800 tokens cached, prompt time 23 s -> 5-7 s per candidate on a local
server; with a token per candidate, consecutive prompts shared 35 tokens).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from toolex.resources import prompt_path

_PLACEHOLDER = re.compile(r"\{\{([a-z0-9_]+)\}\}")


@dataclass(frozen=True)
class Template:
    stage: str
    system: str
    user: str
    version: str

    def render(self, **values: str) -> tuple[str, str]:
        """(system, user) with every ``{{name}}`` replaced; errors name the placeholder."""
        return _fill(self.system, values, self.stage), _fill(self.user, values, self.stage)

    @property
    def placeholders(self) -> frozenset[str]:
        return _placeholders(self.system + self.user)


def _fill(text: str, values: dict[str, str], stage: str) -> str:
    def sub(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in values:
            raise KeyError(f"prompt {stage!r} needs a value for {{{{{name}}}}}")
        return values[name]

    return _PLACEHOLDER.sub(sub, text)


@cache
def _placeholders(text: str) -> frozenset[str]:
    return frozenset(_PLACEHOLDER.findall(text))


@cache
def load_template(stage: str) -> Template:
    raw = prompt_path(f"{stage}.md").read_text(encoding="utf-8")
    version = f"{stage}-{hashlib.sha256(raw.encode()).hexdigest()[:12]}"
    parts = re.split(r"^<<<(system|user)>>>\s*$", raw, flags=re.MULTILINE)
    sections = dict(zip(parts[1::2], parts[2::2], strict=True))
    if set(sections) != {"system", "user"}:
        raise ValueError(f"prompt {stage}.md must have <<<system>>> and <<<user>>> sections")
    return Template(stage, sections["system"].strip(), sections["user"].strip() + "\n", version)


def render(stage: str, **values: str) -> tuple[str, str]:
    """Render ``prompts/<stage>.md``; unknown placeholders in ``values`` are an error too."""
    template = load_template(stage)
    unknown = set(values) - template.placeholders
    if unknown:
        raise KeyError(f"prompt {stage!r} has no placeholder(s) {sorted(unknown)}")
    return template.render(**values)


# What the prompts call an item of each kind (items.kind), singular and plural.
NOUNS = {"tool": ("tool", "tools"), "skill": ("skill", "skills")}


def item_nouns(kinds: Iterable[str]) -> dict[str, str]:
    """``{"noun", "nouns"}`` for the prompts' ``{{noun}}`` / ``{{nouns}}``: the word of the
    items' kind (a skill library's prompts speak of skills), "tool or skill" when they mix."""
    found = sorted(set(kinds)) or ["tool"]
    words = [NOUNS.get(k, (k, f"{k}s")) for k in found]
    return {
        "noun": " or ".join(one for one, _ in words),
        "nouns": " or ".join(many for _, many in words),
    }


def boundary_for(*texts: str, avoid: Iterable[str] = ()) -> str:
    """A fence token no wrapped text contains: ``DATA-`` + 16 hex digits of the hash of
    ``texts``; texts in ``avoid`` are wrapped too, but left out of the hash, so prompts that
    differ only in them share the token."""
    avoid = tuple(avoid)
    digest = hashlib.sha256("\x00".join(texts).encode("utf-8"))
    salt = 0
    while True:
        token = f"DATA-{digest.hexdigest()[:16]}"
        if not any(token in t for t in (*texts, *avoid)):
            return token
        salt += 1  # unreachable in practice; kept so the guarantee does not rest on luck
        digest.update(str(salt).encode())


def fence(boundary: str, label: str, text: str) -> str:
    """One data block: opening line, the text verbatim, closing line, both carrying the token."""
    return f"<<{boundary} BEGIN {label}>>\n{text}\n<<{boundary} END {label}>>"
